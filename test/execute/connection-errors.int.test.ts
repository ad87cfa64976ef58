// Issue 34: a lost or refused database connection is answered as the original answers it (postgres-error
// "connection error", the connection's error as `internal`, for admins), and a request caught by one is run again on
// a new connection first (--retries): a query always, a mutation only when nothing of it was sent. The long-lived
// connections say when they are back. The engine reaches Postgres through a proxy the test controls; statements are
// held on an advisory lock the test holds, so "in flight" is a state the test waits for, not a moment it guesses.
import test from 'ava';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { queryOk, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { startPgProxy, type PgProxy } from '../helpers/pg-proxy.js';

const GATE = 34;
let db: TestDatabase;
let direct: pg.Client;
let proxy: PgProxy;
let e: TestEngine;
const lines: Array<{ level: string; type: string; detail: Record<string, unknown> }> = [];

test.before(async () => {
  db = await createTestDatabase('conn');
  direct = new pg.Client({ connectionString: db.url });
  await direct.connect();
  await direct.query(`
    CREATE TABLE item (id int PRIMARY KEY, name text);
    INSERT INTO item VALUES (1, 'one');
    CREATE VIEW gated AS SELECT 1 AS v FROM pg_advisory_xact_lock_shared(${GATE});
    CREATE TABLE ledger (id serial PRIMARY KEY, note text);
    CREATE FUNCTION ledger_gate() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_advisory_xact_lock_shared(${GATE}); RETURN NEW; END $$;
    CREATE TRIGGER ledger_gate BEFORE INSERT ON ledger FOR EACH ROW EXECUTE FUNCTION ledger_gate();`);
  const target = new URL(db.url);
  proxy = await startPgProxy({ host: target.hostname, port: Number(target.port || 5432) });
  e = await startTestEngine({
    database: { ...db, url: proxy.url(db.url), drop: async () => undefined },
    // Nothing else of the engine's own reaches for the pool while a test counts its connections.
    syncPollInterval: 3_600_000,
    logSink: (l) => lines.push(JSON.parse(l)),
  });
  await queryOk(e, {
    type: 'bulk',
    args: [
      ...['item', 'gated', 'ledger'].map((name) => ({ type: 'track_table', args: { name } })),
      { type: 'create_select_permission', args: { table: 'item', role: 'user', permission: { columns: ['id'], filter: {} } } },
    ],
  });
});

test.after.always(async () => {
  await e?.close();
  await proxy?.close();
  await direct?.end();
  await db?.drop();
});

const poolApp = (): string => `engine-${e.engine.instanceId}`.slice(0, 63);
const retryLines = (requestId: string) => lines.filter((l) => l.type === 'pg-client' && l.detail.request_id === requestId);

/** Holds the gate: statements through `gated` or into `ledger` wait until it is released. */
async function holdGate(): Promise<pg.Client> {
  const holder = new pg.Client({ connectionString: db.url });
  await holder.connect();
  await holder.query('SELECT pg_advisory_lock($1)', [GATE]);
  return holder;
}

/** The engine's backend waiting at the gate (the statement is in flight). */
async function waiterAtGate(): Promise<number> {
  for (const end = Date.now() + 60_000; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
    const r = await direct.query(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND application_name = $1`,
      [poolApp()],
    );
    if (r.rows[0]) return r.rows[0].pid as number;
  }
  throw new Error('no engine statement waiting at the gate');
}

async function until(what: string, ok: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  for (const end = Date.now() + timeoutMs; !(await ok()); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
  }
}

const notes = async (note: string): Promise<number> =>
  (await direct.query('SELECT count(*)::int AS n FROM ledger WHERE note = $1', [note])).rows[0].n;

test.serial('a query whose connection is lost while it runs is run again on a new connection', async (t) => {
  // First as a new plan, then with the plan cached (the executor's shorter path for a cached query).
  for (const round of ['new-plan', 'cached-plan']) {
    const holder = await holdGate();
    const answer = e.graphql({ query: '{ gated { v } }' }, { 'x-request-id': `lost-query-${round}` });
    const pid = await waiterAtGate();
    await direct.query('SELECT pg_terminate_backend($1)', [pid]);
    await holder.end(); // releases the gate: the retry goes through
    const r = await answer;
    t.deepEqual(r.body, { data: { gated: [{ v: 1 }] } }, round);
    t.like(retryLines(`lost-query-${round}`)[0], { level: 'warn', detail: { message: 'postgres connection failed, retrying(1).' } }, round);
  }
});

test.serial('a mutation whose connection is lost after it was sent is not run again: connection error, nothing written', async (t) => {
  const holder = await holdGate();
  const answer = e.graphql({ query: 'mutation { insert_ledger_one(object: {note: "sent"}) { id } }' }, { 'x-request-id': 'lost-mutation' });
  const pid = await waiterAtGate();
  await direct.query('SELECT pg_terminate_backend($1)', [pid]);
  await holder.end(); // a retry would now go through and write the row
  const r = await answer;
  t.is(r.status, 200);
  t.deepEqual(r.body, {
    errors: [{ extensions: { path: '$', code: 'postgres-error', internal: 'terminating connection due to administrator command' }, message: 'connection error' }],
  });
  t.is(await notes('sent'), 0);
  t.deepEqual(retryLines('lost-mutation'), []);
});

test.serial('a connection cut while a mutation transaction runs on it: connection error, nothing written, the engine keeps serving', async (t) => {
  // Checked out of the pool (a transaction), the connection's end is an 'error' event on it: it must not be an
  // uncaught one (the in-process engine would take this test process down with it).
  const holder = await holdGate();
  const answer = e.graphql({ query: 'mutation { a: insert_ledger_one(object: {note: "cut"}) { id } b: insert_ledger_one(object: {note: "cut"}) { id } }' });
  await waiterAtGate();
  proxy.cut((app) => app === poolApp());
  await holder.end();
  const r = await answer;
  t.deepEqual(r.body, { errors: [{ extensions: { path: '$', code: 'postgres-error', internal: 'Connection terminated unexpectedly' }, message: 'connection error' }] });
  // The backend, never told, finishes the statement and finds its client gone: the transaction is not committed.
  await until('the cut backend has ended', async () =>
    (await direct.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND state <> 'idle'", [poolApp()])).rows[0].n === 0);
  t.is(await notes('cut'), 0);
  t.deepEqual((await e.graphql({ query: '{ item { id } }' })).body, { data: { item: [{ id: 1 }] } });
});

test.serial('a mutation whose connection could not be made is run again on a new connection, once', async (t) => {
  // The pool's connections go away (as in a restart); the next one the pool opens is closed before it is through.
  proxy.cut((app) => app === poolApp());
  await until('the pool has dropped its connections', () => e.engine.runtime.pool.totalCount === 0);
  const refusedBefore = proxy.refused;
  proxy.refuseNext(1, (app) => app === poolApp());
  const one = await e.graphql({ query: 'mutation { insert_ledger_one(object: {note: "retried"}) { note } }' }, { 'x-request-id': 'refused-one' });
  t.deepEqual(one.body, { data: { insert_ledger_one: { note: 'retried' } } });
  t.is(proxy.refused, refusedBefore + 1);
  t.is(await notes('retried'), 1);
  t.is(retryLines('refused-one').length, 1);

  // Several root fields (one transaction): the same when its connection could not be made.
  proxy.cut((app) => app === poolApp());
  await until('the pool has dropped its connections', () => e.engine.runtime.pool.totalCount === 0);
  proxy.refuseNext(1, (app) => app === poolApp());
  const two = await e.graphql(
    { query: 'mutation { a: insert_ledger_one(object: {note: "both"}) { note } b: insert_ledger_one(object: {note: "both"}) { note } }' },
    { 'x-request-id': 'refused-two' },
  );
  t.deepEqual(two.body, { data: { a: { note: 'both' }, b: { note: 'both' } } });
  t.is(proxy.refused, refusedBefore + 2);
  t.is(await notes('both'), 2);
  t.is(retryLines('refused-two').length, 1);
});

test.serial('--retries 0: a mutation whose connection could not be made is answered with the connection error', async (t) => {
  const noRetries = await startTestEngine({
    database: { ...db, url: proxy.url(db.url), drop: async () => undefined }, syncPollInterval: 3_600_000, connectionRetries: 0,
    logSink: (l) => lines.push(JSON.parse(l)), // the logger is the process's: keep the lines coming
  });
  try {
    const app = `engine-${noRetries.engine.instanceId}`.slice(0, 63);
    proxy.cut((a) => a === app);
    await until('the pool has dropped its connections', () => noRetries.engine.runtime.pool.totalCount === 0);
    proxy.refuseNext(1, (a) => a === app);
    const r = await noRetries.graphql({ query: 'mutation { insert_ledger_one(object: {note: "no-retry"}) { note } }' });
    t.deepEqual(r.body, { errors: [{ extensions: { path: '$', code: 'postgres-error', internal: 'Connection terminated unexpectedly' }, message: 'connection error' }] });
    t.is(await notes('no-retry'), 0);
  } finally {
    await noRetries.close();
  }
});

test.serial('Postgres refusing connections: postgres-error "connection error" (internal for admins only) on /v1/graphql and /v1/query; the long-lived connections say when they are back', async (t) => {
  await proxy.stop();
  const admin = await e.graphql({ query: '{ item { id } }' });
  t.is(admin.status, 200);
  t.is(admin.body.errors.length, 1);
  t.like(admin.body.errors[0], { extensions: { path: '$', code: 'postgres-error' }, message: 'connection error' });
  t.regex(admin.body.errors[0].extensions.internal, /ECONNREFUSED/);
  const mutation = await e.graphql({ query: 'mutation { insert_ledger_one(object: {note: "refused"}) { note } }' });
  t.like(mutation.body.errors[0], { extensions: { path: '$', code: 'postgres-error' }, message: 'connection error' });
  const user = await e.graphql({ query: '{ item { id } }' }, { 'x-engine-role': 'user' });
  t.deepEqual(user.body, { errors: [{ extensions: { path: '$', code: 'postgres-error' }, message: 'connection error' }] });
  const metadata = await e.query({ type: 'run_sql', args: { sql: 'SELECT 1' } });
  t.is(metadata.status, 500);
  t.like(metadata.body, { path: '$', error: 'connection error', code: 'postgres-error' });
  t.regex(metadata.body.internal, /ECONNREFUSED/);

  await proxy.listen();
  const back = (message: string) => () => lines.some((l) => l.level === 'info' && l.detail.message === message);
  await until('the metadata listener is back', back('metadata listener connection is back'));
  await until('the event connection is back', back('event notification connection is back'));
  t.deepEqual((await e.graphql({ query: '{ item { id } }' })).body, { data: { item: [{ id: 1 }] } });
});
