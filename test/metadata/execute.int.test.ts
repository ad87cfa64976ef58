// runMetadataQuery against real Postgres: run_sql, tracking, relationships, consistency rules, bulk, replace/export,
// enum caching, inconsistency ops. Each test gets its own database.
import test from 'ava';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { Harness } from './harness.js';

const dbs: TestDatabase[] = [];
const harnesses: Harness[] = [];
test.after.always(async () => {
  await Promise.all(harnesses.map((h) => h.close()));
  await Promise.all(dbs.map((d) => d.drop()));
});

const BLOG = `
  CREATE TABLE author (id serial PRIMARY KEY, name text UNIQUE, remarks text);
  CREATE TABLE article (id serial PRIMARY KEY, title text, author_id integer REFERENCES author(id), published_on timestamp);
  INSERT INTO author (name) VALUES ('A1'), ('A2');
  CREATE FUNCTION search_articles(search text) RETURNS SETOF article AS $$ SELECT * FROM article WHERE title ilike ('%' || search || '%') $$ LANGUAGE sql STABLE;
`;

async function fresh(setup = BLOG): Promise<Harness> {
  const db = await createTestDatabase('wmeta');
  dbs.push(db);
  const h = await Harness.connect(db.url);
  harnesses.push(h);
  if (setup) await h.ok({ type: 'run_sql', args: { sql: setup } });
  return h;
}

const trackBlog = {
  type: 'bulk',
  args: [
    { type: 'track_table', args: { schema: 'public', name: 'author' } },
    { type: 'track_table', args: { schema: 'public', name: 'article' } },
    { type: 'create_object_relationship', args: { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } } },
    { type: 'create_array_relationship', args: { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } } },
  ],
};

test('run_sql: TuplesOk as text cells with "NULL", CommandOk, header-only', async (t) => {
  const h = await fresh();
  t.deepEqual(await h.ok({ type: 'run_sql', args: { sql: 'select id, name, remarks, true as b from author order by id' } }), {
    result_type: 'TuplesOk',
    result: [['id', 'name', 'remarks', 'b'], ['1', 'A1', 'NULL', 't'], ['2', 'A2', 'NULL', 't']],
  });
  t.deepEqual(await h.ok({ type: 'run_sql', args: { sql: 'select 1 as x where false' } }), { result_type: 'TuplesOk', result: [['x']] });
  t.deepEqual(await h.ok({ type: 'run_sql', args: { sql: 'insert into author (name) values ($$x$$); select count(*) from author' } }), {
    result_type: 'TuplesOk',
    result: [['count'], ['3']],
  });
  t.deepEqual(await h.ok({ type: 'run_sql', args: { sql: 'update author set remarks = null' } }), { result_type: 'CommandOk', result: null });
});

test('run_sql: postgres errors, read_only, bad args', async (t) => {
  const h = await fresh();
  const r = await h.sql('select * from nope');
  t.is(r.status, 400);
  const body = r.body as { code: string; error: string; path: string; internal: { statement: string; error: { status_code: string } } };
  t.is(body.code, 'postgres-error');
  t.is(body.error, 'query execution failed');
  t.is(body.path, '$');
  t.is(body.internal.statement, 'select * from nope');
  t.is(body.internal.error.status_code, '42P01');
  const ro = await h.sql('insert into author (name) values ($$z$$)', { read_only: true });
  t.is((ro.body as { code: string }).code, 'postgres-error');
  t.deepEqual(await h.ok({ type: 'run_sql', args: { sql: 'select count(*) from author', read_only: true } }), { result_type: 'TuplesOk', result: [['count'], ['2']] });
  t.deepEqual((await h.query({ type: 'run_sql', args: {} })).body, { path: '$', error: 'key "sql" not found', code: 'parse-failed' });
});

