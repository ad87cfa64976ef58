// GET /v1/metrics: Prometheus text scraped before and after traffic (request counters and histograms, plan cache,
// pool, metadata seq), its auth (admin, or the metrics secret as a bearer token), off without the `metrics` API;
// /healthz?strict=true failing while the metadata listener cannot reconnect, and recovering after.
import test from 'ava';
import pg from 'pg';
import WebSocket from 'ws';
import { baseDatabaseUrl, createTestDatabase } from '../helpers/db.js';
import { request, startTestEngine, type TestEngine } from '../helpers/engine.js';

const ADMIN = 'metrics-test-admin';
const METRICS = 'metrics-test-scraper';
let e: TestEngine;

test.before(async () => {
  e = await startTestEngine({ database: await createTestDatabase('h14_met'), adminSecret: ADMIN, metricsSecret: METRICS, syncPollInterval: 300 });
  const admin = { 'x-engine-admin-secret': ADMIN };
  const sql = 'CREATE TABLE item (id int PRIMARY KEY, name text); INSERT INTO item VALUES (1, \'one\'), (2, \'two\');';
  for (const body of [{ type: 'run_sql', args: { sql } }, { type: 'track_table', args: { schema: 'public', name: 'item' } }]) {
    const r = await e.query(body, admin);
    if (r.status !== 200) throw new Error(r.text);
  }
});
test.after.always(async () => {
  await e?.close();
  await e?.db.drop();
});

/** Prometheus text → "name{labels}" → value. */
function parse(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    if (m) out.set(m[1] + (m[2] ?? ''), Number(m[3]));
  }
  return out;
}

async function scrape(): Promise<Map<string, number>> {
  const r = await request(`${e.url}/v1/metrics`, 'GET', undefined, { authorization: `Bearer ${METRICS}` });
  if (r.status !== 200) throw new Error(`${r.status} ${r.text}`);
  return parse(r.text);
}

const GQ = 'engine_http_requests_total{endpoint="/v1/graphql",operation_type="query",status="200"}';
const GQ_COUNT = 'engine_http_request_duration_seconds_count{endpoint="/v1/graphql",operation_type="query",status="200"}';

test.serial('counters move with traffic: requests by endpoint/operation/status, latency histogram, plan cache', async (t) => {
  const before = await scrape();
  for (let i = 0; i < 3; i++) {
    const r = await e.graphql({ query: 'query { item(order_by: {id: asc}) { id name } }' }, { 'x-engine-admin-secret': ADMIN });
    t.deepEqual(r.body, { data: { item: [{ id: 1, name: 'one' }, { id: 2, name: 'two' }] } });
  }
  const m = await e.graphql({ query: 'mutation { insert_item(objects: [{id: 3}]) { affected_rows } }' }, { 'x-engine-admin-secret': ADMIN });
  t.deepEqual(m.body, { data: { insert_item: { affected_rows: 1 } } });
  await request(`${e.url}/nowhere`, 'GET');
  const after = await scrape();
  const delta = (k: string) => (after.get(k) ?? 0) - (before.get(k) ?? 0);
  t.is(delta(GQ), 3);
  t.is(delta(GQ_COUNT), 3);
  t.true((after.get('engine_http_request_duration_seconds_sum{endpoint="/v1/graphql",operation_type="query",status="200"}') ?? 0) > 0);
  t.is(delta('engine_http_requests_total{endpoint="/v1/graphql",operation_type="mutation",status="200"}'), 1);
  t.is(delta('engine_http_requests_total{endpoint="other",operation_type="",status="404"}'), 1);
  t.is(delta('engine_plan_cache_misses_total'), 2, 'the query once, the mutation once');
  t.is(delta('engine_plan_cache_hits_total'), 2);
  t.is(after.get('engine_plan_cache_size'), 2);
  // The scrapes themselves are requests too.
  t.true((after.get('engine_http_requests_total{endpoint="/v1/metrics",operation_type="",status="200"}') ?? 0) >= 1);
});

