// What the read-replica suites share: an engine on a cluster's database (the primary, and its replicas as read
// replicas), its routing counters from GET /v1/metrics, and the table-access counters of a server
// (pg_stat_user_tables), read once the sessions that made them have ended (a backend flushes its statistics when
// it exits; before that they may wait up to 10 s).
import pg from 'pg';
import { queryOk, startTestEngine, type TestEngine, type TestEngineOptions } from '../helpers/engine.js';
import type { TestDatabase } from '../helpers/db.js';
import type { Cluster, PgServer } from '../helpers/pg-cluster.js';
import { routedReads } from '../../bench/replica-metrics.js';

/** The cluster's database as a TestDatabase the engine helper takes (dropped with the cluster). */
export const clusterTestDatabase = (url: string, name: string): TestDatabase => ({ url, name, drop: async () => undefined });

/** An engine on `db` of the cluster's primary with every replica of the cluster as a read replica. */
export function replicaEngine(cluster: Cluster, db: string, options: TestEngineOptions = {}): Promise<TestEngine> {
  return startTestEngine({
    readReplicaUrls: cluster.replicas.map((r) => r.url(db)),
    replicaPollInterval: 50,
    ...options,
    database: clusterTestDatabase(cluster.primary.url(db), db),
  });
}

/** One metric's value per label set (the label text, e.g. `source="primary"`). */
export async function metric(e: TestEngine, name: string): Promise<Map<string, number>> {
  const r = await e.get('/v1/metrics');
  const out = new Map<string, number>();
  for (const line of String(r.text).split('\n')) {
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m && m[1] === name) out.set(m[2] ?? '', Number(m[3]));
  }
  return out;
}

/** Reads routed to the primary and to replicas (all replicas together). */
export const routed = (e: TestEngine): Promise<{ primary: number; replicas: number }> => routedReads(e.url);

/** The state of the replica (the first one) as the engine sees it. */
export async function replicaState(e: TestEngine): Promise<string | null> {
  for (const [labels, n] of await metric(e, 'engine_read_replica_state')) if (n === 1) return /state="(\w+)"/.exec(labels)?.[1] ?? null;
  return null;
}

export async function until(check: () => Promise<boolean> | boolean, timeoutMs = 15_000, stepMs = 50): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  return check();
}

async function one<T>(url: string, sql: string, values: unknown[] = []): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  try {
    return (await c.query(sql, values)).rows[0] as T;
  } finally {
    await c.end();
  }
}

/** Scans (sequential + index) of `table` on `server`, and rows updated there, once no engine session is left on it. */
export async function tableCounters(server: PgServer, db: string, table: string): Promise<{ scans: number; updated: number }> {
  // A session's counters reach the view when it ends: wait for every other session of the database to be gone.
  await until(async () => (await one<{ n: number }>(server.url(db), 'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).n === 0);
  const r = await one<{ scans: number; updated: number }>(server.url(db),
    'SELECT (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::int AS scans, n_tup_upd::int AS updated FROM pg_stat_user_tables WHERE relname = $1', [table]);
  return r ?? { scans: 0, updated: 0 };
}

/** run_sql as admin. */
export const runSql = (e: TestEngine, sql: string): Promise<unknown> => queryOk(e, { type: 'run_sql', args: { sql } });