test('envelope errors: version, args as string, unknown type', async (t) => {
  const h = await fresh('');
  t.deepEqual((await h.query({ type: 'track_function', version: 3, args: { function: 'f' } })).body, {
    path: '$.version', error: 'expected 1 or 2, encountered 3', code: 'parse-failed',
  });
  t.deepEqual((await h.query('type: count')).body, { path: '$', error: 'parsing Object failed, expected Object, but encountered String', code: 'parse-failed' });
  t.is((await h.query({ type: 'random', args: { foo: 'bar' } })).status, 400);
  t.deepEqual((await h.query({ type: 'export_metadata' })).body, { path: '$', error: 'key "args" not found', code: 'parse-failed' });
});

test('track, relationships and export; untrack with dependents', async (t) => {
  const h = await fresh();
  t.deepEqual(await h.ok(trackBlog), [{ message: 'success' }, { message: 'success' }, { message: 'success' }, { message: 'success' }]);
  await h.ok({ type: 'track_function', args: 'search_articles' });
  t.deepEqual(await h.ok({ type: 'export_metadata', args: {} }), {
    version: 2,
    tables: [
      { table: { schema: 'public', name: 'article' }, object_relationships: [{ name: 'author', using: { foreign_key_constraint_on: 'author_id' } }] },
      {
        table: { schema: 'public', name: 'author' },
        array_relationships: [{ name: 'articles', using: { foreign_key_constraint_on: { column: 'author_id', table: { schema: 'public', name: 'article' } } } }],
      },
    ],
    functions: [{ function: { schema: 'public', name: 'search_articles' } }],
  });
  t.deepEqual((await h.query({ type: 'untrack_table', args: { table: { name: 'author' } } })).body, {
    path: '$.args', error: 'cannot drop due to the following dependent objects : relationship article.author', code: 'dependency-error',
  });
  t.deepEqual(await h.ok({ type: 'untrack_table', args: { table: 'author', cascade: true } }), { message: 'success' });
  t.deepEqual(Object.keys(h.state.cache.tables), ['public.article']);
  t.deepEqual(h.state.cache.tables['public.article'].relationships, {});
});

test('constraint-violation for a relationship on a column without a foreign key; nothing stored', async (t) => {
  const h = await fresh();
  await h.ok(trackBlog);
  const r = await h.query({ type: 'create_object_relationship', args: { table: 'article', name: 'pub', using: { foreign_key_constraint_on: 'published_on' } } });
  t.deepEqual(r, {
    status: 400,
    body: {
      path: '$.args',
      error: 'in table "article": in relationship "pub": no foreign constraint exists on the given column',
      code: 'constraint-violation',
      internal: [{
        definition: { name: 'pub', using: { foreign_key_constraint_on: 'published_on' }, comment: null, table: { schema: 'public', name: 'article' } },
        reason: 'in table "article": in relationship "pub": no foreign constraint exists on the given column',
        type: 'object_relation',
      }],
    },
  });
  t.falsy(h.state.metadata.tables['public.article'].object_relationships.pub);
});

test('bulk: error path names the element; the whole bulk is rolled back', async (t) => {
  const h = await fresh();
  const r = await h.query({
    type: 'bulk',
    args: [
      { type: 'track_table', args: 'author' },
      { type: 'track_table', args: 'author' },
    ],
  });
  t.deepEqual(r.body, { path: '$.args[1].args', error: 'view/table already tracked : "author"', code: 'already-tracked' });
  t.deepEqual(h.state.metadata.tables, {});
  const mixed = await h.query({
    type: 'bulk',
    args: [{ type: 'track_table', args: 'author' }, { type: 'run_sql', args: { sql: 'select 1', read_only: true } }],
  });
  t.deepEqual(mixed.body, {
    path: '$', code: 'bad-request',
    error: 'incompatible access mode requirements in bulk query, expected access mode: READ WRITE but $.args[1] forces READ ONLY',
  });
});

