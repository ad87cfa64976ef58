// Cron triggers and one-off events in engine_catalog on real Postgres: the original's catalog rows and columns,
// the 100 generated occurrences (times computed here by arithmetic), replace regenerating the unstarted ones,
// delete cascading, the stats view and the generator's top-up, errors as the API answers them, the v1 select and
// run_sql reading the tables, export / replace / clear, and the history export and replay into an empty database.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { queryOk, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { topUpCronEvents } from '../../src/scheduled/catalog.js';

let e: TestEngine;
let db: pg.Client;
const extraDbs: TestDatabase[] = [];
// Nothing is delivered here: every event is in the future (the webhooks point at a closed port anyway).
const HOOK = 'http://127.0.0.1:9/never';
const HOUR = 3_600_000;

test.before(async () => {
  e = await startTestEngine({ database: await createTestDatabase('sched31') });
  db = new pg.Client({ connectionString: e.db.url });
  await db.connect();
});
test.after.always(async () => {
  await db?.end();
  await e?.close();
  await e?.db.drop();
  await Promise.all(extraDbs.map((d) => d.drop()));
});

const ok = (body: unknown) => queryOk(e, body);
const hourly = (name: string, extra: Record<string, unknown> = {}) => ({
  type: 'create_cron_trigger',
  args: { name, webhook: HOOK, schedule: '0 * * * *', include_in_metadata: true, ...extra },
});

async function eventTimes(trigger: string, where = "status = 'scheduled'"): Promise<number[]> {
  const r = await db.query<{ t: Date }>(`SELECT scheduled_time AS t FROM engine_catalog.hdb_cron_events WHERE trigger_name = $1 AND ${where} ORDER BY 1`, [trigger]);
  return r.rows.map((x) => x.t.getTime());
}

/** The next `n` whole hours strictly after `from`. */
const nextHours = (from: number, n: number) => Array.from({ length: n }, (_, i) => (Math.floor(from / HOUR) + 1 + i) * HOUR);

test.serial('create_cron_trigger: the catalog row in the original\'s columns and the next 100 occurrences', async (t) => {
  const before = Date.now();
  t.deepEqual(await ok(hourly('hourly', {
    payload: { k: 'v' }, comment: 'each hour', headers: [{ name: 'X-A', value: 'a' }], retry_conf: { num_retries: 3, retry_interval_seconds: 5 },
  })), { message: 'success' });
  const after = Date.now();
  const row = (await db.query('SELECT * FROM engine_catalog.hdb_cron_triggers')).rows;
  t.deepEqual(row, [{
    name: 'hourly', webhook_conf: HOOK, cron_schedule: '0 * * * *', payload: { k: 'v' },
    retry_conf: { num_retries: 3, retry_interval_seconds: 5, timeout_seconds: 60, tolerance_seconds: 21600 },
    header_conf: [{ name: 'X-A', value: 'a' }], include_in_metadata: true, comment: 'each hour',
  }]);
  const times = await eventTimes('hourly');
  t.is(times.length, 100);
  // Generated from the server's now, between our two clock readings (the same hours unless an hour began between).
  t.true([nextHours(before, 100), nextHours(after, 100)].some((want) => JSON.stringify(want) === JSON.stringify(times)));
  const ev = (await db.query("SELECT status, tries, next_retry_at, locked_by FROM engine_catalog.hdb_cron_events WHERE trigger_name = 'hourly' LIMIT 1")).rows[0];
  t.deepEqual(ev, { status: 'scheduled', tries: 0, next_retry_at: null, locked_by: null });
  const stats = (await db.query("SELECT upcoming_events_count::int AS n, max_scheduled_time AS m FROM engine_catalog.hdb_cron_events_stats WHERE name = 'hourly'")).rows[0];
  t.deepEqual({ n: stats.n, m: stats.m.getTime() }, { n: 100, m: times[99] });
});

