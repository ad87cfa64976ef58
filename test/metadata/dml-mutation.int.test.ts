// v1 DML `insert`, `update` and `delete` on /v1/query against a real engine and Postgres: responses, on_conflict,
// value types, permissions (presets, filters, checks, columns) as a role, and the original's error messages.
import test from 'ava';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';

let e: TestEngine;

const USER = (id: string, extra: Record<string, string> = {}) => ({ 'X-Engine-Role': 'user', 'X-Engine-User-Id': id, ...extra });

test.before(async () => {
  e = await startTestEngine();
  const r = await e.query({
    type: 'bulk',
    args: [
      {
        type: 'run_sql',
        args: {
          sql: `
            CREATE TABLE author (id serial PRIMARY KEY, name text UNIQUE, city text);
            CREATE TABLE article (id serial PRIMARY KEY, title text NOT NULL, author_id integer REFERENCES author(id),
              is_published boolean NOT NULL DEFAULT false, rating integer DEFAULT 5);
            CREATE TABLE kinds (id serial PRIMARY KEY, big bigint, real_v real, money_v money, num numeric, labels text[], doc jsonb);
            CREATE VIEW author_count AS SELECT count(*) AS n FROM author;`,
        },
      },
      { type: 'track_table', args: { name: 'author' } },
      { type: 'track_table', args: { name: 'article' } },
      { type: 'track_table', args: { name: 'kinds' } },
      { type: 'track_table', args: { name: 'author_count' } },
      { type: 'create_insert_permission', args: { table: 'article', role: 'user', permission: { columns: ['title', 'author_id', 'rating'], check: { author_id: 'X-Engine-User-Id' }, set: { is_published: false } } } },
      { type: 'create_select_permission', args: { table: 'article', role: 'user', permission: { columns: ['id', 'title', 'author_id', 'is_published', 'rating'], filter: {} } } },
      {
        type: 'create_update_permission',
        args: { table: 'article', role: 'user', permission: { columns: ['title', 'rating'], filter: { author_id: 'X-Engine-User-Id' }, check: { rating: { _lte: 10 } } } },
      },
      { type: 'create_delete_permission', args: { table: 'article', role: 'user', permission: { filter: { author_id: 'X-Engine-User-Id', is_published: false } } } },
      { type: 'create_update_permission', args: { table: 'author', role: 'user', permission: { columns: ['name'], filter: { id: 'X-Engine-User-Id' }, set: { city: 'X-Engine-City' } } } },
      { type: 'create_select_permission', args: { table: 'author', role: 'user', permission: { columns: ['id', 'name', 'city'], filter: {} } } },
      { type: 'create_insert_permission', args: { table: 'kinds', role: 'user', permission: { columns: '*', check: {} } } },
      { type: 'insert', args: { table: 'author', objects: [{ name: 'A1' }, { name: 'A2' }] } },
    ],
  });
  if (r.status !== 200) throw new Error(`setup failed: ${r.text}`);
});

test.after.always(async () => {
  await e?.close();
});

const q = (type: string, args: Record<string, unknown>, headers?: Record<string, string>) => e.query({ type, args }, headers);

test.serial('insert: affected_rows, returning, defaults, and typed values (bigint, real and money, arrays, jsonb)', async (t) => {
  const r = await q('insert', {
    table: 'kinds',
    objects: [
      { big: '123', real_v: 12345.67, money_v: 12345.67, num: 1.5, labels: ['a', 'b"c'], doc: { k: [1, null] } },
      { doc: 'text' },
    ],
    returning: ['id', 'big', 'real_v', 'money_v', 'labels', 'doc'],
  });
  t.is(r.status, 200, r.text);
  t.deepEqual(r.body, {
    affected_rows: 2,
    returning: [
      { id: 1, big: 123, real_v: 12345.67, money_v: '$12,345.67', labels: ['a', 'b"c'], doc: { k: [1, null] } },
      { id: 2, big: null, real_v: null, money_v: null, labels: null, doc: 'text' },
    ],
  });
  // Numbers for numeric columns keep a scale that is a multiple of 4 digits, as the original's binary encoding does.
  const scale = await q('run_sql', { sql: 'select num::text from kinds where id = 1' });
  t.deepEqual(scale.body, { result_type: 'TuplesOk', result: [['num'], ['1.5000']] });
  const plain = await q('insert', { table: 'article', objects: [{ title: 'x', author_id: 1 }] });
  t.deepEqual(plain.body, { affected_rows: 1 });
});

