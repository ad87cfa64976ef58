// v1 DML `select` and `count` on /v1/query against a real engine and Postgres: shapes, operators, wildcards,
// relationships, limits, permissions (as a role with session variables) and the original's error messages.
import test from 'ava';
import pg from 'pg';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';
import { lockWriters } from '../../events/log.js';

let e: TestEngine;

const USER = (id: string) => ({ 'X-Engine-Role': 'user', 'X-Engine-User-Id': id });

test.before(async () => {
  e = await startTestEngine({ stringifyNumericTypes: true });
  const r = await e.query({
    type: 'bulk',
    args: [
      {
        type: 'run_sql',
        args: {
          sql: `
            CREATE TABLE author (id serial PRIMARY KEY, name text UNIQUE, is_registered boolean, remarks text);
            CREATE TABLE article (id serial PRIMARY KEY, title text, author_id integer REFERENCES author(id), is_published boolean,
              views bigint, tags jsonb, published_on timestamptz);
            CREATE TABLE secret (id serial PRIMARY KEY, code text);
            INSERT INTO author (name, is_registered, remarks) VALUES ('A1', true, 'r1'), ('A2', false, 'r2'), ('A3', true, NULL);
            INSERT INTO article (title, author_id, is_published, views, tags, published_on) VALUES
              ('T1', 1, true, 10, '["x","y"]', '2020-01-01T00:00:00Z'),
              ('T2', 1, false, 20, '["y"]', NULL),
              ('T3', 2, true, 30, NULL, '2020-02-01T00:00:00Z'),
              ('T4', 3, false, 9007199254740993, '[]', NULL);`,
        },
      },
      { type: 'track_table', args: { name: 'author' } },
      { type: 'track_table', args: { name: 'article' } },
      { type: 'track_table', args: { name: 'secret' } },
      { type: 'create_object_relationship', args: { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } } },
      {
        type: 'create_array_relationship',
        args: { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } },
      },
      {
        type: 'create_select_permission',
        args: {
          table: 'article',
          role: 'user',
          permission: { columns: ['id', 'title', 'author_id', 'is_published'], filter: { $or: [{ author_id: 'X-Engine-User-Id' }, { is_published: true }] }, limit: 3 },
        },
      },
      {
        type: 'create_select_permission',
        args: { table: 'author', role: 'user', permission: { columns: ['id', 'name'], filter: { id: 'X-Engine-User-Id' } } },
      },
    ],
  });
  if (r.status !== 200) throw new Error(`setup failed: ${r.text}`);
});

test.after.always(async () => {
  await e?.close();
});

const select = (args: Record<string, unknown>, headers?: Record<string, string>) => e.query({ type: 'select', args }, headers);
const count = (args: Record<string, unknown>, headers?: Record<string, string>) => e.query({ type: 'count', args }, headers);

test('admin select: columns, nested object and array relationships with where, order_by and alias', async (t) => {
  const r = await select({
    table: 'author',
    columns: ['id', 'name', { name: 'articles', alias: 'posts', columns: ['title', { name: 'author', columns: ['name'] }], where: { is_published: true }, order_by: '-id' }],
    where: { id: { $lt: 3 } },
    order_by: [{ column: 'id', type: 'asc' }],
  });
  t.is(r.status, 200, r.text);
  t.deepEqual(r.body, [
    { id: 1, name: 'A1', posts: [{ title: 'T1', author: { name: 'A1' } }] },
    { id: 2, name: 'A2', posts: [{ title: 'T3', author: { name: 'A2' } }] },
  ]);
});

test('stringified bigint, jsonb and timestamptz values come out as Postgres builds them', async (t) => {
  const r = await select({ table: 'article', columns: ['id', 'views', 'tags', 'published_on'], where: { id: { $in: [1, 4] } }, order_by: 'id' });
  t.is(r.status, 200, r.text);
  t.deepEqual(r.body, [
    { id: 1, views: '10', tags: ['x', 'y'], published_on: '2020-01-01T00:00:00+00:00' },
    { id: 4, views: '9007199254740993', tags: [], published_on: null },
  ]);
});

test('wildcards: "*" gives the columns, "*.*" also the relationships one level deep', async (t) => {
  const star = await select({ table: 'author', columns: ['*'], where: { id: 3 } });
  t.deepEqual(star.body, [{ id: 3, name: 'A3', is_registered: true, remarks: null }]);
  const deep = await select({ table: 'article', columns: ['id', '*.*'], where: { id: 3 } });
  t.is(deep.status, 200, deep.text);
  const row = (deep.body as Array<Record<string, unknown>>)[0];
  t.deepEqual(Object.keys(row), ['id', 'title', 'author_id', 'is_published', 'views', 'tags', 'published_on', 'author']);
  t.deepEqual(row.author, { id: 2, name: 'A2', is_registered: false, remarks: 'r2' });
});

