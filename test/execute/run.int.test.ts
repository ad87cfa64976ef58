// The executor over a real database, with hand-built IR standing in for the GraphQL front.
import test from 'ava';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { EngineError } from '../../src/core/errors.js';
import type { EngineState } from '../../src/cache/state.js';
import type { OperationIR } from '../../src/ir/operation.js';
import { planCacheStats } from '../../src/execute/plan.js';
import { executeGraphQL } from '../../src/execute/answer.js';
import type { ExecuteContext, PrepareFn } from '../../src/execute/context.js';
import { compact } from '../sql/db.js';
import { asc, cols, eq, lit, query, rootOne, rootSelect, select, table, variable } from '../sql/ir.js';

let db: TestDatabase;
let pool: pg.Pool;

test.before(async () => {
  db = await createTestDatabase('c2exe');
  pool = new pg.Pool({ connectionString: db.url, max: 1 });
  await pool.query(`
    CREATE TABLE item (id int PRIMARY KEY, name text, qty int CHECK (qty >= 0));
    INSERT INTO item VALUES (1, 'one', 1), (2, 'two', 2);
    CREATE TABLE log (id serial PRIMARY KEY, msg text NOT NULL);
    CREATE FUNCTION add_log(m text) RETURNS SETOF log LANGUAGE sql VOLATILE AS $$ INSERT INTO log (msg) VALUES (m) RETURNING * $$;
  `);
});
test.after.always(async () => {
  await pool?.end();
  await db?.drop();
});

const fakeState = (): EngineState => ({ seq: 1 } as unknown as EngineState);

/** A GraphQL front stand-in: maps query text to IR, counts calls, checks declared variables. */
function front(ops: Record<string, OperationIR>): { prepare: PrepareFn; calls: () => number } {
  let calls = 0;
  return {
    calls: () => calls,
    prepare: (_state, _session, req) => {
      calls++;
      const ir = ops[req.query];
      if (!ir) throw new EngineError('validation-failed', `unknown query ${req.query}`, { path: '$.selectionSet' });
      return { ir, coerceVariables: (v) => ({ ...(v ?? {}) }) };
    },
  };
}

function ctxFor(prepare: PrepareFn, state = fakeState(), role = 'admin'): ExecuteContext {
  return { pool, minLsn: 0, preparedStatements: true, state, session: { role, variables: { 'x-engine-role': role } }, stringifyNumeric: false, planCacheSize: 100, showInternal: role === 'admin', connectionRetries: 1, txIsolation: 'read-committed', requestId: 'r', prepare };
}

const items = query(['item', rootSelect(select(table('item'), cols('id', 'name'), { orderBy: [asc('id')], where: { kind: 'column', column: 'id', op: '_gte', value: variable('min') } }))]);

test('a query runs as one statement; the response is the database JSON spliced in', async (t) => {
  const f = front({ items });
  const r = await executeGraphQL(ctxFor(f.prepare), { query: 'items', variables: { min: 2 } });
  t.is(r.status, 200);
  t.is(compact(r.body), '{"data":{"item":[{"id":2,"name":"two"}]}}');
});

test('plan cache: a repeated query skips the front; new state starts afresh', async (t) => {
  const f = front({ items });
  const state = fakeState();
  const c = ctxFor(f.prepare, state);
  await executeGraphQL(c, { query: 'items', variables: { min: 1 } });
  const r = await executeGraphQL(c, { query: 'items', variables: { min: 2 } });
  t.is(compact(r.body), '{"data":{"item":[{"id":2,"name":"two"}]}}');
  t.is(f.calls(), 1);
  t.like(planCacheStats(state), { hits: 1, misses: 1, size: 1 });
  await executeGraphQL(ctxFor(f.prepare, state, 'user'), { query: 'items', variables: { min: 1 } });
  t.is(f.calls(), 2, 'the role is part of the key');
  await executeGraphQL(ctxFor(f.prepare, fakeState()), { query: 'items', variables: { min: 1 } });
  t.is(f.calls(), 3);
});

test('non-reusable plans are not cached', async (t) => {
  const f = front({ q: { ...items, reusable: false } });
  const c = ctxFor(f.prepare);
  await executeGraphQL(c, { query: 'q', variables: { min: 1 } });
  await executeGraphQL(c, { query: 'q', variables: { min: 1 } });
  t.is(f.calls(), 2);
});

test('statements are named prepared statements, reused on the connection', async (t) => {
  const f = front({ items });
  const c = ctxFor(f.prepare);
  await executeGraphQL(c, { query: 'items', variables: { min: 1 } });
  await executeGraphQL(c, { query: 'items', variables: { min: 2 } });
  const r = await pool.query<{ name: string; statement: string }>("SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'e\\_%'");
  t.true(r.rows.some((x) => x.statement.includes('"public"."item"')));
  t.is(new Set(r.rows.map((x) => x.statement)).size, r.rows.length, 'one prepared statement per text');
});