test.serial('insert errors: empty objects, unknown column, database errors, on_conflict shapes', async (t) => {
  const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
    [{ table: 'author', objects: [] }, { path: '$.args.objects', error: 'objects should not be empty', code: 'unexpected-payload' }],
    [{ table: 'author', objects: [{ nope: 1 }] }, { path: '$.args.objects[0]', error: 'column "nope" does not exist', code: 'not-exists' }],
    [{ table: 'article', objects: [{ author_id: 1 }] }, {
      path: '$',
      error: 'Not-NULL violation. null value in column "title" of relation "article" violates not-null constraint',
      code: 'constraint-violation',
    }],
    [{ table: 'author', objects: [{ name: 'A1' }], on_conflict: { constraint_on: ['id'] } }, { path: '$.on_conflict', error: "the key 'action' was not present", code: 'parse-failed' }],
    [{ table: 'author', objects: [{ name: 'A1' }], on_conflict: { action: 'update' } }, {
      path: '$.args.on_conflict', error: "Expecting 'constraint' or 'constraint_on' when the 'action' is 'update'", code: 'unexpected-payload',
    }],
    [{ table: 'author', objects: [{ name: 'A1' }], on_conflict: { action: 'update', constraint_on: ['nope'] } }, {
      path: '$.args.on_conflict.constraint_on[0]', error: 'column "nope" does not exist', code: 'not-exists',
    }],
    [{ table: 'author', objects: [{ name: 'A1' }], on_conflict: { action: 'ignore', constraint: 'author_pkey', constraint_on: ['id'] } }, {
      path: '$.args.on_conflict', error: "'constraint' and 'constraint_on' cannot be set at a time", code: 'unexpected-payload',
    }],
    [{ table: 'author', objects: [{ name: 'A1' }], returning: ['nope'] }, { path: '$.args.returning', error: 'no such column exists : "nope"', code: 'permission-denied' }],
    [{ table: 'author_count', objects: [{ n: 1 }] }, { path: '$.args', error: 'view "author_count" is not insertable', code: 'not-supported' }],
  ];
  for (const [args, body] of cases) {
    const r = await q('insert', args);
    t.is(r.status, 400, JSON.stringify(args));
    t.deepEqual(r.body, body);
  }
});

test.serial('insert on_conflict: ignore (with and without a target) and update (upsert)', async (t) => {
  const ignored = await q('insert', { table: 'author', objects: [{ id: 1, name: 'A1' }], on_conflict: { action: 'ignore', constraint_on: ['id'] }, returning: ['id'] });
  t.deepEqual(ignored.body, { affected_rows: 0, returning: [] });
  const any = await q('insert', { table: 'author', objects: [{ name: 'A2' }], on_conflict: { action: 'ignore' } });
  t.deepEqual(any.body, { affected_rows: 0 });
  const upsert = await q('insert', {
    table: 'author', objects: [{ id: 2, name: 'A2 new' }], on_conflict: { action: 'update', constraint: 'author_pkey' }, returning: ['id', 'name'],
  });
  t.deepEqual(upsert.body, { affected_rows: 1, returning: [{ id: 2, name: 'A2 new' }] });
  await q('update', { table: 'author', where: { id: 2 }, $set: { name: 'A2' } });
});