test.serial('pool, metadata and process gauges', async (t) => {
  const m = await scrape();
  t.is(m.get('engine_metadata_seq'), e.seq());
  t.is(m.get('engine_metadata_log_seq'), e.seq());
  t.is(m.get('engine_metadata_sync_lag'), 0);
  t.is(m.get('engine_metadata_listener_connected'), 1);
  t.is(m.get('engine_metadata_inconsistent_objects'), 0);
  t.is(m.get('engine_pg_pool_waiting'), 0);
  t.true((m.get('engine_pg_pool_connections{state="idle"}') ?? 0) >= 1);
  t.true(m.has('engine_pg_pool_connections{state="in_use"}'));
  t.true((m.get('engine_process_resident_memory_bytes') ?? 0) > 1e6);
  t.is(m.get('engine_event_queue_depth'), 0);
  t.is(m.get('engine_async_actions_pending'), 0);
  t.is(m.get('engine_live_query_subscriptions'), 0);
});

test.serial('websocket connections are counted while open', async (t) => {
  t.is((await scrape()).get('engine_websocket_connections'), 0);
  const socket = new WebSocket(`${e.url.replace('http:', 'ws:')}/v1/graphql`, 'graphql-transport-ws');
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  t.is((await scrape()).get('engine_websocket_connections'), 1);
  const closed = new Promise((r) => socket.once('close', r));
  socket.close();
  await closed;
  for (const end = Date.now() + 30_000; (await scrape()).get('engine_websocket_connections') !== 0 && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
  t.is((await scrape()).get('engine_websocket_connections'), 0);
});

test.serial('auth: admin secret or metrics secret; not a role, not a wrong secret', async (t) => {
  const url = `${e.url}/v1/metrics`;
  const ok = await request(url, 'GET', undefined, { 'x-engine-admin-secret': ADMIN });
  t.is(ok.status, 200);
  t.regex(ok.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  t.regex(ok.text, /# TYPE engine_http_requests_total counter/);
  const none = await request(url, 'GET');
  t.is(none.status, 401);
  t.is((none.body as { code: string }).code, 'access-denied');
  const wrong = await request(url, 'GET', undefined, { authorization: 'Bearer nope' });
  t.is(wrong.status, 401);
  const role = await request(url, 'GET', undefined, { 'x-engine-admin-secret': ADMIN, 'x-engine-role': 'user' });
  t.is(role.status, 400);
  t.deepEqual(role.body, { path: '$', error: 'You have to be admin to access this endpoint', code: 'access-denied' });
  for (const r of [none, wrong, role]) t.false(r.text.includes('engine_http_requests_total'));
});

test('off without the metrics API', async (t) => {
  const off = await startTestEngine({ database: await createTestDatabase('h14_met'), enabledApis: ['graphql', 'metadata'] });
  try {
    const r = await off.get('/v1/metrics');
    t.is(r.status, 404);
    t.deepEqual(r.body, { path: '$', error: 'resource does not exist', code: 'not-found' });
  } finally {
    await off.close();
    await off.db.drop();
  }
});

test.serial('readiness: /healthz?strict=true fails while the listener cannot reconnect, recovers after', async (t) => {
  const strict = () => request(`${e.url}/healthz?strict=true`, 'GET');
  t.is((await strict()).text, 'OK');
  const admin = new pg.Client({ connectionString: baseDatabaseUrl() });
  await admin.connect();
  const until = async (ok: () => Promise<boolean>, ms: number) => {
    for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (await ok()) return true;
    return false;
  };
  try {
    // New connections to the database are refused; the pool keeps the ones it has.
    await admin.query(`ALTER DATABASE "${e.db.name}" ALLOW_CONNECTIONS false`);
    const pid = e.engine.runtime.sync!.listenerPid!;
    t.truthy(pid);
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    t.true(await until(async () => (await strict()).status === 500, 30_000), 'strict readiness fails');
    t.regex((await strict()).text, /^ERROR: metadata listener disconnected for \d+ ms \(poll interval 300 ms\)$/);
    const plain = await request(`${e.url}/healthz`, 'GET');
    t.is(plain.status, 200, 'liveness stays up');
    t.is((await scrape()).get('engine_metadata_listener_connected'), 0);
  } finally {
    await admin.query(`ALTER DATABASE "${e.db.name}" ALLOW_CONNECTIONS true`);
    await admin.end();
  }
  t.true(await until(async () => (await strict()).text === 'OK', 30_000), 'strict readiness recovers');
  t.is((await scrape()).get('engine_metadata_listener_connected'), 1);
});