test('run_sql metadata check: drop with dependents, cascade, renames followed', async (t) => {
  const h = await fresh();
  await h.ok(trackBlog);
  await h.ok({ type: 'create_select_permission', args: { table: 'article', role: 'user', permission: { columns: ['id', 'title'], filter: { author: { id: { _eq: 'X-Engine-User-Id' } } } } } });
  t.deepEqual((await h.sql('alter table article drop column title')).body, {
    path: '$.args', error: 'cannot drop due to the following dependent objects : permission article.user.select', code: 'dependency-error',
  });
  t.deepEqual((await h.sql('drop table author cascade')).body, {
    path: '$.args', code: 'dependency-error',
    error: 'cannot drop due to the following dependent objects : permission article.user.select, relationship article.author',
  });
  // Renames are carried into metadata.
  await h.ok({ type: 'run_sql', args: { sql: 'alter table article rename column title to headline; alter table article rename to post' } });
  const post = h.state.metadata.tables['public.post'];
  t.truthy(post);
  t.deepEqual((post.select_permissions.user.permission as { columns: string[] }).columns, ['id', 'headline']);
  t.deepEqual(h.state.metadata.tables['public.author'].array_relationships.articles.using, {
    foreign_key_constraint_on: { table: { schema: 'public', name: 'post' }, column: 'author_id' },
  });
  t.deepEqual(h.state.cache.inconsistent, []);
  // A column reached through a relationship from another table's permission is renamed there too.
  await h.ok({ type: 'create_select_permission', args: { table: 'author', role: 'user', permission: { columns: ['id'], filter: { articles: { headline: { _like: '%x%' } } } } } });
  await h.ok({ type: 'run_sql', args: { sql: 'alter table post rename column headline to subject' } });
  t.deepEqual((h.state.metadata.tables['public.author'].select_permissions.user.permission as { filter: unknown }).filter, { articles: { subject: { _like: '%x%' } } });
  t.deepEqual((h.state.metadata.tables['public.post'].select_permissions.user.permission as { columns: string[] }).columns, ['id', 'subject']);
  t.deepEqual(h.state.cache.inconsistent, []);
  // Cascade drops the dependents and untracks the table.
  await h.ok({ type: 'run_sql', args: { sql: 'drop table author cascade', cascade: true } });
  t.deepEqual(Object.keys(h.state.metadata.tables), ['public.post']);
  t.deepEqual(h.state.metadata.tables['public.post'].object_relationships, {});
  t.deepEqual(h.state.metadata.tables['public.post'].select_permissions, {});
  t.deepEqual(h.state.cache.inconsistent, []);
});

test('run_sql: dropping a tracked function untracks it; overloading it is rejected', async (t) => {
  const h = await fresh();
  await h.ok({ type: 'track_table', args: 'article' });
  await h.ok({ type: 'track_function', args: 'search_articles' });
  const over = await h.sql('create function search_articles(a int, b int) returns setof article as $$ select * from article $$ language sql stable');
  t.deepEqual(over.body, { path: '$.args', code: 'not-supported', error: 'the following tracked function(s) cannot be overloaded: search_articles' }); // unquoted (issue 8)
  await h.ok({ type: 'run_sql', args: { sql: 'drop function search_articles(text)' } });
  t.deepEqual(h.state.metadata.functions, {});
});

test('computed fields: add, function drop is a dependency, volatile is rejected', async (t) => {
  const h = await fresh(`${BLOG}
    CREATE FUNCTION fetch_articles(search text, author_row author) RETURNS SETOF article AS $$ SELECT * FROM article WHERE author_id = author_row.id $$ LANGUAGE sql STABLE;`);
  await h.ok({ type: 'bulk', args: [{ type: 'track_table', args: 'author' }, { type: 'track_table', args: 'article' }] });
  await h.ok({ type: 'add_computed_field', args: { table: 'author', name: 'get_articles', definition: { function: 'fetch_articles', table_argument: 'author_row' } } });
  t.deepEqual(h.state.cache.tables['public.author'].computedFields.get_articles.returns, { kind: 'table', table: { schema: 'public', name: 'article' }, set: true });
  t.deepEqual((await h.sql('ALTER FUNCTION fetch_articles(text, author) RENAME TO fetch_articles_renamed')).body, {
    path: '$.args', code: 'dependency-error', error: 'cannot drop due to the following dependent objects : computed field author.get_articles',
  });
  t.deepEqual((await h.sql('ALTER FUNCTION fetch_articles(text, author) VOLATILE')).body, {
    path: '$.args', code: 'not-supported',
    error: 'The type of function "fetch_articles" associated with computed field "get_articles" of table "author" is being altered to "VOLATILE"',
  });
  const bad = await h.query({ type: 'add_computed_field', args: { table: 'author', name: 'remarks', definition: { function: 'fetch_articles' } } });
  t.is((bad.body as { code: string }).code, 'constraint-violation');
  t.is((bad.body as { error: string }).error, 'field definition conflicts with postgres column');
});

