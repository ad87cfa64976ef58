// Metadata API wording and lists as the original (issue 8): overloaded tracked functions, track_function errors'
// `internal`, run_sql read_only refusals, column type changes blocked by several permissions, event triggers in
// export order, and get_inconsistent_metadata after tables are dropped outside the engine. Issue 34: a missing
// table's reason as the original's schema cache writes it (no space before the colon) while track_table keeps
// SPEC.md's text, and set_custom_types errors carrying the inconsistent objects as `internal`.
import test from 'ava';
import pg from 'pg';
import { queryOk, startTestEngine, type TestEngine } from '../helpers/engine.js';

let e: TestEngine;
test.before(async () => {
  e = await startTestEngine();
});
test.after.always(async () => {
  await e?.close();
});

const ok = (body: unknown): Promise<unknown> => queryOk(e, body);
const sql = (s: string, extra: Record<string, unknown> = {}) => ({ type: 'run_sql', args: { sql: s, ...extra } });

/** SQL straight on the database, as a user with psql would run it (the engine does not see it). */
async function outside(s: string): Promise<void> {
  const c = new pg.Client({ connectionString: e.db.url });
  await c.connect();
  try {
    await c.query(s);
  } finally {
    await c.end();
  }
}

test.serial('overloading a tracked function: the message names it without quotes', async (t) => {
  await ok(sql(`CREATE TABLE post (id serial PRIMARY KEY, title text);
    CREATE FUNCTION search_posts(s text) RETURNS SETOF post AS 'SELECT * FROM post WHERE title ILIKE s' LANGUAGE sql STABLE;`));
  await ok({ type: 'track_table', args: 'post' });
  await ok({ type: 'track_function', args: 'search_posts' });
  const r = await e.query(sql(`CREATE FUNCTION search_posts(s text, n int) RETURNS SETOF post AS 'SELECT * FROM post LIMIT n' LANGUAGE sql STABLE`));
  t.is(r.status, 400);
  t.deepEqual(r.body, { path: '$.args', error: 'the following tracked function(s) cannot be overloaded: search_posts', code: 'not-supported' });
});

test.serial('track_function v1 and v2 errors carry the function with its schema as the definition', async (t) => {
  await ok(sql(`CREATE FUNCTION twice(s text) RETURNS SETOF post AS 'SELECT * FROM post' LANGUAGE sql STABLE;
    CREATE FUNCTION twice(s text, n int) RETURNS SETOF post AS 'SELECT * FROM post' LANGUAGE sql STABLE;`));
  const reason = 'in function "twice": function "twice" is overloaded. Overloaded functions are not supported';
  const expected = {
    path: '$.args', error: reason, code: 'constraint-violation',
    internal: [{ reason, type: 'function', definition: { schema: 'public', name: 'twice' } }],
  };
  const v2 = await e.query({ type: 'track_function', version: 2, args: { function: 'twice', configuration: {} } });
  t.deepEqual(v2.body, expected);
  const v1 = await e.query({ type: 'track_function', args: 'twice' });
  t.deepEqual(v1.body, expected);
});

test.serial('run_sql read_only refusing a write: the error path is $.args', async (t) => {
  const r = await e.query(sql(`INSERT INTO post (title) VALUES ('x')`, { read_only: true }));
  t.is(r.status, 400);
  t.like(r.body, { path: '$.args', error: 'query execution failed', code: 'postgres-error' });
  t.is((r.body as { internal: { error: { status_code: string } } }).internal.error.status_code, '25006');
  t.deepEqual(await ok(sql('SELECT count(*) AS n FROM post', { read_only: true })), { result_type: 'TuplesOk', result: [['n'], ['0']] });
});

