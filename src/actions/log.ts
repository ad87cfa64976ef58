// engine_catalog.hdb_action_log, the async actions' queue (Note [Async action lease]): enqueue, claim, finish,
// clear. Only SQL here; the worker (worker.ts) decides what to call.
import type pg from 'pg';

/*
 * Note [Async action lease]
 * A worker claims rows with FOR UPDATE SKIP LOCKED (two instances never claim the same row at once), marks them
 * `processing` with its instance id and a lease (`lease_until`: now + the longest async action timeout + a margin),
 * and only a worker still holding the lease may store the result. A row whose worker died mid-call stays
 * `processing` until its lease runs out, then any worker claims it again: an async action is never lost (it may be
 * called a second time after a crash, never twice by healthy workers: a call ends before its lease does).
 */

export interface ClaimedAction {
  id: string;
  action_name: string;
  input: Record<string, unknown>;
  session_variables: Record<string, string>;
  request_headers: Record<string, string>;
}

/**
 * Inserts a `created` row and wakes the workers, in one statement (in a mutation's transaction the notification
 * goes out at COMMIT, when the row is there to claim); returns its id.
 */
export async function enqueueAction(
  db: pg.Pool | pg.PoolClient, action: string, input: unknown, session: Record<string, string>, headers: Record<string, unknown>,
): Promise<string> {
  const r = await db.query<{ id: string }>(
    `WITH ins AS (INSERT INTO engine_catalog.hdb_action_log (action_name, input, session_variables, request_headers)
                  VALUES ($1, $2::jsonb, $3::jsonb, $4::jsonb) RETURNING id)
     SELECT ins.id, pg_notify('engine_actions', '') FROM ins`,
    [action, JSON.stringify(input), JSON.stringify(session), JSON.stringify(headers)],
  );
  return r.rows[0].id;
}

/** Claims up to `limit` rows that are new or whose lease ran out (Note [Async action lease]). */
export async function claimActions(db: pg.Pool, worker: string, leaseSeconds: number, limit: number): Promise<ClaimedAction[]> {
  const r = await db.query<ClaimedAction>(
    `UPDATE engine_catalog.hdb_action_log AS l
        SET status = 'processing', locked_by = $1, lease_until = now() + make_interval(secs => $2)
      WHERE l.id IN (SELECT id FROM engine_catalog.hdb_action_log
                      WHERE status = 'created' OR (status = 'processing' AND lease_until < now())
                      ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED)
      RETURNING l.id, l.action_name, l.input, l.session_variables, l.request_headers`,
    [worker, leaseSeconds, limit],
  );
  return r.rows;
}

/** Stores the outcome if the worker still holds the row; false when its lease was lost. */
export async function finishAction(
  db: pg.Pool, worker: string, id: string, outcome: { output: unknown } | { errors: unknown },
): Promise<boolean> {
  const ok = 'output' in outcome;
  const r = await db.query(
    `UPDATE engine_catalog.hdb_action_log
        SET status = $3, response_payload = $4::jsonb, errors = $5::jsonb, response_received_at = now(), lease_until = NULL
      WHERE id = $1 AND locked_by = $2 AND status = 'processing'`,
    [id, worker, ok ? 'completed' : 'error', ok ? JSON.stringify(outcome.output) : null, ok ? null : JSON.stringify(outcome.errors)],
  );
  return (r.rowCount ?? 0) > 0;
}

/** drop_action with clear_data: the action's stored calls go. */
export async function clearActionLog(db: pg.ClientBase | pg.Pool, action: string): Promise<void> {
  await db.query('DELETE FROM engine_catalog.hdb_action_log WHERE action_name = $1', [action]);
}
