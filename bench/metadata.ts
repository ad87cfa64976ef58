// `npm run bench:metadata [-- --tables 1000] [--roles 10] [--db NAME] [--port P] [--cpu-prof] [--engine-root DIR]` (issue 33 item 1):
// what big metadata costs. A fresh database of `tables` tables (10 columns, a foreign key to the previous table) and
// an engine on it; then, timed: (1) one `bulk` tracking every table with both relationships of every foreign key and
// select/insert/update/delete permissions for `roles` roles on every table; (2) `replace_metadata` of the whole
// export; (3) one `create_select_permission` (after dropping it), and the next GraphQL request of a role it does not
// touch and of the role it changes; (4) a second engine on the same database catching up with that change; (5) the
// start-up time to ready from the engine's log ("engine ready ... time_taken") with the log's snapshot and without
// any; (6) the engines' RSS. Targets (issue 33): bulk and replace <= 10 s, a change <= 100 ms, the next request of
// any role <= 100 ms after it, start-up <= 2 s, RSS <= 500 MB. One JSON line per figure; results in
// bench/results/metadata-*.json. `--cpu-prof` writes the first engine's V8 profile into bench/results/.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { withDatabase } from './config.js';
import { peakRss, runBenchMain, spawnEngine, treeRss, type SpawnedProcess } from './engine.js';
import { log } from './log.js';

const { values: args } = parseArgs({
  options: {
    tables: { type: 'string', default: '1000' },
    roles: { type: 'string', default: '10' },
    db: { type: 'string', default: 'engine_bench_metadata' },
    port: { type: 'string', default: '0' },
    'cpu-prof': { type: 'boolean', default: false },
    'results-dir': { type: 'string', default: 'bench/results' },
    /** A checkout to run the engines from (e.g. `git archive main` unpacked), to compare with this one. */
    'engine-root': { type: 'string' },
  },
});

const N = Number(args.tables);
const ROLES = Array.from({ length: Number(args.roles) }, (_, i) => `role${i}`);
const name = (i: number) => `t${String(i).padStart(4, '0')}`;
const T = (i: number) => ({ schema: 'public', name: name(i) });

/** N tables: id, the previous table's id (a foreign key), and 8 data columns. */
function ddl(): string {
  const out: string[] = [];
  for (let i = 0; i < N; i++) {
    const prev = i > 0 ? `prev_id integer REFERENCES ${name(i - 1)}(id)` : 'prev_id integer';
    out.push(`CREATE TABLE ${name(i)} (id serial PRIMARY KEY, ${prev}, owner_id integer, title text, body text, score numeric, flag boolean, created_at timestamptz DEFAULT now(), tags text, amount integer);`);
  }
  return out.join('\n');
}

/** The whole metadata as one bulk: tables, both relationships of each foreign key, 4 permissions per role and table. */
function metadataBulk(): unknown[] {
  const ops: unknown[] = [];
  for (let i = 0; i < N; i++) ops.push({ type: 'track_table', args: T(i) });
  for (let i = 1; i < N; i++) {
    ops.push({ type: 'create_object_relationship', args: { table: T(i), name: 'prev', using: { foreign_key_constraint_on: 'prev_id' } } });
    ops.push({ type: 'create_array_relationship', args: { table: T(i - 1), name: 'nexts', using: { foreign_key_constraint_on: { table: T(i), column: 'prev_id' } } } });
  }
  const own = { owner_id: { _eq: 'X-Engine-User-Id' } };
  for (let i = 0; i < N; i++) {
    for (const role of ROLES) {
      ops.push({ type: 'create_select_permission', args: { table: T(i), role, permission: { columns: '*', filter: own, allow_aggregations: true } } });
      ops.push({ type: 'create_insert_permission', args: { table: T(i), role, permission: { columns: ['title', 'body', 'score'], check: own, set: { owner_id: 'X-Engine-User-Id' } } } });
      ops.push({ type: 'create_update_permission', args: { table: T(i), role, permission: { columns: ['title', 'body'], filter: own } } });
      ops.push({ type: 'create_delete_permission', args: { table: T(i), role, permission: { filter: own } } });
    }
  }
  return ops;
}

async function query(url: string, body: unknown): Promise<{ ms: number; seq: number; json: unknown }> {
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`/v1/query ${(body as { type: string }).type}: ${res.status} ${text.slice(0, 500)}`);
  return { ms, seq: Number(res.headers.get('x-engine-metadata-version')), json: JSON.parse(text) as unknown };
}

async function graphql(url: string, role: string, q: string): Promise<{ ms: number; seq: number }> {
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-engine-role': role, 'x-engine-user-id': '1' },
    body: JSON.stringify({ query: q }),
  });
  const text = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 200 || text.includes('"errors"')) throw new Error(`graphql as ${role}: ${res.status} ${text.slice(0, 500)}`);
  return { ms, seq: Number(res.headers.get('x-engine-metadata-version')) };
}