test.serial('errors as the API answers them: duplicate name, bad schedule, unset environment variables, unknown trigger', async (t) => {
  const dup = await e.query(hourly('hourly'));
  t.is(dup.status, 400);
  t.deepEqual(dup.body, { path: '$.args', error: 'cron trigger with name: hourly already exists', code: 'already-exists' });
  const bad = await e.query(hourly('bad', { schedule: '0 * * *' }));
  t.is(bad.status, 400);
  t.is(bad.body.code, 'parse-failed');
  // As the original, a parse error's path is within the args.
  t.is(bad.body.path, '$.schedule');
  t.regex(bad.body.error, /^invalid cron expression "0 \* \* \*"/);
  const header = await e.query(hourly('env', { headers: [{ name: 'X-Secret', value_from_env: 'SCHED31_NOT_SET' }] }));
  t.is(header.status, 400);
  t.is(header.body.code, 'constraint-violation');
  t.is(header.body.error, "in cron trigger env: environment variable 'SCHED31_NOT_SET' not set");
  t.is(header.body.internal[0].type, 'cron_trigger');
  t.is(header.body.internal[0].definition.name, 'env');
  const url = await e.query(hourly('env', { webhook: '{{SCHED31_NOT_SET}}/hook' }));
  t.is(url.body.error, 'in cron trigger env: Value for environment variables not found: SCHED31_NOT_SET');
  t.is((await db.query("SELECT count(*)::int AS n FROM engine_catalog.hdb_cron_triggers WHERE name = 'env'")).rows[0].n, 0, 'nothing stored');
  const del = await e.query({ type: 'delete_cron_trigger', args: { name: 'nope' } });
  t.deepEqual([del.status, del.body], [400, { path: '$.args', error: 'cron trigger with name: nope does not exist', code: 'not-exists' }]);
  const rep = await e.query(hourly('nope', { replace: true }));
  t.deepEqual([rep.status, rep.body.code], [400, 'not-exists']);
  const neg = await e.query(hourly('neg', { retry_conf: { num_retries: -1 } }));
  t.deepEqual(neg.body, { path: '$.retry_conf', error: 'num_retries cannot be a negative value', code: 'parse-failed' });
});

test.serial('replace: the unstarted future events are generated again for the new schedule; started ones stay', async (t) => {
  await ok(hourly('rep'));
  // One event delivered already (as a worker would have stored it): replace must not touch it.
  const first = (await db.query("SELECT id FROM engine_catalog.hdb_cron_events WHERE trigger_name = 'rep' ORDER BY scheduled_time LIMIT 1")).rows[0].id;
  await db.query("UPDATE engine_catalog.hdb_cron_events SET status = 'delivered', tries = 1 WHERE id = $1", [first]);
  const before = Date.now();
  await ok(hourly('rep', { schedule: '30 * * * *', replace: true, headers: [{ name: 'X-New', value: 'n' }] }));
  const after = Date.now();
  const times = await eventTimes('rep');
  t.is(times.length, 100);
  const halfPast = (from: number) => Array.from({ length: 100 }, (_, i) => {
    const base = Math.floor(from / HOUR) * HOUR + HOUR / 2;
    return base + (base > from ? i : i + 1) * HOUR;
  });
  t.true([halfPast(before), halfPast(after)].some((want) => JSON.stringify(want) === JSON.stringify(times)));
  t.deepEqual((await db.query("SELECT id, status FROM engine_catalog.hdb_cron_events WHERE trigger_name = 'rep' AND status <> 'scheduled'")).rows, [{ id: first, status: 'delivered' }]);
  t.deepEqual((await db.query("SELECT cron_schedule, header_conf FROM engine_catalog.hdb_cron_triggers WHERE name = 'rep'")).rows[0],
    { cron_schedule: '30 * * * *', header_conf: [{ name: 'X-New', value: 'n' }] });
});

test.serial('delete_cron_trigger takes its events and invocation logs with it', async (t) => {
  const id = (await db.query("SELECT id FROM engine_catalog.hdb_cron_events WHERE trigger_name = 'rep' AND status = 'delivered'")).rows[0].id;
  await db.query("INSERT INTO engine_catalog.hdb_cron_event_invocation_logs (event_id, status, request, response) VALUES ($1, 200, '{}', '{}')", [id]);
  t.deepEqual(await ok({ type: 'delete_cron_trigger', args: { name: 'rep' } }), { message: 'success' });
  t.deepEqual((await db.query(`SELECT
      (SELECT count(*) FROM engine_catalog.hdb_cron_triggers WHERE name = 'rep')::int AS triggers,
      (SELECT count(*) FROM engine_catalog.hdb_cron_events WHERE trigger_name = 'rep')::int AS events,
      (SELECT count(*) FROM engine_catalog.hdb_cron_event_invocation_logs WHERE event_id = $1)::int AS logs`, [id])).rows[0],
  { triggers: 0, events: 0, logs: 0 });
});

