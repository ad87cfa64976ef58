// Scheduled deliveries across engine processes on one database: two instances deliver 500 events due at once, each
// exactly once; an instance SIGKILLed in the middle of a delivery leaves the event to another instance, which
// delivers it once the killed one is gone; a claim whose instance is alive but has not refreshed it is taken over
// only after the lease (never before), and a restart unlocks nothing else.
import test from 'ava';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { request, spawnEngine, type ChildEngine } from '../helpers/engine.js';
import { startWebhook, type Webhook } from '../triggers/webhook.js';

const children: ChildEngine[] = [];
const dbs: TestDatabase[] = [];
const hooks: Webhook[] = [];
const clients: pg.Client[] = [];
test.after.always(async () => {
  await Promise.all(children.map((c) => c.kill()));
  await Promise.all(clients.map((c) => c.end()));
  await Promise.all(dbs.map((d) => d.drop()));
  await Promise.all(hooks.map((h) => h.close()));
});

async function setup(): Promise<{ db: TestDatabase; client: pg.Client; hook: Webhook }> {
  const db = await createTestDatabase('sched31');
  dbs.push(db);
  const hook = await startWebhook();
  hooks.push(hook);
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  clients.push(client);
  return { db, client, hook };
}

async function start(db: TestDatabase, env: Record<string, string> = {}): Promise<ChildEngine> {
  const c = await spawnEngine(db.url, { ENGINE_GRAPHQL_EVENTS_FETCH_INTERVAL: '200', ...env });
  children.push(c);
  return c;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const count = async (c: pg.Client, sql: string, params: unknown[] = []) => (await c.query<{ n: number }>(sql, params)).rows[0].n;

test.serial('two instances, 500 events due at once: every event delivered exactly once, one invocation log each', async (t) => {
  const { db, client, hook } = await setup();
  const a = await start(db);
  const b = await start(db);
  // All due at one instant a few seconds from now: both instances wake for them at the same time and claim at once.
  const due = new Date(Date.now() + 5000).toISOString();
  const r = await request(`${a.url}/v1/query`, 'POST', {
    type: 'bulk',
    args: Array.from({ length: 500 }, (_, i) => ({ type: 'create_scheduled_event', args: { webhook: `${hook.url}/flood`, schedule_at: due, payload: { i } } })),
  });
  t.is(r.status, 200, r.text);
  await until('500 events delivered', async () => (await count(client, "SELECT count(*)::int AS n FROM engine_catalog.hdb_scheduled_events WHERE status = 'delivered'")) === 500);
  await new Promise((res) => setTimeout(res, 500));
  const ids = (await client.query<{ id: string }>('SELECT id FROM engine_catalog.hdb_scheduled_events')).rows.map((x) => x.id);
  const seen = new Map<string, number>();
  for (const x of hook.received) seen.set(x.body.id, (seen.get(x.body.id) ?? 0) + 1);
  t.is(ids.length, 500);
  t.deepEqual(ids.filter((id) => !seen.has(id)), [], 'none missing');
  t.deepEqual([...seen.entries()].filter(([, n]) => n > 1), [], 'none twice');
  t.is(hook.received.length, 500);
  t.is(await count(client, 'SELECT count(*)::int AS n FROM engine_catalog.hdb_scheduled_event_invocation_logs'), 500);
  t.is(await count(client, 'SELECT count(*)::int AS n FROM (SELECT event_id FROM engine_catalog.hdb_scheduled_event_invocation_logs GROUP BY 1 HAVING count(*) > 1) d'), 0);
  await Promise.all([a.stop(), b.stop()]);
});

test.serial('SIGKILL mid-delivery: another instance delivers the event once the killed one is gone', async (t) => {
  const { db, client, hook } = await setup();
  let holding = true;
  // While holding, the webhook keeps each request open (answering long after the kill); then it answers at once.
  hook.answer = () => (holding ? { status: 200, delayMs: 120_000 } : { status: 200 });
  // A long lease: the takeover must come from the killed instance's connection going away, not from the lease.
  const env = { ENGINE_GRAPHQL_SCHEDULED_EVENTS_LEASE: '600' };
  const a = await start(db, env);
  const r = await request(`${a.url}/v1/query`, 'POST', { type: 'create_scheduled_event', args: { webhook: `${hook.url}/held`, schedule_at: new Date().toISOString() } });
  t.is(r.status, 200, r.text);
  const id: string = r.body.event_id;
  await hook.waitFor((x) => x.path === '/held');
  const claim = (await client.query('SELECT status, locked_by FROM engine_catalog.hdb_scheduled_events WHERE id = $1', [id])).rows[0];
  t.is(claim.status, 'locked');
  t.truthy(claim.locked_by);
  await a.kill();
  holding = false;
  const killedAt = Date.now();
  const b = await start(db, env);
  await hook.waitFor((x) => x.path === '/held', 2, 60_000);
  const taken = Date.now() - killedAt;
  await until('the event stored as delivered', async () => (await client.query('SELECT status FROM engine_catalog.hdb_scheduled_events WHERE id = $1', [id])).rows[0].status === 'delivered');
  const row = (await client.query('SELECT tries, locked_by FROM engine_catalog.hdb_scheduled_events WHERE id = $1', [id])).rows[0];
  t.deepEqual(row, { tries: 1, locked_by: null }, 'the killed attempt was never recorded; the second one was');
  t.is(await count(client, 'SELECT count(*)::int AS n FROM engine_catalog.hdb_scheduled_event_invocation_logs WHERE event_id = $1', [id]), 1);
  t.log(`redelivered ${taken} ms after the SIGKILL (including the new instance's start-up), lease 600 s`);
  await b.stop();
});

test.serial('a claim of a live instance is taken over only after the lease; other claims are left alone', async (t) => {
  const { db, client, hook } = await setup();
  // A stand-in for a live instance that claimed two events and stopped refreshing them: its connection is there.
  const owner = new pg.Client({ connectionString: db.url, application_name: 'engine-scheduled-stalled' });
  await owner.connect();
  clients.push(owner);
  const a = await start(db, { ENGINE_GRAPHQL_SCHEDULED_EVENTS_LEASE: '3' });
  const mk = async (path: string) => (await request(`${a.url}/v1/query`, 'POST', {
    type: 'create_scheduled_event', args: { webhook: `${hook.url}${path}`, schedule_at: '2100-01-01T00:00:00Z' },
  })).body.event_id as string;
  const stale = await mk('/stale');
  const fresh = await mk('/fresh');
  // Both are due now and claimed by the stalled instance: one claimed just now, one 10 s ago (past the 3 s lease).
  await client.query(`UPDATE engine_catalog.hdb_scheduled_events SET scheduled_time = now(), status = 'locked', locked_by = 'stalled',
    locked_at = CASE WHEN id = $1 THEN clock_timestamp() - interval '10 seconds' ELSE clock_timestamp() END WHERE id IN ($1, $2)`, [stale, fresh]);
  const claimedAt = Date.now();
  await hook.waitFor((x) => x.path === '/stale');
  t.is(hook.received.filter((x) => x.path === '/fresh').length, 0, 'the fresh claim is not taken over at once');
  const [got] = await hook.waitFor((x) => x.path === '/fresh', 1, 30_000);
  t.true(got.at - claimedAt >= 2900, `taken over ${got.at - claimedAt} ms after the claim, not before the 3 s lease`);
  await until('both stored as delivered', async () =>
    (await count(client, "SELECT count(*)::int AS n FROM engine_catalog.hdb_scheduled_events WHERE status = 'delivered'")) === 2);
  await a.stop();
});