test('operators: $/_ spellings, and/or/not, in/nin, like, null equality, is_null, jsonb, column comparison, relationships', async (t) => {
  const ids = async (where: unknown, table = 'article') => {
    const r = await select({ table, columns: ['id'], where, order_by: 'id' });
    t.is(r.status, 200, r.text);
    return (r.body as Array<{ id: number }>).map((x) => x.id);
  };
  t.deepEqual(await ids({ id: { $gt: 1, _lte: 3 } }), [2, 3]);
  t.deepEqual(await ids({ $or: [{ id: 1 }, { title: { $like: 'T_' }, is_published: false }] }), [1, 2, 4]);
  t.deepEqual(await ids({ _not: { id: { _nin: [2, 3] } } }), [2, 3]);
  t.deepEqual(await ids({ published_on: null }), [2, 4]);
  t.deepEqual(await ids({ published_on: { $is_null: false } }), [1, 3]);
  t.deepEqual(await ids({ tags: { $contains: ['y'] } }), [1, 2]);
  t.deepEqual(await ids({ id: { $ceq: 'author_id' } }), [1]);
  t.deepEqual(await ids({ author: { is_registered: true } }), [1, 2, 4]);
  t.deepEqual(await ids({ articles: { views: { $gte: 30 } } }, 'author'), [2, 3]);
  t.deepEqual(await ids({ $and: [] }), [1, 2, 3, 4]);
});

test('limit and offset; negative and non-integer limits are rejected as the original does', async (t) => {
  const r = await select({ table: 'article', columns: ['id'], order_by: { column: 'id', type: 'desc' }, limit: 2, offset: 1 });
  t.deepEqual(r.body, [{ id: 3 }, { id: 2 }]);
  const neg = await select({ table: 'article', columns: ['id'], limit: -1 });
  t.is(neg.status, 400);
  t.deepEqual(neg.body, { path: '$.args.limit', error: 'unexpected negative value', code: 'not-supported' });
  const str = await select({ table: 'article', columns: ['id'], limit: '3' });
  t.deepEqual(str.body, { path: '$.limit', error: 'parsing Int failed, expected Number, but encountered String', code: 'parse-failed' });
});

test('admin errors: missing table, unknown column, unknown operator, object relationship with where', async (t) => {
  const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
    [{ table: 'nope', columns: ['id'] }, { path: '$.args.table', error: 'table "nope" does not exist', code: 'not-exists' }],
    [{ table: 'author', columns: ['id', 'nope'] }, { path: '$.args.columns[1]', error: 'no such column exists : "nope"', code: 'permission-denied' }],
    [{ table: 'author', columns: ['id'], where: { id: { $foo: 1 } } }, { path: "$.args.where.id['$foo']", error: 'Unknown operator : $foo', code: 'unexpected-payload' }],
    [
      { table: 'article', columns: [{ name: 'author', columns: ['id'], where: { id: 1 } }] },
      { path: '$.args.columns[0]', error: "when selecting an 'obj_relationship' 'where', 'order_by', 'limit' and 'offset'  can't be used", code: 'unexpected-payload' },
    ],
    [
      { table: 'article', columns: ['id'], order_by: 'author' },
      { path: '$.args.order_by', error: '"author" is a relationship and should be expanded', code: 'unexpected-payload' },
    ],
  ];
  for (const [args, body] of cases) {
    const r = await select(args);
    t.is(r.status, 400, JSON.stringify(args));
    t.deepEqual(r.body, body);
  }
});

test('a role reads through its select permission: filter with session variable, limit, columns, remote filters', async (t) => {
  const r = await select({ table: 'article', columns: ['id', 'title', { name: 'author', columns: ['name'] }], order_by: 'id' }, USER('1'));
  t.is(r.status, 200, r.text);
  // Published articles and the user's own (1, 2, 3), author visible only when it is the user.
  t.deepEqual(r.body, [
    { id: 1, title: 'T1', author: { name: 'A1' } },
    { id: 2, title: 'T2', author: { name: 'A1' } },
    { id: 3, title: 'T3', author: null },
  ]);
  const where = await select({ table: 'article', columns: ['id'], where: { author: { name: 'A2' } } }, USER('1'));
  t.deepEqual(where.body, [], 'a relationship condition only sees the remote rows the role may select');
  const limited = await select({ table: 'article', columns: ['id'], order_by: 'id' }, USER('3'));
  t.deepEqual(limited.body, [{ id: 1 }, { id: 3 }, { id: 4 }]);
});