test('enum tables: invalid enum is a constraint-violation; values are read at build time until reload', async (t) => {
  const h = await fresh(`
    CREATE TABLE crust (name text PRIMARY KEY); INSERT INTO crust VALUES ('thin');
    CREATE TABLE employees (id serial PRIMARY KEY, name text);`);
  await h.ok({ type: 'track_table', args: { table: 'crust', is_enum: true } });
  await h.ok({ type: 'track_table', args: 'employees' });
  const bad = await h.query({ type: 'set_table_is_enum', args: { table: 'employees', is_enum: true } });
  t.is((bad.body as { code: string }).code, 'constraint-violation');
  t.regex((bad.body as { error: string }).error, /^the table "employees" cannot be used as an enum because the table’s primary key \("id"\) must have type "text", not type "integer"/);
  t.deepEqual(h.state.cache.tables['public.crust'].enumValues, [{ value: 'thin', comment: null }]);
  await h.ok({ type: 'run_sql', args: { sql: "INSERT INTO crust VALUES ('thick')" } });
  t.deepEqual(h.state.cache.tables['public.crust'].enumValues, [{ value: 'thin', comment: null }]);
  await h.ok({ type: 'reload_metadata', args: {} });
  t.deepEqual(h.state.cache.tables['public.crust'].enumValues?.map((v) => v.value), ['thick', 'thin']);
  // An invalid value makes the table inconsistent after reload; dependents report it.
  await h.ok({ type: 'run_sql', args: { sql: "INSERT INTO crust VALUES ('not+valid')" } });
  t.deepEqual(await h.ok({ type: 'reload_metadata', args: {} }), { message: 'success' });
  const inc = (await h.ok({ type: 'get_inconsistent_metadata', args: {} })) as { is_consistent: boolean; inconsistent_objects: Array<{ reason: string }> };
  t.false(inc.is_consistent);
  t.is(inc.inconsistent_objects[0].reason, 'the table "crust" cannot be used as an enum because the value "not+valid" is not a valid GraphQL enum value name');
  await h.ok({ type: 'drop_inconsistent_metadata', args: {} });
  t.deepEqual(await h.ok({ type: 'get_inconsistent_metadata', args: {} }), { is_consistent: true, inconsistent_objects: [] });
  t.deepEqual(Object.keys(h.state.metadata.tables), ['public.employees']);
});

test('replace_metadata (v1 and v2), strict rebuild, clear_metadata', async (t) => {
  const h = await fresh();
  const v1 = {
    tables: [
      { table: 'author', array_relationships: [{ using: { foreign_key_constraint_on: { column: 'author_id', table: 'article' } }, name: 'articles', comment: 'all' }], event_triggers: [] },
      { table: 'article', object_relationships: [{ using: { foreign_key_constraint_on: 'author_id' }, name: 'author', comment: null }] },
    ],
    functions: ['search_articles'],
    query_collections: [{ name: 'c', definition: { queries: [{ name: 'q', query: '{ author { id } }' }] } }],
    allowlist: [{ collection: 'c' }],
  };
  t.deepEqual(await h.ok({ type: 'replace_metadata', args: v1 }), { message: 'success' });
  const exported = (await h.ok({ type: 'export_metadata', args: {} })) as Record<string, unknown>;
  t.deepEqual(Object.keys(exported), ['version', 'tables', 'functions', 'query_collections', 'allowlist']);
  // Export → replace is the identity.
  await h.ok({ type: 'replace_metadata', args: exported });
  t.deepEqual(await h.ok({ type: 'export_metadata', args: {} }), exported);
  const strict = await h.query({ type: 'replace_metadata', args: { version: 2, tables: [{ table: 'nope' }] } });
  t.is(strict.status, 400);
  t.like(strict.body as object, { code: 'unexpected', error: 'cannot continue due to inconsistent metadata' });
  t.deepEqual(await h.ok({ type: 'export_metadata', args: {} }), exported);
  await h.ok({ type: 'clear_metadata', args: {} });
  t.deepEqual(await h.ok({ type: 'export_metadata', args: {} }), { version: 2, tables: [] });
});