test.serial('a column type change lists every dependent permission (filters, checks and literal presets), sorted', async (t) => {
  await ok(sql('CREATE TABLE book (id serial PRIMARY KEY, pages int, owner text)'));
  await ok({ type: 'track_table', args: 'book' });
  await ok({ type: 'create_insert_permission', args: { table: 'book', role: 'user', permission: { check: {}, set: { pages: '100' }, columns: ['owner'] } } });
  await ok({ type: 'create_select_permission', args: { table: 'book', role: 'user', permission: { filter: { pages: { _gt: 1 } }, columns: ['owner'] } } });
  await ok({ type: 'create_update_permission', args: { table: 'book', role: 'user', permission: { filter: {}, set: { pages: 'X-Engine-Pages' }, columns: ['owner'] } } });
  await ok({ type: 'create_insert_permission', args: { table: 'book', role: 'editor', permission: { check: { pages: { _lt: 9 } }, columns: ['owner'] } } });
  await ok({ type: 'create_select_permission', args: { table: 'book', role: 'anon', permission: { filter: {}, columns: ['pages'] } } });
  const r = await e.query(sql('ALTER TABLE book ALTER COLUMN pages TYPE bigint'));
  t.deepEqual(r.body, {
    path: '$.args',
    error: 'cannot change type of column "pages" in table "book" because of the following dependencies : '
      + 'permission book.editor.insert, permission book.user.insert, permission book.user.select',
    code: 'dependency-error',
  });
});

test.serial('export_metadata lists event triggers by name', async (t) => {
  for (const name of ['zeta', 'alpha', 'mid']) {
    await ok({ type: 'create_event_trigger', args: { name, table: 'post', webhook: 'http://127.0.0.1:1/hook', insert: { columns: '*' } } });
  }
  const m = (await ok({ type: 'export_metadata', args: {} })) as { tables: Array<{ table: { name: string }; event_triggers?: Array<{ name: string }> }> };
  const post = m.tables.find((x) => x.table.name === 'post');
  t.deepEqual(post?.event_triggers?.map((x) => x.name), ['alpha', 'mid', 'zeta']);
});

test.serial('get_inconsistent_metadata after tables are dropped outside the engine lists every object, in the original\'s words', async (t) => {
  await ok({ type: 'bulk', args: [
    sql(`CREATE TABLE shelf (id int PRIMARY KEY, label text); CREATE TABLE tag (id int PRIMARY KEY, book_id int, shelf_id int)`),
    { type: 'track_table', args: 'shelf' },
    { type: 'track_table', args: 'tag' },
    { type: 'create_object_relationship', args: { table: 'tag', name: 'shelf', using: { manual_configuration: { remote_table: 'shelf', column_mapping: { shelf_id: 'id' } } } } },
    { type: 'create_object_relationship', args: { table: 'tag', name: 'book', using: { manual_configuration: { remote_table: 'book', column_mapping: { book_id: 'id' } } } } },
    { type: 'create_array_relationship', args: { table: 'book', name: 'tags', using: { manual_configuration: { remote_table: 'tag', column_mapping: { id: 'book_id' } } } } },
    { type: 'create_select_permission', args: { table: 'tag', role: 'user', permission: { filter: {}, columns: ['id'] } } },
  ] });
  await outside('DROP TABLE shelf; DROP TABLE tag');
  await ok({ type: 'reload_metadata', args: {} });
  const r = (await ok({ type: 'get_inconsistent_metadata', args: {} })) as { is_consistent: boolean; inconsistent_objects: Array<Record<string, unknown>> };
  t.false(r.is_consistent);
  const brief = r.inconsistent_objects.map((o) => [o.type, (o.definition as { name?: string; role?: string }).name ?? (o.definition as { role: string }).role, o.reason]);
  t.deepEqual(brief, [
    ['table', 'shelf', 'no such table/view exists in postgres: "shelf"'],
    ['table', 'tag', 'no such table/view exists in postgres: "tag"'],
    ['array_relation', 'tags', 'table "tag" is not tracked'],
    ['object_relation', 'shelf', 'table "tag" does not exist'],
    ['object_relation', 'book', 'table "tag" does not exist'],
    ['select_permission', 'user', 'table "tag" does not exist'],
  ]);
  const rel = r.inconsistent_objects.find((o) => o.type === 'object_relation' && (o.definition as { name: string }).name === 'shelf');
  t.deepEqual(rel?.definition, {
    name: 'shelf', using: { manual_configuration: { remote_table: { schema: 'public', name: 'shelf' }, column_mapping: { shelf_id: 'id' } } },
    comment: null, table: { schema: 'public', name: 'tag' },
  });
  await ok({ type: 'drop_inconsistent_metadata', args: {} });
  t.deepEqual(await ok({ type: 'get_inconsistent_metadata', args: {} }), { is_consistent: true, inconsistent_objects: [] });
});

