// Delivery on real Postgres to a real loopback webhook: the payload and headers, retries with interval_sec and
// Retry-After, timeouts (status 1000), invocation logs, delivered/error flags, invoke_event_trigger, redeliver_event.
import test from 'ava';
import pg from 'pg';
import { createTestDatabase } from '../helpers/db.js';
import { queryOk, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { startWebhook, type Webhook } from './webhook.js';
import { ENGINE_VERSION } from '../../src/version.js';

let e: TestEngine;
let db: pg.Client;
let hook: Webhook;

test.before(async () => {
  process.env.H11_HOOK_BASE = 'placeholder';
  process.env.H11_HEADER = 'from-env';
  hook = await startWebhook();
  process.env.H11_HOOK_BASE = hook.url;
  const database = await createTestDatabase('h11');
  e = await startTestEngine({ database, eventsFetchInterval: 200 });
  db = new pg.Client({ connectionString: database.url });
  await db.connect();
});
test.after.always(async () => {
  await db?.end();
  await e?.close();
  await e?.db.drop();
  await hook?.close();
});

const ok = (body: unknown, headers?: Record<string, string>) => queryOk(e, body, headers);

async function table(name: string, trigger: Record<string, unknown>): Promise<void> {
  await ok({
    type: 'bulk',
    args: [
      { type: 'run_sql', args: { sql: `CREATE TABLE ${name} (id int PRIMARY KEY, a text)` } },
      { type: 'track_table', args: name },
      { type: 'create_event_trigger', args: { name: `${name}_t`, table: name, ...trigger } },
    ],
  });
}

async function eventRow(trigger: string) {
  const r = await db.query('SELECT id, delivered, error, tries, locked, next_retry_at FROM engine_catalog.event_log WHERE trigger_name = $1', [trigger]);
  return r.rows[0];
}

async function until<T>(f: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const at = (path: string) => (r: { path: string }) => r.path === path;
const SLOW_MS = 20_000;

test.serial('the payload of each op, User-Agent and configured headers, a webhook template; delivered with one invocation log', async (t) => {
  await table('shape', {
    webhook: '{{H11_HOOK_BASE}}/shape',
    insert: { columns: '*' }, update: { columns: '*' }, delete: { columns: '*' },
    headers: [{ name: 'X-From-Value', value: 'v1' }, { name: 'X-From-Env', value_from_env: 'H11_HEADER' }],
    retry_conf: { num_retries: 3, interval_sec: 1 },
  });
  await ok({ type: 'insert', args: { table: 'shape', objects: [{ id: 1, a: 'x' }] } }, { 'x-engine-user-id': '5' });
  await db.query(`UPDATE shape SET a = 'y'`);
  await db.query(`DELETE FROM shape`);
  const got = await hook.waitFor(at('/shape'), 3);
  const byOp = Object.fromEntries(got.map((r) => [r.body.event.op, r]));
  const ins = byOp.INSERT;
  t.deepEqual(Object.keys(ins.body).sort(), ['created_at', 'delivery_info', 'event', 'id', 'table', 'trigger']);
  t.regex(ins.body.id, /^[0-9a-f-]{36}$/);
  t.false(Number.isNaN(Date.parse(ins.body.created_at)));
  t.deepEqual(ins.body.trigger, { name: 'shape_t' });
  t.deepEqual(ins.body.table, { schema: 'public', name: 'shape' });
  t.deepEqual(ins.body.event, { op: 'INSERT', data: { old: null, new: { id: 1, a: 'x' } }, session_variables: { 'x-engine-role': 'admin', 'x-engine-user-id': '5' } });
  t.deepEqual(ins.body.delivery_info, { max_retries: 3, current_retry: 0 });
  t.is(ins.headers['user-agent'], `engine-graphql-engine/${ENGINE_VERSION}`);
  t.is(ins.headers['content-type'], 'application/json');
  t.is(ins.headers['x-from-value'], 'v1');
  t.is(ins.headers['x-from-env'], 'from-env');
  t.deepEqual(byOp.UPDATE.body.event, { op: 'UPDATE', data: { old: { id: 1, a: 'x' }, new: { id: 1, a: 'y' } }, session_variables: null });
  t.deepEqual(byOp.DELETE.body.event, { op: 'DELETE', data: { old: { id: 1, a: 'y' }, new: null }, session_variables: null });
  const rows = await until(
    async () => (await db.query('SELECT delivered, error, tries, locked FROM engine_catalog.event_log WHERE trigger_name = $1', ['shape_t'])).rows,
    (rs) => rs.every((r) => r.delivered),
  );
  t.deepEqual(rows, [0, 1, 2].map(() => ({ delivered: true, error: false, tries: 1, locked: null })));
  const logs = await db.query(`SELECT l.status, l.request, l.response FROM engine_catalog.event_invocation_logs l
    JOIN engine_catalog.event_log e ON e.id = l.event_id WHERE e.id = $1`, [ins.body.id]);
  t.is(logs.rows.length, 1);
  t.is(logs.rows[0].status, 200);
  t.deepEqual(logs.rows[0].request.payload, ins.body);
  // A header from an environment variable is logged as the variable, not its value (without --log-headers-from-env).
  t.deepEqual(logs.rows[0].request.headers, [
    { name: 'User-Agent', value: `engine-graphql-engine/${ENGINE_VERSION}` }, { name: 'X-From-Value', value: 'v1' }, { name: 'X-From-Env', value_from_env: 'H11_HEADER' },
  ]);
  t.like(logs.rows[0].response, { type: 'webhook_response', data: { status: 200, body: '{"ok":true}' } });
});

test.serial('failures retry every interval_sec, num_retries + 1 attempts, then error with one log per attempt', async (t) => {
  hook.answer = (r) => (r.path === '/fail' ? { status: 500 } : { status: 200 });
  await table('fails', { webhook: `${hook.url}/fail`, insert: { columns: '*' }, retry_conf: { num_retries: 2, interval_sec: 1, timeout_sec: 5 } });
  await db.query(`INSERT INTO fails VALUES (1, 'x')`);
  const got = await hook.waitFor(at('/fail'), 3);
  const row = await until(() => eventRow('fails_t'), (r) => r.error === true);
  t.like(row, { delivered: false, error: true, tries: 3, locked: null });
  t.deepEqual(got.map((r) => r.body.delivery_info.current_retry), [0, 1, 2]);
  // Spaced by interval_sec (1 s), not hammered.
  for (let i = 1; i < got.length; i++) t.true(got[i].at - got[i - 1].at >= 950, `attempt ${i} came ${got[i].at - got[i - 1].at} ms after the previous`);
  await new Promise((r) => setTimeout(r, 1500));
  t.is(hook.received.filter(at('/fail')).length, 3, 'no attempt after the last retry');
  const logs = await db.query('SELECT status FROM engine_catalog.event_invocation_logs WHERE event_id = $1', [row.id]);
  t.deepEqual(logs.rows.map((r) => r.status), [500, 500, 500]);
});

test.serial('Retry-After schedules another attempt after its seconds even with no retries left', async (t) => {
  let n = 0;
  hook.answer = (r) => (r.path === '/busy' ? (n++ === 0 ? { status: 503, headers: { 'Retry-After': '2' } } : { status: 200 }) : { status: 200 });
  await table('busy', { webhook: `${hook.url}/busy`, insert: { columns: '*' } }); // num_retries 0
  await db.query(`INSERT INTO busy VALUES (1, 'x')`);
  const got = await hook.waitFor(at('/busy'), 2);
  t.true(got[1].at - got[0].at >= 1950, `second attempt after ${got[1].at - got[0].at} ms`);
  const row = await until(() => eventRow('busy_t'), (r) => r.delivered === true);
  t.like(row, { delivered: true, error: false, tries: 2 });
  const logs = await db.query('SELECT status FROM engine_catalog.event_invocation_logs WHERE event_id = $1 ORDER BY created_at', [row.id]);
  t.deepEqual(logs.rows.map((r) => r.status), [503, 200]);
});

test.serial('a webhook slower than timeout_sec is a failed attempt with status 1000; a closed port too', async (t) => {
  // The webhook answers long after the 1 s timeout, so "gave up before the answer" holds on a loaded machine too.
  hook.answer = (r) => (r.path === '/slow' ? { status: 200, delayMs: SLOW_MS } : { status: 200 });
  await table('slow', { webhook: `${hook.url}/slow`, insert: { columns: '*' }, retry_conf: { num_retries: 0, interval_sec: 1, timeout_sec: 1 } });
  const started = Date.now();
  await db.query(`INSERT INTO slow VALUES (1, 'x')`);
  const row = await until(() => eventRow('slow_t'), (r) => r.error === true);
  t.like(row, { delivered: false, error: true, tries: 1 });
  const ms = Date.now() - started;
  t.true(ms < SLOW_MS, `gave up at the timeout, before the webhook answered (${ms} ms)`);
  const logs = await db.query('SELECT status, response FROM engine_catalog.event_invocation_logs WHERE event_id = $1', [row.id]);
  t.is(logs.rows[0].status, 1000);
  t.like(logs.rows[0].response, { type: 'client_error' });
  await table('closed', { webhook: 'http://127.0.0.1:9/x', insert: { columns: '*' } });
  await db.query(`INSERT INTO closed VALUES (1, 'x')`);
  const c = await until(() => eventRow('closed_t'), (r) => r.error === true);
  const cl = await db.query('SELECT status FROM engine_catalog.event_invocation_logs WHERE event_id = $1', [c.id]);
  t.deepEqual(cl.rows.map((r) => r.status), [1000]);
});

test.serial('invoke_event_trigger: a MANUAL event with the payload as data; redeliver_event resets and delivers again', async (t) => {
  hook.answer = (r) => (r.path === '/manual' && hook.received.filter(at('/manual')).length === 0 ? { status: 500 } : { status: 200 });
  await table('man', { webhook: `${hook.url}/manual`, enable_manual: true, retry_conf: { num_retries: 0, interval_sec: 1 } });
  const r = (await ok({ type: 'invoke_event_trigger', args: { name: 'man_t', payload: { old: null, new: { id: 9 } } } })) as { event_id: string };
  t.regex(r.event_id, /^[0-9a-f-]{36}$/);
  const [first] = await hook.waitFor(at('/manual'), 1);
  t.is(first.body.id, r.event_id);
  t.deepEqual(first.body.event, { op: 'MANUAL', data: { old: null, new: { id: 9 } }, session_variables: { 'x-engine-role': 'admin' } });
  t.deepEqual(first.body.table, { schema: 'public', name: 'man' });
  await until(() => eventRow('man_t'), (x) => x.error === true);
  // busy while claimed, not-exists for unknown ids
  await db.query('UPDATE engine_catalog.event_log SET locked = now() WHERE id = $1', [r.event_id]);
  const busy = await e.query({ type: 'redeliver_event', args: { event_id: r.event_id } });
  t.is(busy.status, 400);
  t.like(busy.body, { code: 'busy', error: 'event is already being processed' });
  await db.query('UPDATE engine_catalog.event_log SET locked = NULL WHERE id = $1', [r.event_id]);
  const missing = await e.query({ type: 'redeliver_event', args: { event_id: '00000000-0000-0000-0000-000000000000' } });
  t.like(missing.body, { code: 'not-exists', error: 'event not found' });
  t.is(missing.status, 400);
  t.deepEqual(await ok({ type: 'redeliver_event', args: { event_id: r.event_id } }), { message: 'success' });
  const got = await hook.waitFor(at('/manual'), 2);
  t.is(got[1].body.id, r.event_id);
  t.is(got[1].body.delivery_info.current_retry, 0);
  const row = await until(() => eventRow('man_t'), (x) => x.delivered === true);
  t.like(row, { delivered: true, error: false, tries: 1 });
  // manual mode off / unknown trigger
  await table('noman', { webhook: `${hook.url}/x`, insert: { columns: '*' } });
  const off = await e.query({ type: 'invoke_event_trigger', args: { name: 'noman_t', payload: {} } });
  t.like(off.body, { code: 'not-supported', error: 'manual mode is not enabled for event trigger' });
  const unknown = await e.query({ type: 'invoke_event_trigger', args: { name: 'nope', payload: {} } });
  t.like(unknown.body, { code: 'not-exists', error: 'event trigger "nope" does not exist' });
});

test.serial('--log-headers-from-env: the invocation log shows the value of a header from the environment', async (t) => {
  const database = await createTestDatabase('h34');
  const withValues = await startTestEngine({ database, eventsFetchInterval: 200, logHeadersFromEnv: true });
  const c = new pg.Client({ connectionString: database.url });
  await c.connect();
  try {
    await queryOk(withValues, {
      type: 'bulk',
      args: [
        { type: 'run_sql', args: { sql: 'CREATE TABLE logged (id int PRIMARY KEY)' } },
        { type: 'track_table', args: 'logged' },
        { type: 'create_event_trigger', args: { name: 'logged_t', table: 'logged', webhook: `${hook.url}/logged`, insert: { columns: '*' },
          headers: [{ name: 'X-From-Value', value: 'v1' }, { name: 'X-From-Env', value_from_env: 'H11_HEADER' }] } },
      ],
    });
    await c.query('INSERT INTO logged VALUES (1)');
    await hook.waitFor(at('/logged'));
    const logs = await until(async () => (await c.query('SELECT request FROM engine_catalog.event_invocation_logs')).rows, (rs) => rs.length > 0);
    t.deepEqual(logs.map((r) => r.request.headers), [[
      { name: 'User-Agent', value: `engine-graphql-engine/${ENGINE_VERSION}` }, { name: 'X-From-Value', value: 'v1' }, { name: 'X-From-Env', value: 'from-env' },
    ]]);
  } finally {
    await c.end();
    await withValues.close();
    await database.drop();
  }
});