test('role errors: column, table and header requirements', async (t) => {
  const col = await select({ table: 'article', columns: ['id', 'views'] }, USER('1'));
  t.deepEqual(col.body, { path: '$.args.columns[1]', error: 'role "user" does not have permission to select column "views"', code: 'permission-denied' });
  const whereCol = await select({ table: 'article', columns: ['id'], where: { views: 1 } }, USER('1'));
  t.deepEqual(whereCol.body, { path: '$.args.where', error: 'role "user" does not have permission to select column "views"', code: 'permission-denied' });
  const table = await select({ table: 'secret', columns: ['id'] }, USER('1'));
  t.deepEqual(table.body, { path: '$.args', error: 'select on "secret" for role "user" is not allowed. ', code: 'permission-denied' });
  const header = await select({ table: 'article', columns: ['id'] }, { 'X-Engine-Role': 'user' });
  t.deepEqual(header.body, { path: '$.args', error: '"x-engine-user-id" header is expected but not found', code: 'not-found' });
  const meta = await e.query({ type: 'export_metadata', args: {} }, USER('1'));
  t.is(meta.status, 400);
  t.is((meta.body as { code: string }).code, 'access-denied');
});

test('count: all, where, distinct, as a role, and its errors', async (t) => {
  t.deepEqual((await count({ table: 'article' })).body, { count: 4 });
  t.deepEqual((await count({ table: 'article', where: { is_published: false } })).body, { count: 2 });
  t.deepEqual((await count({ table: 'article', distinct: ['author_id'] })).body, { count: 3 });
  t.deepEqual((await count({ table: 'article', distinct: ['is_published'], where: { author: { is_registered: true } } })).body, { count: 2 });
  t.deepEqual((await count({ table: 'article' }, USER('2'))).body, { count: 2 });
  t.deepEqual((await count({ table: 'article', distinct: ['nope'] })).body, { path: '$.args.distinct[0]', error: 'no such column exists : "nope"', code: 'permission-denied' });
  t.deepEqual((await count({ table: 'secret' }, USER('2'))).body, {
    path: '$.args',
    error: 'select on "secret" for role "user" is not allowed. ; "count" is only allowed if the role has "select" permissions on the table',
    code: 'permission-denied',
  });
});

test('bulk: select and count run in read-only or read-write bulks; errors name the element', async (t) => {
  const r = await e.query({
    type: 'bulk',
    args: [
      { type: 'count', args: { table: 'author' } },
      { type: 'run_sql', args: { sql: 'select 1 as one', read_only: true } },
      { type: 'select', args: { table: 'author', columns: ['name'], where: { id: 1 } } },
    ],
  });
  t.is(r.status, 200, r.text);
  t.deepEqual(r.body, [{ count: 3 }, { result_type: 'TuplesOk', result: [['one'], ['1']] }, [{ name: 'A1' }]]);
  const bad = await e.query({ type: 'bulk', args: [{ type: 'count', args: { table: 'author' } }, { type: 'select', args: { table: 'x', columns: [] } }] });
  t.deepEqual(bad.body, { path: '$.args[1].args.table', error: 'table "x" does not exist', code: 'not-exists' });
  const asRole = await e.query({ type: 'bulk', args: [{ type: 'count', args: { table: 'article' } }] }, USER('2'));
  t.deepEqual(asRole.body, [{ count: 2 }]);
});

test('DML requests do not wait for the metadata writers\' lock', async (t) => {
  const client = new pg.Client({ connectionString: e.db.url });
  await client.connect();
  try {
    await client.query('BEGIN');
    await lockWriters(client);
    // Waiting on the lock would last until the ROLLBACK below: the deadline only tells that from a slow machine.
    let timer: NodeJS.Timeout | undefined;
    const r = await Promise.race([
      select({ table: 'author', columns: ['id'], where: { id: 1 } }),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 30_000))),
    ]).finally(() => clearTimeout(timer));
    t.truthy(r, 'the select finished while a metadata write held the lock');
    t.deepEqual(r?.body, [{ id: 1 }]);
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    await client.end();
  }
});