test.serial('the generator tops a trigger up to 100 upcoming events, after its latest one', async (t) => {
  const times = await eventTimes('hourly');
  await db.query("DELETE FROM engine_catalog.hdb_cron_events WHERE trigger_name = 'hourly' AND scheduled_time < $1", [new Date(times[30])]);
  t.is((await eventTimes('hourly')).length, 70);
  const added = await topUpCronEvents(db, e.engine.state().metadata);
  t.is(added, 30);
  const now = await eventTimes('hourly');
  t.deepEqual(now, [...times.slice(30), ...Array.from({ length: 30 }, (_, i) => times[99] + (i + 1) * HOUR)]);
  t.is(await topUpCronEvents(db, e.engine.state().metadata), 0, 'nothing when every trigger has 100');
});

test.serial('the admin reads the tables with the v1 select and run_sql; other roles cannot', async (t) => {
  const rows = await ok({
    type: 'select',
    args: { table: { schema: 'engine_catalog', name: 'hdb_cron_events' }, columns: ['trigger_name', 'status', 'tries'], where: { trigger_name: 'hourly' }, limit: 2 },
  });
  t.deepEqual(rows, [{ trigger_name: 'hourly', status: 'scheduled', tries: 0 }, { trigger_name: 'hourly', status: 'scheduled', tries: 0 }]);
  const triggers = await ok({ type: 'select', args: { table: { schema: 'engine_catalog', name: 'hdb_cron_triggers' }, columns: ['name', 'retry_conf'] } });
  t.deepEqual(triggers, [{ name: 'hourly', retry_conf: { num_retries: 3, retry_interval_seconds: 5, timeout_seconds: 60, tolerance_seconds: 21600 } }]);
  const count = await ok({ type: 'count', args: { table: { schema: 'engine_catalog', name: 'hdb_scheduled_events' } } });
  t.deepEqual(count, { count: 0 });
  const sql = await ok({ type: 'run_sql', args: { sql: "SELECT upcoming_events_count FROM engine_catalog.hdb_cron_events_stats WHERE name = 'hourly'" } });
  t.deepEqual(sql.result, [['upcoming_events_count'], ['100']]);
  const user = await e.query(
    { type: 'select', args: { table: { schema: 'engine_catalog', name: 'hdb_cron_events' }, columns: ['id'] } },
    { 'x-engine-role': 'user' },
  );
  t.not(user.status, 200);
});

test.serial('create_scheduled_event stores the original\'s row; a failed bulk stores nothing', async (t) => {
  const r = await ok({
    type: 'create_scheduled_event',
    args: { webhook: HOOK, schedule_at: '2100-01-01T00:00:00.5+01:00', payload: { a: [1] }, headers: [{ name: 'X-E', value_from_env: 'E' }], comment: 'later', retry_conf: { num_retries: 1 } },
  });
  t.is(r.message, 'success');
  const row = (await db.query('SELECT * FROM engine_catalog.hdb_scheduled_events')).rows[0];
  t.is(row.id, r.event_id);
  t.deepEqual({ ...row, id: undefined, created_at: undefined }, {
    id: undefined, created_at: undefined, webhook_conf: HOOK, scheduled_time: new Date('2099-12-31T23:00:00.500Z'),
    retry_conf: { num_retries: 1, retry_interval_seconds: 10, timeout_seconds: 60, tolerance_seconds: 21600 }, payload: { a: [1] },
    header_conf: [{ name: 'X-E', value_from_env: 'E' }], status: 'scheduled', tries: 0, next_retry_at: null, comment: 'later', locked_at: null, locked_by: null,
  });
  const bulk = await e.query({ type: 'bulk', args: [
    { type: 'create_scheduled_event', args: { webhook: HOOK, schedule_at: '2100-01-01T00:00:00Z' } },
    { type: 'run_sql', args: { sql: 'SELECT 1/0' } },
  ] });
  t.is(bulk.status, 400);
  t.is((await db.query('SELECT count(*)::int AS n FROM engine_catalog.hdb_scheduled_events')).rows[0].n, 1);
  await db.query('DELETE FROM engine_catalog.hdb_scheduled_events');
});