test.serial('insert as a role: presets apply, check is enforced, columns and upserts are limited', async (t) => {
  const ok = await q('insert', { table: 'article', objects: [{ title: 'mine', author_id: 2 }], returning: ['title', 'author_id', 'is_published'] }, USER('2'));
  t.deepEqual(ok.body, { affected_rows: 1, returning: [{ title: 'mine', author_id: 2, is_published: false }] });
  const check = await q('insert', { table: 'article', objects: [{ title: 'theirs', author_id: 1 }] }, USER('2'));
  t.is(check.status, 400);
  t.deepEqual(check.body, { path: '$', error: 'Check constraint violation. insert check constraint failed', code: 'permission-error' });
  const preset = await q('insert', { table: 'article', objects: [{ title: 't', author_id: 2, is_published: true }] }, USER('2'));
  t.deepEqual(preset.body, { path: '$.args.objects[0]', error: 'column "is_published" is not insertable for role "user"', code: 'not-supported' });
  const col = await q('insert', { table: 'article', objects: [{ id: 99, title: 't', author_id: 2 }] }, USER('2'));
  t.deepEqual(col.body, { path: '$.args.objects[0]', error: 'role "user" does not have permission to insert column "id"', code: 'permission-denied' });
  const table = await q('insert', { table: 'author', objects: [{ name: 'x' }] }, USER('2'));
  t.deepEqual(table.body, { path: '$.args', error: 'insert on "author" for role "user" is not allowed. ', code: 'permission-denied' });
  const upsert = await q('insert', { table: 'kinds', objects: [{ big: 1 }], on_conflict: { action: 'ignore' } }, USER('2'));
  t.deepEqual(upsert.body, { path: '$.args.on_conflict', error: 'upsert is not allowed for role "user" since update permissions are not defined', code: 'permission-denied' });
  const notUpdatable = await q('insert', {
    table: 'article', objects: [{ title: 't', author_id: 2 }], on_conflict: { action: 'update', constraint: 'article_pkey' },
  }, USER('2'));
  t.deepEqual(notUpdatable.body, { path: '$.args.on_conflict', error: 'column "author_id" is not updatable', code: 'validation-failed' });
  const returning = await q('insert', { table: 'kinds', objects: [{ big: 1 }], returning: ['id'] }, USER('2'));
  t.deepEqual(returning.body, {
    path: '$.args',
    error: 'select on "kinds" for role "user" is not allowed. ; "returning" can only be used if the role has "select" permission on the table',
    code: 'permission-denied',
  });
  const plainInsert = await q('insert', { table: 'kinds', objects: [{ big: 1 }] }, USER('2'));
  t.deepEqual(plainInsert.body, { affected_rows: 1 });
  const update = await q('update', { table: 'kinds', where: {}, $set: { big: 2 } }, USER('2'));
  t.deepEqual(update.body, { path: '$.args', error: 'update on "kinds" for role "user" is not allowed. ', code: 'permission-denied' });
  const count = await q('count', { table: 'article', where: { title: 'theirs' } });
  t.deepEqual(count.body, { count: 0 }, 'a failed check rolls the insert back');
});

test.serial('update: $set, $inc, $mul, $default with returning; errors', async (t) => {
  const ins = await q('insert', { table: 'article', objects: [{ title: 'u', author_id: 1, rating: 2 }], returning: ['id'] });
  const id = (ins.body as { returning: Array<{ id: number }> }).returning[0].id;
  const r = await q('update', { table: 'article', where: { id }, $set: { title: 'u2' }, $inc: { rating: 3 }, returning: ['title', 'rating'] });
  t.deepEqual(r.body, { affected_rows: 1, returning: [{ title: 'u2', rating: 5 }] });
  const mul = await q('update', { table: 'article', where: { id }, $mul: { rating: 4 }, returning: ['rating'] });
  t.deepEqual(mul.body, { affected_rows: 1, returning: [{ rating: 20 }] });
  const def = await q('update', { table: 'article', where: { id }, $default: ['rating'], returning: ['rating'] });
  t.deepEqual(def.body, { affected_rows: 1, returning: [{ rating: 5 }] });
  const none = await q('update', { table: 'article', where: { id } });
  t.deepEqual(none.body, { path: '$.args', error: 'atleast one of $set, $inc, $mul has to be present', code: 'unexpected-payload' });
  const noWhere = await q('update', { table: 'article', $set: { title: 'x' } });
  t.deepEqual(noWhere.body, { path: '$', error: 'key "where" not found', code: 'parse-failed' });
});