test('permissions: validation as constraint-violation, drop and comments', async (t) => {
  const h = await fresh();
  await h.ok(trackBlog);
  const bad = await h.query({ type: 'create_select_permission', args: { table: 'author', role: 'user', permission: { columns: '*', computed_fields: ['random'], filter: {} } } });
  t.deepEqual(bad.body, {
    path: '$.args', code: 'constraint-violation',
    error: 'in table "author": in permission for role "user": computed field "random" does not exist',
    internal: [{
      definition: { role: 'user', comment: null, permission: { allow_aggregations: false, computed_fields: ['random'], columns: '*', filter: {} }, table: { schema: 'public', name: 'author' } },
      reason: 'in table "author": in permission for role "user": computed field "random" does not exist',
      type: 'select_permission',
    }],
  });
  await h.ok({ type: 'create_insert_permission', args: { table: 'article', role: 'user', permission: { check: { author: { id: 'X-Engine-User-Id' } }, columns: ['title'] } } });
  await h.ok({ type: 'set_permission_comment', args: { table: 'article', role: 'user', type: 'insert', comment: 'own articles' } });
  t.deepEqual(h.state.cache.tables['public.article'].permissions.user.insert?.columns, ['title']);
  await h.ok({ type: 'drop_insert_permission', args: { table: 'article', role: 'user' } });
  t.deepEqual(h.state.cache.tables['public.article'].permissions, {});
});

test('bulk is parsed before it runs; version 2 only for its operations', async (t) => {
  const h = await fresh();
  const r = await h.query({
    type: 'bulk',
    args: [{ type: 'run_sql', args: { sql: 'create table x (id int)' } }, { type: 'create_object_relationship', args: { table: 'author', name: '', using: {} } }],
  });
  t.deepEqual(r.body, { path: '$[1].name', error: 'empty string not allowed', code: 'parse-failed' });
  t.falsy(h.state.catalog.tables['public.x']);
  t.is((await h.query({ type: 'run_sql', version: 2, args: { sql: 'select 1' } })).status, 400);
  t.is((await h.query({ type: 'set_table_custom_fields', args: { table: 'author' } })).status, 400);
  t.deepEqual(await h.ok({ type: 'bulk', args: [] }), []);
});

test('v1 DML operations run inside bulk with their access mode (select fits any bulk, insert forces READ WRITE)', async (t) => {
  const h = await fresh();
  await h.ok(trackBlog);
  t.deepEqual(await h.ok({
    type: 'bulk',
    args: [
      { type: 'select', args: { table: 'author', columns: ['name'], order_by: ['id'] } },
      { type: 'run_sql', args: { sql: 'select 1 as one', read_only: true } },
    ],
  }), [
    [{ name: 'A1' }, { name: 'A2' }],
    { result_type: 'TuplesOk', result: [['one'], ['1']] },
  ]);
  t.deepEqual((await h.query({ type: 'bulk', args: [{ type: 'count', args: { table: 'author' } }, { type: 'select', args: { table: 'nope', columns: ['x'] } }] })).body, {
    path: '$.args[1].args.table', error: 'table "nope" does not exist', code: 'not-exists',
  });
  t.deepEqual((await h.query({
    type: 'bulk',
    args: [{ type: 'insert', args: { table: 'author', objects: [{ name: 'A3' }] } }, { type: 'run_sql', args: { sql: 'select 1', read_only: true } }],
  })).body, {
    path: '$',
    error: 'incompatible access mode requirements in bulk query, expected access mode: READ WRITE but $.args[1] forces READ ONLY',
    code: 'bad-request',
  });
});

