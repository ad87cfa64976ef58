// The scheduled-delivery worker's SQL on engine_catalog.hdb_cron_events / hdb_scheduled_events and their invocation
// logs: claim due events, the time the next one is due, store outcomes (one statement per batch), keep claims
// fresh, give them back, and take over the claims of instances that are gone or whose lease ran out.
// Note [Scheduled event lease] (worker.ts) explains the claim rule.
import type pg from 'pg';
import { utcText, type ClaimedRow, type ScheduledKind } from './payload.js';

/** application_name of each worker's LISTEN connection: its liveness beacon. */
export const SCHEDULED_BEACON_PREFIX = 'engine-scheduled-';
/** NOTIFY channel: an event was created or generated (a worker may have to wake sooner). */
export const SCHEDULED_CHANNEL = 'engine_scheduled';

const TABLE: Record<ScheduledKind, string> = { cron: 'engine_catalog.hdb_cron_events', one_off: 'engine_catalog.hdb_scheduled_events' };
const LOG_TABLE: Record<ScheduledKind, string> = {
  cron: 'engine_catalog.hdb_cron_event_invocation_logs',
  one_off: 'engine_catalog.hdb_scheduled_event_invocation_logs',
};
const due = 'coalesce(e.next_retry_at, e.scheduled_time)';
const utc = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`;

// What a claim returns of each kind (the one-off columns are null for cron events).
const RETURNING: Record<ScheduledKind, string> = {
  one_off: `'one_off' AS kind, e.id, NULL::text AS trigger_name, e.webhook_conf, e.header_conf, e.retry_conf, e.payload, e.comment,
            ${utc('e.created_at')} AS created_at`,
  cron: `'cron' AS kind, e.id, e.trigger_name, NULL::json AS webhook_conf, NULL::json AS header_conf, NULL::json AS retry_conf,
         NULL::json AS payload, NULL::text AS comment, NULL::text AS created_at`,
};

interface RawRow extends Omit<ClaimedRow, 'due_ms' | 'age_s'> {
  due_ms: string;
  age_s: string;
}

/**
 * Claims up to `limit` due events of one kind, the earliest due first, skipping rows another claim is taking:
 * status 'locked', the claim's time and this worker. Cron events only of the triggers this instance knows.
 * The earliest `limit` scheduled events are taken in the due index's order and those not due yet left out after
 * the LIMIT (due events come first in that order): with the time condition inside, a table whose statistics do not
 * know its rows yet (10,000 events written at once) is planned as a scan and sort of every due event, per claim.
 * The status is checked again on the row updated: a row another claim took meanwhile is never claimed twice.
 */
export async function claimDue(pool: pg.Pool, kind: ScheduledKind, worker: string, limit: number, triggers: string[]): Promise<ClaimedRow[]> {
  const r = await pool.query<RawRow>(
    `UPDATE ${TABLE[kind]} e SET status = 'locked', locked_at = clock_timestamp(), locked_by = $1
     FROM (SELECT e.id, ${due} AS due_at FROM ${TABLE[kind]} e
           WHERE e.status = 'scheduled' ${kind === 'cron' ? 'AND e.trigger_name = ANY($3::text[])' : ''}
           ORDER BY ${due} LIMIT $2 FOR UPDATE SKIP LOCKED) c
     WHERE e.id = c.id AND c.due_at <= now() AND e.status = 'scheduled'
     RETURNING ${RETURNING[kind]}, ${utc('e.scheduled_time')} AS scheduled_time, e.tries,
       extract(epoch FROM c.due_at) * 1000 AS due_ms, extract(epoch FROM now() - e.scheduled_time) AS age_s`,
    kind === 'cron' ? [worker, limit, triggers] : [worker, limit],
  );
  return r.rows.map((x) => ({
    ...x,
    scheduled_time: utcText(x.scheduled_time),
    created_at: x.created_at === null ? null : utcText(x.created_at),
    due_ms: Number(x.due_ms),
    age_s: Number(x.age_s),
  }));
}

/** Milliseconds (on the database's clock) until the next event this instance may claim is due; null: none. */
export async function nextDueInMs(db: pg.ClientBase, triggers: string[]): Promise<number | null> {
  const r = await db.query<{ ms: string | null }>(
    `SELECT extract(epoch FROM least(
       (SELECT min(${due}) FROM ${TABLE.one_off} e WHERE e.status = 'scheduled'),
       (SELECT min(${due}) FROM ${TABLE.cron} e WHERE e.status = 'scheduled' AND e.trigger_name = ANY($1::text[]))
     ) - clock_timestamp()) * 1000 AS ms`,
    [triggers],
  );
  const ms = r.rows[0]?.ms;
  return ms === null || ms === undefined ? null : Number(ms);
}

/** One attempt's outcome (or a dead event's), as stored. */
export interface StoredOutcome {
  kind: ScheduledKind;
  id: string;
  status: 'delivered' | 'error' | 'scheduled' | 'dead';
  /** Seconds until the retry (status 'scheduled'). */
  retry_in: number | null;
  /** The invocation log row; null for a dead event (no call was made). */
  log: { status: number; request: unknown; response: unknown } | null;
}

/**
 * Stores outcomes: an invocation log row per attempt (of events that still exist), tries + 1 for attempts, the new
 * status and next_retry_at, the claim released. Only events this worker still holds are updated.
 */
export async function storeOutcomes(pool: pg.Pool, worker: string, outcomes: StoredOutcome[]): Promise<void> {
  for (const kind of ['one_off', 'cron'] as const) {
    const rows = outcomes.filter((o) => o.kind === kind).map((o) => ({
      id: o.id, status: o.status, retry_in: o.retry_in, logged: o.log !== null,
      log_status: o.log?.status ?? null, request: o.log?.request ?? null, response: o.log?.response ?? null,
    }));
    if (rows.length === 0) continue;
    await pool.query(
      `WITH r AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb)
           AS r(id text, status text, retry_in double precision, logged boolean, log_status int, request json, response json)),
       logs AS (
         INSERT INTO ${LOG_TABLE[kind]} (event_id, status, request, response)
         SELECT r.id, r.log_status, r.request, r.response FROM r JOIN ${TABLE[kind]} e ON e.id = r.id AND e.id = ANY($3::text[]) WHERE r.logged)
       UPDATE ${TABLE[kind]} e
       SET status = r.status, tries = e.tries + CASE WHEN r.logged THEN 1 ELSE 0 END,
           next_retry_at = CASE WHEN r.retry_in IS NULL THEN e.next_retry_at ELSE now() + make_interval(secs => r.retry_in) END,
           locked_at = NULL, locked_by = NULL
       FROM r WHERE e.id = r.id AND e.id = ANY($3::text[]) AND e.locked_by = $2`,
      // The ids again as an array: an index condition (the planner knows nothing of the recordset's rows).
      [JSON.stringify(rows), worker, rows.map((r) => r.id)],
    );
  }
}

/** Keeps this worker's claims fresh while it delivers them. */
export async function heartbeat(pool: pg.Pool, worker: string, ids: Record<ScheduledKind, string[]>): Promise<void> {
  for (const kind of ['one_off', 'cron'] as const) {
    if (ids[kind].length === 0) continue;
    await pool.query(`UPDATE ${TABLE[kind]} SET locked_at = clock_timestamp() WHERE id = ANY($1::text[]) AND locked_by = $2 AND status = 'locked'`, [ids[kind], worker]);
  }
}

/** Gives claims back without counting an attempt (shutdown, or a trigger this instance no longer knows). */
export async function releaseClaims(pool: pg.Pool, worker: string, kind: ScheduledKind, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await pool.query(
    `UPDATE ${TABLE[kind]} SET status = 'scheduled', locked_at = NULL, locked_by = NULL WHERE id = ANY($1::text[]) AND locked_by = $2 AND status = 'locked'`,
    [ids, worker],
  );
}

/**
 * Makes claims claimable again whose lease ran out or whose worker has no connection any more (a killed instance):
 * only those, never all claims (another instance may be delivering them). Returns how many.
 */
export async function recoverClaims(db: pg.ClientBase, leaseMs: number): Promise<number> {
  const stale = `e.status = 'locked'
    AND (e.locked_at IS NULL OR e.locked_at < clock_timestamp() - make_interval(secs => $1::double precision / 1000)
         OR e.locked_by IS NULL OR e.locked_by NOT IN (SELECT worker FROM live))`;
  const release = `SET status = 'scheduled', locked_at = NULL, locked_by = NULL`;
  const r = await db.query<{ n: number }>(
    `WITH live AS MATERIALIZED (
       SELECT substr(application_name, ${SCHEDULED_BEACON_PREFIX.length + 1}) AS worker FROM pg_stat_activity
       WHERE application_name LIKE '${SCHEDULED_BEACON_PREFIX}%'),
     one_off AS (UPDATE ${TABLE.one_off} e ${release} WHERE ${stale} RETURNING 1),
     cron AS (UPDATE ${TABLE.cron} e ${release} WHERE ${stale} RETURNING 1)
     SELECT ((SELECT count(*) FROM one_off) + (SELECT count(*) FROM cron))::int AS n`,
    [leaseMs],
  );
  return r.rows[0].n;
}
