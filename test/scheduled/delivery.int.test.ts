// Scheduled deliveries on real Postgres to a real loopback webhook: the body and headers of one-off and cron
// events, never before their time, retries every retry_interval_seconds, num_retries + 1 attempts then error,
// Retry-After, tolerance -> dead without a call, timeouts and unset variables as client errors (status 1000),
// invocation logs per attempt, the scheduled-trigger log line and the metrics.
import test from 'ava';
import pg from 'pg';
import { createTestDatabase } from '../helpers/db.js';
import { queryOk, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { startWebhook, type Webhook } from '../triggers/webhook.js';
import { ENGINE_VERSION } from '../../src/version.js';
import { DEFAULT_LOG_TYPES } from '../../src/core/log.js';

let e: TestEngine;
let db: pg.Client;
let hook: Webhook;
const lines: Array<{ type: string; detail: Record<string, any> }> = [];

test.before(async () => {
  hook = await startWebhook();
  process.env.SCHED31_HOOK_BASE = hook.url;
  process.env.SCHED31_HEADER = 'from-env';
  e = await startTestEngine({
    database: await createTestDatabase('sched31'),
    eventsFetchInterval: 200,
    enabledLogTypes: [...DEFAULT_LOG_TYPES, 'scheduled-trigger'],
    logSink: (line) => lines.push(JSON.parse(line)),
  });
  db = new pg.Client({ connectionString: e.db.url });
  await db.connect();
});
test.after.always(async () => {
  await db?.end();
  await e?.close();
  await e?.db.drop();
  await hook?.close();
});

const ok = (body: unknown) => queryOk(e, body);
const at = (path: string) => (r: { path: string }) => r.path === path;
const iso = (ms: number) => new Date(ms).toISOString();

async function until<T>(what: string, f: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (done(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function oneOff(path: string, args: Record<string, unknown> = {}): Promise<string> {
  const r = await ok({ type: 'create_scheduled_event', args: { webhook: `{{SCHED31_HOOK_BASE}}${path}`, schedule_at: iso(Date.now()), ...args } });
  return r.event_id as string;
}

const eventRow = (id: string) => db.query('SELECT status, tries, next_retry_at FROM engine_catalog.hdb_scheduled_events WHERE id = $1', [id]).then((r) => r.rows[0]);
const settled = (id: string, status: string) => until(`event ${id} ${status}`, () => eventRow(id), (r) => r?.status === status);
const logsOf = (id: string, table = 'hdb_scheduled_event_invocation_logs') =>
  db.query(`SELECT status, request, response FROM engine_catalog.${table} WHERE event_id = $1 ORDER BY created_at`, [id]).then((r) => r.rows);

test.serial('a one-off event: the original\'s body and headers, delivered once with one invocation log', async (t) => {
  const id = await oneOff('/one', {
    payload: { foo: 'baz' }, comment: 'hello',
    headers: [{ name: 'X-From-Value', value: 'v1' }, { name: 'X-From-Env', value_from_env: 'SCHED31_HEADER' }],
  });
  const [got] = await hook.waitFor(at('/one'));
  const row = (await db.query(`SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS c,
    to_char(scheduled_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS s FROM engine_catalog.hdb_scheduled_events WHERE id = $1`, [id])).rows[0];
  const trim = (s: string) => `${s.replace(/\.?0+$/, '')}Z`;
  t.deepEqual(got.body, { id, scheduled_time: trim(row.s), payload: { foo: 'baz' }, comment: 'hello', created_at: trim(row.c) });
  t.deepEqual(Object.keys(got.body), ['id', 'scheduled_time', 'payload', 'comment', 'created_at']);
  t.is(got.headers['content-type'], 'application/json');
  t.is(got.headers['user-agent'], `engine-graphql-engine/${ENGINE_VERSION}`);
  t.is(got.headers['x-from-value'], 'v1');
  t.is(got.headers['x-from-env'], 'from-env');
  t.like(await settled(id, 'delivered'), { status: 'delivered', tries: 1 });
  const logs = await logsOf(id);
  t.is(logs.length, 1);
  t.is(logs[0].status, 200);
  // The header from the environment is logged by its variable's name, never its value.
  t.deepEqual(logs[0].request, {
    payload: got.body, version: '1',
    headers: [{ name: 'User-Agent', value: `engine-graphql-engine/${ENGINE_VERSION}` }, { name: 'X-From-Value', value: 'v1' }, { name: 'X-From-Env', value_from_env: 'SCHED31_HEADER' }],
  });
  t.is(logs[0].response.type, 'webhook_response');
  t.is(logs[0].response.version, '1');
  t.is(logs[0].response.data.status, 200);
  t.is(logs[0].response.data.body, '{"ok":true}');
  await new Promise((r) => setTimeout(r, 300));
  t.is(hook.received.filter(at('/one')).length, 1, 'delivered once');
  // Without a payload or comment: payload null, no comment key.
  const bare = await oneOff('/bare');
  const [b] = await hook.waitFor(at('/bare'));
  t.deepEqual(Object.keys(b.body), ['id', 'scheduled_time', 'payload', 'created_at']);
  t.is(b.body.id, bare);
  t.is(b.body.payload, null);
});

test.serial('an event due in a moment is not delivered before its time', async (t) => {
  const due = Date.now() + 1500;
  const id = await oneOff('/later', { schedule_at: iso(due) });
  const [got] = await hook.waitFor(at('/later'));
  t.is(got.body.id, id);
  t.true(got.at >= due, `arrived ${got.at - due} ms after its time`);
  t.log(`arrived ${got.at - due} ms after scheduled_time`);
});

test.serial('retries every retry_interval_seconds until a 2xx; an invocation log per attempt', async (t) => {
  let n = 0;
  hook.answer = (r) => (r.path === '/flaky' ? { status: ++n < 3 ? 500 : 200 } : { status: 200 });
  const id = await oneOff('/flaky', { retry_conf: { num_retries: 5, retry_interval_seconds: 1 } });
  const got = await hook.waitFor(at('/flaky'), 3);
  for (let i = 1; i < 3; i++) t.true(got[i].at - got[i - 1].at >= 950, `attempt ${i + 1} came ${got[i].at - got[i - 1].at} ms after the one before`);
  t.like(await settled(id, 'delivered'), { tries: 3 });
  t.deepEqual((await logsOf(id)).map((l) => l.status), [500, 500, 200]);
  hook.answer = () => ({ status: 200 });
});

test.serial('num_retries + 1 attempts, then error', async (t) => {
  hook.answer = (r) => ({ status: r.path === '/down' ? 502 : 200 });
  const id = await oneOff('/down', { retry_conf: { num_retries: 1, retry_interval_seconds: 1 } });
  await hook.waitFor(at('/down'), 2);
  t.like(await settled(id, 'error'), { tries: 2 });
  t.deepEqual((await logsOf(id)).map((l) => l.status), [502, 502]);
  await new Promise((r) => setTimeout(r, 1500));
  t.is(hook.received.filter(at('/down')).length, 2, 'no third attempt');
  hook.answer = () => ({ status: 200 });
});

test.serial('Retry-After: the retry comes after its seconds, even with no retries configured', async (t) => {
  let n = 0;
  hook.answer = (r) => (r.path === '/busy' && ++n === 1 ? { status: 503, headers: { 'Retry-After': '2' } } : { status: 200 });
  const id = await oneOff('/busy', { retry_conf: { num_retries: 0, retry_interval_seconds: 300 } });
  const got = await hook.waitFor(at('/busy'), 2);
  t.true(got[1].at - got[0].at >= 1950, `retried after ${got[1].at - got[0].at} ms`);
  t.like(await settled(id, 'delivered'), { tries: 2 });
  hook.answer = () => ({ status: 200 });
});

test.serial('older than its tolerance: dead, without a call or an invocation log', async (t) => {
  const late = await oneOff('/late', { schedule_at: iso(Date.now() - 120_000), retry_conf: { tolerance_seconds: 60 } });
  const old = await oneOff('/old', { schedule_at: '2020-01-01T00:00:00Z' });
  // Within its tolerance it is delivered, however late.
  const fine = await oneOff('/fine', { schedule_at: iso(Date.now() - 120_000), retry_conf: { tolerance_seconds: 600 } });
  await hook.waitFor(at('/fine'));
  t.like(await settled(late, 'dead'), { tries: 0 });
  t.like(await settled(old, 'dead'), { tries: 0 });
  t.like(await settled(fine, 'delivered'), { tries: 1 });
  t.deepEqual([...(await logsOf(late)), ...(await logsOf(old))], []);
  t.is(hook.received.filter((r) => r.path === '/late' || r.path === '/old').length, 0);
});

test.serial('a webhook slower than timeout_seconds, and a webhook whose variable is not set: client errors (status 1000)', async (t) => {
  hook.answer = (r) => (r.path === '/slow' ? { status: 200, delayMs: 3000 } : { status: 200 });
  const slow = await oneOff('/slow', { retry_conf: { timeout_seconds: 1 } });
  const unset = (await ok({ type: 'create_scheduled_event', args: { webhook: '{{SCHED31_NOT_SET}}/x', schedule_at: iso(Date.now()) } })).event_id;
  t.like(await settled(slow, 'error'), { tries: 1 });
  t.like(await settled(unset, 'error'), { tries: 1 });
  const [s] = await logsOf(slow);
  t.is(s.status, 1000);
  t.is(s.response.type, 'client_error');
  t.regex(s.response.data.message, /ResponseTimeout/);
  const [u] = await logsOf(unset);
  t.is(u.status, 1000);
  t.is(u.response.data.message, 'Value for environment variables not found: SCHED31_NOT_SET');
  hook.answer = () => ({ status: 200 });
});

test.serial('a cron event: the trigger\'s webhook, headers, payload and comment, with the trigger\'s name and no created_at', async (t) => {
  await ok({
    type: 'create_cron_trigger',
    args: {
      name: 'yearly', webhook: '{{SCHED31_HOOK_BASE}}/cron', schedule: '0 0 1 1 *', payload: { job: 'report' }, comment: 'once a year',
      headers: [{ name: 'X-Cron', value: 'c' }], include_in_metadata: true,
    },
  });
  // The first of its 100 events brought forward to now, as if the year had turned.
  const first = (await db.query(`UPDATE engine_catalog.hdb_cron_events SET scheduled_time = now() WHERE id =
    (SELECT id FROM engine_catalog.hdb_cron_events WHERE trigger_name = 'yearly' ORDER BY scheduled_time LIMIT 1)
    RETURNING id, to_char(scheduled_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS s`)).rows[0];
  await db.query("SELECT pg_notify('engine_scheduled', '')");
  const [got] = await hook.waitFor(at('/cron'));
  t.deepEqual(got.body, { id: first.id, name: 'yearly', scheduled_time: `${first.s.replace(/\.?0+$/, '')}Z`, payload: { job: 'report' }, comment: 'once a year' });
  t.is(got.headers['x-cron'], 'c');
  await until('the cron event delivered', () => db.query('SELECT status, tries FROM engine_catalog.hdb_cron_events WHERE id = $1', [first.id]).then((r) => r.rows[0]),
    (r) => r.status === 'delivered' && r.tries === 1);
  const logs = await logsOf(first.id, 'hdb_cron_event_invocation_logs');
  t.deepEqual(logs.map((l) => [l.status, l.request.payload.name]), [[200, 'yearly']]);
  t.is((await db.query("SELECT count(*)::int AS n FROM engine_catalog.hdb_cron_events WHERE trigger_name = 'yearly' AND status = 'scheduled'")).rows[0].n, 99);
});

test.serial('the scheduled-trigger log line of each attempt, and the metrics', async (t) => {
  const delivered = lines.filter((l) => l.type === 'scheduled-trigger' && l.detail.delivery === 'delivered');
  const cron = delivered.find((l) => l.detail.kind === 'cron');
  t.truthy(cron);
  t.like(cron!.detail, { event_name: 'yearly', tries: 1, response: { status: 200, size: 11 } });
  t.true(typeof cron!.detail.execution_time === 'number');
  const dead = lines.filter((l) => l.type === 'scheduled-trigger' && l.detail.delivery === 'dead');
  t.is(dead.length, 2);
  t.true(lines.some((l) => l.type === 'scheduled-trigger' && l.detail.delivery === 'retry' && l.detail.response?.type === 'status'));
  t.false(JSON.stringify(lines.filter((l) => l.type === 'scheduled-trigger')).includes('from-env'), 'no header value is logged');

  const m = await e.get('/v1/metrics');
  t.is(m.status, 200);
  const value = (re: RegExp) => Number(re.exec(m.text)?.[1]);
  t.is(value(/^engine_scheduled_events_delivered_total\{kind="cron"\} (\d+)$/m), 1);
  // one, bare, later, flaky, busy, fine
  t.is(value(/^engine_scheduled_events_delivered_total\{kind="one_off"\} (\d+)$/m), 6);
  t.is(value(/^engine_scheduled_events_failed_total\{kind="one_off",status="dead"\} (\d+)$/m), 2);
  t.is(value(/^engine_scheduled_events_failed_total\{kind="one_off",status="error"\} (\d+)$/m), 3);
  // first attempts made (dead events make none): the six delivered, down, slow, unset
  t.is(value(/^engine_scheduled_event_lateness_seconds_count\{kind="one_off"\} (\d+)$/m), 9);
  t.regex(m.text, /^engine_scheduled_events_due\{kind="cron"\} 0$/m);
});