test('run_sql: a column type change under rules comparing it with literals is refused, cascade or not', async (t) => {
  const h = await fresh();
  await h.ok(trackBlog);
  await h.ok({ type: 'create_select_permission', args: { table: 'author', role: 'user', permission: { columns: '*', filter: { articles: { title: { _eq: 'x' } } } } } });
  await h.ok({ type: 'create_select_permission', args: { table: 'article', role: 'user', permission: { columns: '*', filter: { author_id: { _eq: 'X-Engine-User-Id' } } } } });
  const expected = {
    path: '$.args', code: 'dependency-error',
    error: 'cannot change type of column "title" in table "article" because of the following dependencies : permission author.user.select',
  };
  t.deepEqual((await h.sql('alter table article alter column title type varchar(100)')).body, expected);
  t.deepEqual((await h.sql('alter table article alter column title type varchar(100)', { cascade: true })).body, expected);
  // Compared with a session variable only: the type may change.
  await h.ok({ type: 'run_sql', args: { sql: 'alter table article alter column author_id type bigint' } });
  t.deepEqual(h.state.cache.inconsistent, []);
});

test('custom types and actions: types checked at build, exported in the original format', async (t) => {
  const h = await fresh('');
  await h.ok({ type: 'set_custom_types', args: { objects: [{ name: 'User', fields: [{ name: 'user_id', type: 'ID!' }] }], input_objects: [{ name: 'In', fields: [{ name: 'a', type: 'uuid' }] }] } });
  const bad = await h.query({ type: 'create_action', args: { name: 'a1', definition: { arguments: [{ name: 'x', type: 'Missing' }], output_type: 'User', handler: 'http://h' } } });
  t.like(bad.body as object, { code: 'constraint-violation', error: 'in action "a1"; the type: Missing is not defined in custom types' });
  const bad2 = await h.query({ type: 'create_action', args: { name: 'a1', definition: { output_type: 'In', handler: 'http://h' } } });
  t.like(bad2.body as object, { error: 'in action "a1"; the type: In is not an object type defined in custom types' });
  await h.ok({
    type: 'create_action',
    args: { name: 'a1', comment: 'c', definition: { arguments: [{ name: 'x', type: 'In!' }], output_type: 'User!', handler: 'http://h', timeout: 5, forward_client_headers: true } },
  });
  await h.ok({ type: 'create_action', args: { name: 'q1', definition: { output_type: '[User]', handler: 'http://h', type: 'query', kind: 'asynchronous' } } });
  await h.ok({ type: 'create_action_permission', args: { action: 'a1', role: 'user' } });
  const exported = (await h.ok({ type: 'export_metadata', args: {} })) as Record<string, unknown>;
  t.deepEqual(exported.actions, [
    {
      name: 'a1',
      definition: { handler: 'http://h', output_type: 'User!', forward_client_headers: true, arguments: [{ name: 'x', type: 'In!' }], type: 'mutation', kind: 'synchronous', timeout: 5 },
      comment: 'c',
      permissions: [{ role: 'user' }],
    },
    { name: 'q1', definition: { handler: 'http://h', output_type: '[User]', type: 'query' } },
  ]);
  t.deepEqual(exported.custom_types, { input_objects: [{ name: 'In', fields: [{ name: 'a', type: 'uuid' }] }], objects: [{ name: 'User', fields: [{ name: 'user_id', type: 'ID!' }] }] });
  // Removing a type an action uses makes the action inconsistent: refused.
  const removing = await h.query({ type: 'set_custom_types', args: { objects: [{ name: 'User', fields: [{ name: 'user_id', type: 'ID!' }] }] } });
  t.like(removing.body as object, { code: 'unexpected', error: 'cannot continue due to new inconsistent metadata' });
  // Round trip through replace_metadata.
  await h.ok({ type: 'replace_metadata', args: exported });
  t.deepEqual(await h.ok({ type: 'export_metadata', args: {} }), exported);
  await h.ok({ type: 'drop_action', args: { name: 'a1' } });
  t.deepEqual(((await h.ok({ type: 'export_metadata', args: {} })) as { actions: unknown[] }).actions.length, 1);
});