test.serial('export, clear and replace: included triggers go and come back, the others stay; rows and events follow', async (t) => {
  await ok(hourly('hidden', { include_in_metadata: false }));
  const doc = await ok({ type: 'export_metadata', args: {} });
  t.deepEqual(doc.cron_triggers, [{
    name: 'hourly', webhook: HOOK, schedule: '0 * * * *', include_in_metadata: true, payload: { k: 'v' },
    retry_conf: { num_retries: 3, retry_interval_seconds: 5, timeout_seconds: 60, tolerance_seconds: 21600 },
    headers: [{ name: 'X-A', value: 'a' }], comment: 'each hour',
  }]);
  const hourlyIds = (await db.query("SELECT id FROM engine_catalog.hdb_cron_events WHERE trigger_name = 'hourly' ORDER BY 1")).rows;
  await ok({ type: 'clear_metadata', args: {} });
  const names = async () => (await db.query('SELECT name FROM engine_catalog.hdb_cron_triggers ORDER BY 1')).rows.map((x) => x.name);
  t.deepEqual(await names(), ['hidden']);
  t.is((await eventTimes('hourly', 'true')).length, 0);
  t.is((await eventTimes('hidden')).length, 100);
  t.deepEqual((await ok({ type: 'export_metadata', args: {} })), { version: 2, tables: [] });
  await ok({ type: 'replace_metadata', args: doc });
  t.deepEqual(await names(), ['hidden', 'hourly']);
  t.is((await eventTimes('hourly')).length, 100);
  t.notDeepEqual((await db.query("SELECT id FROM engine_catalog.hdb_cron_events WHERE trigger_name = 'hourly' ORDER BY 1")).rows, hourlyIds, 'new events');
  t.deepEqual((await ok({ type: 'export_metadata', args: {} })).cron_triggers, doc.cron_triggers);
  // Replacing with the same document changes nothing: the same events stay.
  const ids = (await db.query('SELECT id FROM engine_catalog.hdb_cron_events ORDER BY 1')).rows;
  await ok({ type: 'replace_metadata', args: doc });
  t.deepEqual((await db.query('SELECT id FROM engine_catalog.hdb_cron_events ORDER BY 1')).rows, ids);
  // A replacement whose trigger names an unset variable is refused whole.
  const bad = await e.query({ type: 'replace_metadata', args: { ...doc, cron_triggers: [{ ...(doc.cron_triggers[0] as object), headers: [{ name: 'X', value_from_env: 'SCHED31_NOT_SET' }] }] } });
  t.is(bad.status, 400);
  t.is(bad.body.error, 'cannot continue due to inconsistent metadata');
  t.deepEqual(await names(), ['hidden', 'hourly']);
});

test.serial('history: the export at a version holds the trigger; a replay into an empty database recreates rows and events', async (t) => {
  const list = await ok({ type: 'engine_history_list', args: { limit: 100 } });
  const created = (list.entries as Array<{ seq: number; summary: string }>).find((x) => x.summary === 'created cron trigger hourly');
  t.truthy(created, JSON.stringify(list).slice(0, 400));
  const at = await ok({ type: 'engine_history_export', args: { version: created!.seq } });
  t.deepEqual((at.cron_triggers as Array<{ name: string }>).map((c) => c.name), ['hourly']);

  const target = await createTestDatabase('sched31');
  extraDbs.push(target);
  const dir = mkdtempSync(path.join(tmpdir(), 'sched31-history-'));
  try {
    const bin = new URL('../../bin/engine.mjs', import.meta.url).pathname;
    const run = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH ?? '' } });
    const ex = run(['history', 'export', '--database-url', e.db.url]);
    t.is(ex.status, 0, ex.stderr);
    const file = path.join(dir, 'log.jsonl');
    writeFileSync(file, ex.stdout);
    const rp = run(['history', 'replay', file, '--database-url', target.url]);
    t.is(rp.status, 0, rp.stderr);
    const c = new pg.Client({ connectionString: target.url });
    await c.connect();
    try {
      const rows = await c.query(`SELECT t.name, t.cron_schedule, count(e.id)::int AS events FROM engine_catalog.hdb_cron_triggers t
        LEFT JOIN engine_catalog.hdb_cron_events e ON e.trigger_name = t.name GROUP BY 1, 2 ORDER BY 1`);
      t.deepEqual(rows.rows, [{ name: 'hidden', cron_schedule: '0 * * * *', events: 100 }, { name: 'hourly', cron_schedule: '0 * * * *', events: 100 }]);
    } finally {
      await c.end();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