test.serial('update as a role: filter, check, column permission and presets from session variables', async (t) => {
  const a1 = await q('insert', { table: 'article', objects: [{ title: 'one', author_id: 1 }, { title: 'two', author_id: 2 }], returning: ['id'] });
  const [one, two] = (a1.body as { returning: Array<{ id: number }> }).returning.map((x) => x.id);
  const mine = await q('update', { table: 'article', where: { id: { $in: [one, two] } }, $set: { title: 'edited' }, returning: ['id'] }, USER('2'));
  t.deepEqual(mine.body, { affected_rows: 1, returning: [{ id: two }] });
  const check = await q('update', { table: 'article', where: { id: two }, $set: { rating: 11 } }, USER('2'));
  t.deepEqual(check.body, { path: '$', error: 'Check constraint violation. update check constraint failed', code: 'permission-error' });
  const col = await q('update', { table: 'article', where: { id: two }, $set: { author_id: 1 } }, USER('2'));
  t.deepEqual(col.body, { path: "$.args['$set']", error: 'role "user" does not have permission to update column "author_id"', code: 'permission-denied' });
  const preset = await q('update', { table: 'author', where: { id: 2 }, returning: ['name', 'city'] }, USER('2', { 'X-Engine-City': 'Pune' }));
  t.deepEqual(preset.body, { affected_rows: 1, returning: [{ name: 'A2', city: 'Pune' }] });
  const presetErr = await q('update', { table: 'author', where: { id: 2 }, $set: { city: 'x' } }, USER('2', { 'X-Engine-City': 'Pune' }));
  t.deepEqual(presetErr.body, { path: "$.args['$set']", error: 'column "city" is not updatable for role "user"; its value is predefined in permission', code: 'not-supported' });
  const header = await q('update', { table: 'author', where: { id: 2 }, $set: { name: 'z' } }, USER('2'));
  t.deepEqual(header.body, { path: '$.args', error: '"x-engine-city" header is expected but not found', code: 'not-found' });
});

test.serial('delete: returning, permission filter, and bulk insert + delete in one transaction', async (t) => {
  const ins = await q('insert', { table: 'article', objects: [{ title: 'd1', author_id: 1 }, { title: 'd2', author_id: 2 }], returning: ['id'] });
  const [d1, d2] = (ins.body as { returning: Array<{ id: number }> }).returning.map((x) => x.id);
  const denied = await q('delete', { table: 'article', where: { id: d1 }, returning: ['id'] }, USER('2'));
  t.deepEqual(denied.body, { affected_rows: 0, returning: [] });
  const ok = await q('delete', { table: 'article', where: { id: { $in: [d1, d2] } }, returning: ['id', 'title'] }, USER('2'));
  t.deepEqual(ok.body, { affected_rows: 1, returning: [{ id: d2, title: 'd2' }] });
  const admin = await q('delete', { table: 'article', where: { title: 'd1' } });
  t.deepEqual(admin.body, { affected_rows: 1 });
  const table = await q('delete', { table: 'author', where: {} }, USER('2'));
  t.deepEqual(table.body, { path: '$.args', error: 'delete on "author" for role "user" is not allowed. ', code: 'permission-denied' });
  const bulk = await e.query({
    type: 'bulk',
    args: [
      { type: 'insert', args: { table: 'article', objects: [{ title: 'b', author_id: 1 }] } },
      { type: 'delete', args: { table: 'article', where: { title: 'b' }, returning: ['title'] } },
      { type: 'run_sql', args: { sql: 'select count(*) from article where title = \'b\'' } },
    ],
  });
  t.deepEqual(bulk.body, [{ affected_rows: 1 }, { affected_rows: 1, returning: [{ title: 'b' }] }, { result_type: 'TuplesOk', result: [['count'], ['0']] }]);
  const mixed = await e.query({
    type: 'bulk',
    args: [{ type: 'insert', args: { table: 'article', objects: [{ title: 'm', author_id: 1 }] } }, { type: 'run_sql', args: { sql: 'select 1', read_only: true } }],
  });
  t.deepEqual(mixed.body, {
    path: '$', error: 'incompatible access mode requirements in bulk query, expected access mode: READ WRITE but $.args[1] forces READ ONLY', code: 'bad-request',
  });
});
