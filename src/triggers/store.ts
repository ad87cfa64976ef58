// The delivery worker's SQL on engine_catalog.event_log_rows / event_invocation_logs: claim, store outcomes (one
// statement per batch), refresh and release claims. Note [Event lease] (worker.ts) explains the claim rule.
import type pg from 'pg';
import type { ClaimedEvent } from './payload.js';

/** application_name of each worker's long-lived connection: its liveness beacon. */
export const BEACON_PREFIX = 'engine-events-';

export interface ClaimOptions {
  worker: string;
  limit: number;
  triggers: string[];
  leaseMs: number;
}

/** Batches expanded into event rows per claim (Note [Event batches]). */
const EXPAND_BATCHES = 50;

/**
 * Expands captured batches into event rows, then claims up to `limit` due events of the known triggers, oldest
 * first, skipping rows another claim is taking.
 */
export async function claimEvents(pool: pg.Pool, o: ClaimOptions): Promise<ClaimedEvent[]> {
  await pool.query('SELECT engine_catalog.expand_event_batches($1)', [EXPAND_BATCHES]);
  const r = await pool.query<ClaimedEvent>(
    `WITH live AS MATERIALIZED (
       SELECT substr(application_name, ${BEACON_PREFIX.length + 1}) AS worker FROM pg_stat_activity
       WHERE application_name LIKE '${BEACON_PREFIX}%')
     UPDATE engine_catalog.event_log_rows l SET locked = now(), locked_by = $1
     WHERE l.id IN (
       SELECT e.id FROM engine_catalog.event_log_rows e
       WHERE NOT e.delivered AND NOT e.error AND NOT e.archived
         AND (e.next_retry_at IS NULL OR e.next_retry_at <= now())
         AND e.trigger_name = ANY($3::text[])
         AND (e.locked IS NULL
              OR e.locked < now() - make_interval(secs => $4::double precision / 1000)
              OR e.locked_by IS NULL
              OR e.locked_by NOT IN (SELECT worker FROM live))
       ORDER BY e.created_at
       LIMIT $2
       FOR UPDATE SKIP LOCKED)
     RETURNING l.id, l.schema_name, l.table_name, l.trigger_name, l.payload, l.tries, l.created_at`,
    [o.worker, o.limit, o.triggers, o.leaseMs],
  );
  return r.rows;
}

/** One attempt's outcome, as stored. */
export interface AttemptResult {
  id: string;
  status: number;
  request: unknown;
  response: unknown;
  delivered: boolean;
  error: boolean;
  /** Seconds until the next attempt; null when there is none. */
  retry_in: number | null;
}

/** One invocation log row per attempt; tries + 1; delivered / error / next_retry_at; the claim released. */
export async function storeResults(pool: pg.Pool, results: AttemptResult[]): Promise<void> {
  if (results.length === 0) return;
  await pool.query(
    `WITH r AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb)
         AS r(id uuid, status int, request json, response json, delivered boolean, error boolean, retry_in double precision)),
     logs AS (
       INSERT INTO engine_catalog.event_invocation_logs (event_id, status, request, response)
       SELECT id, status, request, response FROM r)
     UPDATE engine_catalog.event_log_rows l
     SET tries = l.tries + 1, delivered = r.delivered, error = r.error,
         next_retry_at = CASE WHEN r.retry_in IS NULL THEN NULL ELSE now() + make_interval(secs => r.retry_in) END,
         locked = NULL, locked_by = NULL
     FROM r WHERE l.id = r.id`,
    [JSON.stringify(results)],
  );
}

/** Keeps this worker's claims fresh while it delivers them. */
export async function heartbeat(pool: pg.Pool, worker: string, ids: string[]): Promise<void> {
  await pool.query(`UPDATE engine_catalog.event_log_rows SET locked = now() WHERE id = ANY($1::uuid[]) AND locked_by = $2`, [ids, worker]);
}

/** Gives claims back without counting an attempt (shutdown). */
export async function releaseEvents(pool: pg.Pool, worker: string, ids: string[]): Promise<void> {
  await pool.query(`UPDATE engine_catalog.event_log_rows SET locked = NULL, locked_by = NULL WHERE id = ANY($1::uuid[]) AND locked_by = $2`, [ids, worker]);
}
