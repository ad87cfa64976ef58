import test from 'ava';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import type { EngineState } from '../../src/cache/state.js';
import { handleExplainRequest, type ExplainContext } from '../../src/execute/explain.js';
import type { PrepareFn } from '../../src/execute/context.js';
import { cols, eq, query, rootSelect, select, table, T } from '../sql/ir.js';

let db: TestDatabase;
let pool: pg.Pool;

test.before(async () => {
  db = await createTestDatabase('c2exp');
  pool = new pg.Pool({ connectionString: db.url, max: 1 });
  await pool.query(`CREATE TABLE "user" (id int PRIMARY KEY, name text)`);
});
test.after.always(async () => {
  await pool?.end();
  await db?.drop();
});

const prepare: PrepareFn = (_s, session) => ({
  ir: query(
    ['__typename', { kind: 'typename', name: 'query_root' }],
    ['user', rootSelect(select(table('user'), cols('id'), session.role === 'admin' ? {} : { where: eq('name', { kind: 'session', name: 'x-engine-user-id', pgType: T('text') }) }))],
  ),
  coerceVariables: (v) => v ?? {},
});

const ctx = (role: string): ExplainContext => ({ pool, state: {} as EngineState, session: { role, variables: {} }, stringifyNumeric: false, prepare });

test('explain shows each database field with parameters inlined and the plan', async (t) => {
  const r = await handleExplainRequest(ctx('admin'), { query: { query: 'query { user { id } }' }, user: { 'X-Engine-Role': 'user', 'X-Engine-User-Id': "1'x" } }, true);
  t.is(r.status, 200);
  const body = JSON.parse(r.body);
  t.is(body.length, 1);
  t.is(body[0].field, 'user');
  t.true(body[0].sql.includes(`("_root"."name" = '1''x'::"text")`), body[0].sql);
  t.true(Array.isArray(body[0].plan));
});

test('explain is admin only', async (t) => {
  const r = await handleExplainRequest(ctx('user'), { query: { query: 'q' } }, false);
  t.is(r.status, 400);
  t.deepEqual(JSON.parse(r.body), { path: '$', error: 'restricted access : admin only', code: 'access-denied' });
});

test('explain takes the query as plain text; mutations cannot be explained', async (t) => {
  const r = await handleExplainRequest(ctx('admin'), { query: 'query { user { id } }' }, true);
  t.is(JSON.parse(r.body)[0].field, 'user');
  const m = await handleExplainRequest({ ...ctx('admin'), prepare: () => ({ ir: { operation: 'mutation', fields: [], reusable: true }, coerceVariables: () => ({}) }) }, { query: 'mutation { x }' }, true);
  t.is(m.status, 400);
  t.deepEqual(JSON.parse(m.body), { path: '$', error: 'only queries can be explained', code: 'invalid-params' });
});

test('a subscription explains as one object', async (t) => {
  const sub: PrepareFn = (s, sess, req, o) => ({ ...(prepare(s, sess, req, o) as ReturnType<typeof prepare> & object), ir: { operation: 'subscription', reusable: true, fields: [['user', rootSelect(select(table('user'), cols('id')))]] } });
  const r = await handleExplainRequest({ ...ctx('admin'), prepare: sub }, { query: 'subscription { user { id } }' }, true);
  const body = JSON.parse(r.body);
  t.false(Array.isArray(body));
  t.true(body.sql.includes('FROM unnest($1::text[], $2::json[])'), body.sql);
  t.true(body.plan.length > 0);
});