/** The "engine ready" line's time_taken (s) in an engine's log (written asynchronously: waited for up to 10 s). */
async function readyTime(logFile: string): Promise<number | null> {
  for (let i = 0; i < 100; i++) {
    for (const line of readFileSync(logFile, 'utf8').split('\n')) {
      if (!line.includes('engine ready on')) continue;
      const m = /"time_taken":([0-9.]+)/.exec(line);
      if (m) return Number(m[1]);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}

const mb = (b: number | null) => (b === null ? null : Math.round(b / 1048576));

await runBenchMain('metadata', async (started) => {
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  mkdirSync(args['results-dir'], { recursive: true });
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${args.db.replace(/"/g, '""')}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${args.db.replace(/"/g, '""')}"`);
  await admin.end();
  const databaseUrl = withDatabase(serverUrl, args.db);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const t0 = performance.now();
  await db.query(ddl());
  log('metadata.dataset', { tables: N, roles: ROLES.length, ms: Math.round(performance.now() - t0) });

  const results: Record<string, unknown> = { tables: N, roles: ROLES.length, permissions: N * ROLES.length * 4 };
  const port = Number(args.port);
  const engine = (tag: string, p: number, nodeArgs: string[] = []): Promise<SpawnedProcess> =>
    spawnEngine({
      databaseUrl, port: p, logFile: join(args['results-dir'], `metadata-${stamp}-${tag}.log`), nodeArgs, startTimeoutMs: 600_000, root: args['engine-root'] ?? null,
    });
  const prof = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${args['results-dir']}`] : [];
  const a = await engine('a', port, prof);
  started.push(a);

  const bulk = metadataBulk();
  const b = await query(a.url, { type: 'bulk', args: bulk });
  results.bulk = { elements: bulk.length, ms: Math.round(b.ms), seq: b.seq };
  log('metadata.bulk', results.bulk as Record<string, unknown>);

  const exported = (await query(a.url, { type: 'export_metadata', args: {} })).json;
  const r = await query(a.url, { type: 'replace_metadata', args: exported });
  results.replace = { ms: Math.round(r.ms), seq: r.seq };
  log('metadata.replace', results.replace as Record<string, unknown>);

  // A second engine on the same database (start-up with the log's snapshot).
  const second = await engine('b', port ? port + 1 : 0);
  started.push(second);
  results.startupWithSnapshot = { readySeconds: await readyTime(second.logFile) };

  // Warm both roles' schemas, then one change.
  const mid = name(Math.floor(N / 2));
  const q = `{ ${name(1)}(limit: 1) { id title prev { id } } }`;
  for (const role of [ROLES[0], ROLES[1]]) {
    await graphql(a.url, role, q);
    await graphql(second.url, role, q);
  }
  const drop = await query(a.url, { type: 'drop_select_permission', args: { table: { schema: 'public', name: mid }, role: ROLES[1] } });
  await graphql(a.url, ROLES[0], q);
  await graphql(a.url, ROLES[1], q);
  const change = await query(a.url, {
    type: 'create_select_permission',
    args: { table: { schema: 'public', name: mid }, role: ROLES[1], permission: { columns: ['id', 'title'], filter: { owner_id: { _eq: 'X-Engine-User-Id' } } } },
  });
  const untouched = await graphql(a.url, ROLES[0], q);
  const changed = await graphql(a.url, ROLES[1], `{ ${mid}(limit: 1) { id title } }`);
  // The second engine: time from the change's answer until it serves the new seq.
  const tc = performance.now();
  let caught = 0;
  for (;;) {
    const g = await graphql(second.url, ROLES[1], q);
    if (g.seq >= change.seq) {
      caught = performance.now() - tc;
      break;
    }
    if (performance.now() - tc > 60_000) throw new Error('second engine did not catch up in 60 s');
  }
  results.change = {
    dropMs: Math.round(drop.ms), createMs: Math.round(change.ms), nextUntouchedRoleMs: Math.round(untouched.ms), nextChangedRoleMs: Math.round(changed.ms),
    secondInstanceCatchUpMs: Math.round(caught), seq: change.seq,
  };
  log('metadata.change', results.change as Record<string, unknown>);

  results.rss = { engineMB: mb(treeRss(a.child.pid!)), enginePeakMB: mb(peakRss(a.child.pid!)), secondMB: mb(treeRss(second.child.pid!)), secondPeakMB: mb(peakRss(second.child.pid!)) };
  log('metadata.rss', results.rss as Record<string, unknown>);

  // Start-up without a snapshot: the whole log folded from zero.
  await second.stop();
  started.splice(started.indexOf(second), 1);
  const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM engine_catalog.metadata_log');
  await db.query('DELETE FROM engine_catalog.metadata_snapshot');
  const third = await engine('c', port ? port + 2 : 0);
  started.push(third);
  results.startupWithoutSnapshot = { readySeconds: await readyTime(third.logFile), events: Number(rows[0].n) };
  results.startupRss = { peakMB: mb(peakRss(third.child.pid!)) };
  log('metadata.startup', { withSnapshot: results.startupWithSnapshot, withoutSnapshot: results.startupWithoutSnapshot });
  await db.end();

  const file = join(args['results-dir'], `metadata-${stamp}.json`);
  writeFileSync(file, JSON.stringify(results, null, 2));
  log('metadata.done', { file });
  return 0;
});