test('body shape errors are parse-failed; batches answer per element', async (t) => {
  const f = front({ items });
  const c = ctxFor(f.prepare);
  t.is((await executeGraphQL(c, { variables: {} })).body, '{"errors":[{"extensions":{"path":"$","code":"parse-failed"},"message":"key \\"query\\" not found"}]}');
  t.is((await executeGraphQL(c, { query: 1 })).body, '{"errors":[{"extensions":{"path":"$.query","code":"parse-failed"},"message":"expected String, encountered Number"}]}');
  const batch = await executeGraphQL(c, [{ query: 'nope' }, { query: 'items', variables: { min: 2 } }]);
  t.is(compact(batch.body), '[{"errors":[{"extensions":{"path":"$.selectionSet","code":"validation-failed"},"message":"unknown query nope"}]},{"data":{"item":[{"id":2,"name":"two"}]}}]');
});

test('Postgres errors map to the original codes, without internals for non-admins', async (t) => {
  const f = front({
    bad: query(['item', rootSelect(select(table('item'), cols('id'), { where: eq('id', variable('v')) }))]),
    like: query(['item', rootSelect(select(table('item'), cols('id'), { where: { kind: 'column', column: 'name', op: '_like', value: lit('\\', 'text') } }))]),
    sub: { ...items, operation: 'subscription' },
  });
  const user = JSON.parse((await executeGraphQL(ctxFor(f.prepare, fakeState(), 'user'), { query: 'bad', variables: { v: 'abc' } })).body);
  t.deepEqual(user, { errors: [{ extensions: { path: '$', code: 'data-exception' }, message: 'invalid input syntax for type integer: "abc"' }] });
  const admin = JSON.parse((await executeGraphQL(ctxFor(f.prepare), { query: 'bad', variables: { v: 'abc' } })).body);
  t.is(admin.errors[0].extensions.internal, undefined, 'mapped errors carry no internal, as in the original');
  const like = JSON.parse((await executeGraphQL(ctxFor(f.prepare), { query: 'like' })).body);
  t.like(like.errors[0], { extensions: { code: 'bad-request', path: '$' }, message: 'LIKE pattern must not end with escape character' });
  const sub = JSON.parse((await executeGraphQL(ctxFor(f.prepare), { query: 'sub' })).body);
  t.like(sub.errors[0], { extensions: { code: 'unexpected-payload' }, message: 'subscriptions are not supported over HTTP, use websockets instead' });
});

test('mutation root fields run in order in one transaction; a failure rolls all back', async (t) => {
  const addLog = (v: string) => rootSelect(select({ kind: 'function', function: { schema: 'public', name: 'add_log' }, args: [{ kind: 'value', name: null, value: variable(v, 'text') }] }, cols('msg')));
  const m: OperationIR = { operation: 'mutation', reusable: true, fields: [['a', addLog('x')], ['__typename', { kind: 'typename', name: 'mutation_root' }], ['b', addLog('y')]] };
  const f = front({ m });
  const c = ctxFor(f.prepare);
  const ok = await executeGraphQL(c, { query: 'm', variables: { x: 'first', y: 'second' } });
  t.is(compact(ok.body), '{"data":{"a":[{"msg":"first"}],"__typename":"mutation_root","b":[{"msg":"second"}]}}');
  const bad = JSON.parse((await executeGraphQL(c, { query: 'm', variables: { x: 'third', y: null } })).body);
  t.like(bad.errors[0], { extensions: { code: 'constraint-violation', path: '$' } });
  t.regex(bad.errors[0].message, /^Not-NULL violation\. null value in column "msg"/);
  const rows = await pool.query('SELECT msg FROM log ORDER BY id');
  t.deepEqual(rows.rows.map((r) => r.msg), ['first', 'second']);
});

test('unmapped Postgres errors are "database query error", with internal for admins only', async (t) => {
  const f = front({ div: query(['x', rootSelect(select({ kind: 'function', function: { schema: 'public', name: 'boom' }, args: [] }, cols('id')))]) });
  await pool.query(`CREATE OR REPLACE FUNCTION boom() RETURNS SETOF item LANGUAGE plpgsql STABLE AS $$ BEGIN RAISE EXCEPTION 'kaboom' USING ERRCODE = 'P0001'; END $$`);
  const admin = JSON.parse((await executeGraphQL(ctxFor(f.prepare), { query: 'div' })).body);
  t.like(admin.errors[0], { extensions: { code: 'unexpected', path: '$' }, message: 'database query error' });
  t.is(admin.errors[0].extensions.internal.error.message, 'kaboom');
  t.is(admin.errors[0].extensions.internal.error.status_code, 'P0001');
  const user = JSON.parse((await executeGraphQL(ctxFor(f.prepare, fakeState(), 'user'), { query: 'div' })).body);
  t.deepEqual(user, { errors: [{ extensions: { path: '$', code: 'unexpected' }, message: 'database query error' }] });
});
