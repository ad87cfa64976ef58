// The history's pure half: structured diffs of hand-written export pairs, and one-line event summaries.
import test from 'ava';
import { diffExports, jsonEqual, summarize } from '../../projections/history.js';

const author = { table: { schema: 'public', name: 'author' } };
const article = { table: { schema: 'public', name: 'article' } };
const userSelect = { role: 'user', permission: { columns: ['id', 'name'], filter: { id: { _eq: 'X-Engine-User-Id' } } } };

test('a tracked table is one addition at its path', (t) => {
  t.deepEqual(diffExports({ version: 2, tables: [author] }, { version: 2, tables: [author, article] }), [
    { kind: 'added', path: 'tables[public.article]', after: article },
  ]);
});

test('an untracked table is one removal; reordering is no change', (t) => {
  t.deepEqual(diffExports({ version: 2, tables: [author, article] }, { version: 2, tables: [article] }), [
    { kind: 'removed', path: 'tables[public.author]', before: author },
  ]);
  t.deepEqual(diffExports({ version: 2, tables: [author, article] }, { version: 2, tables: [article, author] }), []);
});

test('a permission added to a table whose export had no permission list is reported at the permission', (t) => {
  const d = diffExports({ version: 2, tables: [author] }, { version: 2, tables: [{ ...author, select_permissions: [userSelect] }] });
  t.deepEqual(d, [{ kind: 'added', path: 'tables[public.author].select_permissions[user]', after: userSelect }]);
});

test('a changed filter is one change at the permission, with before and after', (t) => {
  const after = { role: 'user', permission: { columns: ['id'], filter: {} } };
  const d = diffExports(
    { version: 2, tables: [{ ...author, select_permissions: [userSelect] }] },
    { version: 2, tables: [{ ...author, select_permissions: [after] }] },
  );
  t.deepEqual(d, [{ kind: 'changed', path: 'tables[public.author].select_permissions[user]', before: userSelect, after }]);
});

test('relationships, table configuration and top-level lists each get their own path', (t) => {
  const rel = { name: 'author', using: { foreign_key_constraint_on: 'author_id' } };
  const a = { version: 2, tables: [author, article], functions: [{ function: { schema: 'public', name: 'search' } }] };
  const b = {
    version: 2,
    tables: [{ ...author, configuration: { custom_root_fields: { select: 'writers' }, custom_column_names: {} } }, { ...article, object_relationships: [rel] }],
    actions: [{ name: 'login', definition: { handler: 'http://x' } }],
  };
  t.deepEqual(diffExports(a, b).map((c) => `${c.kind} ${c.path}`), [
    'added tables[public.author].configuration',
    'added tables[public.article].object_relationships[author]',
    'removed functions[public.search]',
    'added actions[login]',
  ]);
});

test('remote schema permissions nest under the remote schema', (t) => {
  const rs = { name: 'countries', definition: { url: 'http://x' } };
  const d = diffExports(
    { version: 2, tables: [], remote_schemas: [{ ...rs, permissions: [{ role: 'user', definition: { schema: 'type Query { a: Int }' } }] }] },
    { version: 2, tables: [], remote_schemas: [{ ...rs, permissions: [{ role: 'user', definition: { schema: 'type Query { b: Int }' } }] }] },
  );
  t.deepEqual(d.map((c) => `${c.kind} ${c.path}`), ['changed remote_schemas[countries].permissions[user]']);
});

test('identical documents have no changes; JSON equality ignores key order', (t) => {
  const doc = { version: 2, tables: [{ ...author, select_permissions: [userSelect] }] };
  t.deepEqual(diffExports(doc, structuredClone(doc)), []);
  t.true(jsonEqual({ a: 1, b: [1, { c: 2, d: 3 }] }, { b: [1, { d: 3, c: 2 }], a: 1 }));
  t.false(jsonEqual([1, 2], [2, 1]));
});

test('summaries name the object', (t) => {
  const table = { schema: 'public', name: 'author' };
  t.is(summarize({ type: 'table_tracked', data: { table, is_enum: false, configuration: {} } }), 'tracked table public.author');
  t.is(summarize({ type: 'permission_created', data: { table, kind: 'select', role: 'user', permission: {}, comment: null } }), 'created select permission for role user on public.author');
  t.is(summarize({ type: 'relationship_created', data: { table, kind: 'object', relationship: { name: 'author' } } }), 'created object relationship author on public.author');
  t.is(summarize({ type: 'sql_ran', data: { sql: 'create table a (id int);\ncreate table b (id int);' } }), 'ran SQL: create table a (id int);…');
  t.is(summarize({ type: 'metadata_replaced', data: { metadata: { tables: { 'public.a': {}, 'public.b': {} } } } }), 'replaced metadata (2 tables)');
  t.is(summarize({ type: 'some_future_event', data: {} }), 'some future event');
});