test.serial('a table missing from Postgres: track_table answers SPEC.md\'s error, the inconsistent object the original\'s reason', async (t) => {
  const r = await e.query({ type: 'track_table', args: { table: { schema: 'public', name: 'ghost' } } });
  t.is(r.status, 400);
  t.deepEqual(r.body, { path: '$.args', error: 'no such table/view exists in postgres : "ghost"', code: 'not-exists' });
  await ok(sql('CREATE TABLE ghost (id int PRIMARY KEY)'));
  await ok({ type: 'track_table', args: 'ghost' });
  await outside('DROP TABLE ghost');
  await ok({ type: 'reload_metadata', args: {} });
  const m = (await ok({ type: 'get_inconsistent_metadata', args: {} })) as { inconsistent_objects: unknown[] };
  t.deepEqual(m.inconsistent_objects, [{ reason: 'no such table/view exists in postgres: "ghost"', type: 'table', definition: { schema: 'public', name: 'ghost' } }]);
  await ok({ type: 'drop_inconsistent_metadata', args: {} });
});

test.serial('set_custom_types refused for its own inconsistency carries the custom types as `internal`', async (t) => {
  const types = {
    objects: [{
      name: 'Order', description: 'an order', fields: [{ name: 'user_id', type: 'Int' }],
      relationships: [{ name: 'user', type: 'object', remote_table: 'customer', field_mapping: { user_id: 'id' } }],
    }],
    enums: [{ name: 'State', values: [{ value: 'OPEN' }] }],
  };
  const r = await e.query({ type: 'set_custom_types', args: types });
  const reason = 'validation for the given custom types failed because the remote table "customer" for relationship "user" of object type "Order" does not exist';
  t.is(r.status, 400);
  // The definition is the custom types as the original writes them out: every optional key, null when unset.
  t.deepEqual(r.body, {
    path: '$.args', error: reason, code: 'constraint-violation',
    internal: [{
      reason, type: 'custom_types',
      definition: {
        input_objects: null,
        objects: [{
          name: 'Order', description: 'an order', fields: [{ name: 'user_id', arguments: null, description: null, type: 'Int' }],
          relationships: [{ name: 'user', type: 'object', remote_table: { schema: 'public', name: 'customer' }, field_mapping: { user_id: 'id' } }],
        }],
        scalars: null,
        enums: [{ name: 'State', description: null, values: [{ value: 'OPEN', description: null, is_deprecated: null }] }],
      },
    }],
  });
});

test.serial('set_custom_types that leaves an action without its types lists the action in `internal`', async (t) => {
  await ok({ type: 'set_custom_types', args: { objects: [{ name: 'Receipt', fields: [{ name: 'id', type: 'Int' }] }] } });
  await ok({ type: 'create_action', args: { name: 'pay', definition: { handler: 'http://127.0.0.1:1/pay', output_type: 'Receipt' } } });
  const r = await e.query({ type: 'set_custom_types', args: { objects: [{ name: 'Other', fields: [{ name: 'id', type: 'Int' }] }] } });
  t.is(r.status, 400);
  t.deepEqual(r.body, {
    path: '$.args', error: 'cannot continue due to new inconsistent metadata', code: 'unexpected',
    internal: [{
      reason: 'in action "pay"; the type: Receipt is not an object type defined in custom types', type: 'action',
      definition: { name: 'pay', definition: { handler: 'http://127.0.0.1:1/pay', output_type: 'Receipt', type: 'mutation', kind: 'synchronous' } },
    }],
  });
});
