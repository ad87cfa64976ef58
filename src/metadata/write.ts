// The metadata write path, in one place: one /v1/query in one transaction on one pooled client.
//   1. BEGIN and take the writers' lock          (events/log.ts lockWriters)
//   2. catch up with the log                     (sync/catchup.ts)
//   3. I/O checks, decide, run run_sql's SQL,    (execute.ts, against the operation table in operations.ts;
//      fold, consistency rules                    decide functions in events/decide, pure)
//   4. append the events with the seq decided on, (events/log.ts appendEvents; a unique-key conflict means
//      NOTIFY engine_metadata                     another writer came first: roll back, catch up, retry)
//   5. COMMIT, swap the instance's state, snapshot when due (snapshots.ts: after the commit).
import type pg from 'pg';
import type { EngineState } from '../cache/state.js';
import { EngineError, isEngineError } from '../core/errors.js';
import { log } from '../core/log.js';
import { inTransaction } from '../core/transaction.js';
import { runMetadataQuery } from './execute.js';
import { connectRetrying } from '../core/connection-retry.js';
import { connectionError, isConnectionError } from '../core/pg-errors.js';
import { AppendConflict, appendEvents, crossesSnapshot, lockWriters } from '../../events/log.js';
import type { SnapshotWriter } from './snapshots.js';
import { catchUp } from '../sync/catchup.js';
import { clearActionLog } from '../actions/log.js';
import type { Projector } from '../sync/projector.js';
import type { StateStore } from '../sync/state-store.js';

export interface WriteContext {
  pool: pg.Pool;
  /** Connecting is retried this often on connection errors (--retries): nothing of the operation was sent yet. */
  connectionRetries: number;
  store: StateStore;
  projector: Projector;
  instanceId: string;
  snapshotInterval: number;
  /** Writes the snapshots due after their write commits (snapshots.ts). */
  snapshots: SnapshotWriter;
}

export interface WriteResult {
  response: unknown;
  seq: number;
}

const MAX_ATTEMPTS = 10;

/** Who asks (the event meta records the role and the request id; v1 DML inside a bulk runs as the session). */
interface Who {
  role: string;
  requestId: string;
  session?: { role: string; variables: Record<string, string> };
  stringifyNumeric?: boolean;
}

/** Runs a metadata operation; throws EngineError (already rolled back) on failure. */
export async function runMetadataWrite(w: WriteContext, body: unknown, who: Who): Promise<WriteResult> {
  for (let attempt = 1; ; attempt++) {
    const answer = await w.store.exclusive(() => attemptWrite(w, body, who, attempt));
    if (answer !== RETRY) return answer;
    await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
  }
}

const RETRY = Symbol('retry');

/** One attempt, its turn taken (StateStore.exclusive): the result, or RETRY after an append conflict. */
async function attemptWrite(w: WriteContext, body: unknown, who: Who, attempt: number): Promise<WriteResult | typeof RETRY> {
  const client = await connectRetrying(() => w.pool.connect(), { retries: w.connectionRetries, requestId: who.requestId });
  let released = false;
  try {
    const { response, next, snapshot } = await inTransaction(client, () => writeOnce(w, client, body, who));
    w.store.swap(next, true);
    if (snapshot) w.snapshots.write(next.seq, next.metadata);
    return { response, seq: w.store.seq };
  } catch (e) {
    if (e instanceof AppendConflict && attempt < MAX_ATTEMPTS) {
      log.info('metadata-conflict', { requestId: who.requestId, attempt, expectedSeq: e.expectedSeq });
      client.release();
      released = true;
      return RETRY;
    }
    if (isEngineError(e)) throw e;
    if (e instanceof AppendConflict) throw new EngineError('unexpected', 'metadata is being changed concurrently, try again', { status: 500 });
    const err = e as Error & { code?: string };
    log.error('metadata-write-failed', { request_id: who.requestId, error: err });
    // A connection that failed mid-transaction is not reused.
    client.release(err);
    released = true;
    if (isConnectionError(err)) throw connectionError(err);
    throw new EngineError('unexpected', 'an unexpected error occurred', { status: 500, internal: { message: err.message, code: err.code } });
  } finally {
    if (!released) client.release();
  }
}

/**
 * Steps 1 to 5 inside the transaction (inTransaction's BEGIN and COMMIT): the response, the state after the events,
 * and whether a snapshot of it is due (written after the commit: Note [Snapshots after commit], snapshots.ts).
 */
async function writeOnce(
  w: WriteContext, client: pg.PoolClient, body: unknown, who: Who,
): Promise<{ response: unknown; next: EngineState; snapshot: boolean }> {
  await lockWriters(client);
  const state = await catchUp(client, w.store.get(), w.projector);
  w.store.swap(state);
  const result = await runMetadataQuery(body, {
    client, state, cacheChecks: w.projector.cacheChecks, role: who.role, requestId: who.requestId, session: who.session, stringifyNumeric: who.stringifyNumeric,
  });
  const meta = metaOf(body, who);
  const seq = await appendEvents(client, result.events, state.seq, { instanceId: w.instanceId, meta });
  // drop_action's clear_data: the async action's stored calls go in the same transaction.
  for (const ev of result.events) if (ev.type === 'action_dropped' && ev.data.clear_data) await clearActionLog(client, ev.data.name);
  const next: EngineState = result.state.seq === seq ? result.state : { ...result.state, seq };
  return { response: result.response, next, snapshot: result.events.length > 0 && crossesSnapshot(state.seq, seq, w.snapshotInterval) };
}

/** What the event meta records about the operation (DESIGN: type, version, request id, role). */
function metaOf(body: unknown, who: { role: string; requestId: string }): Record<string, unknown> {
  const b = (body ?? {}) as { type?: unknown; version?: unknown };
  return {
    operation: typeof b.type === 'string' ? b.type : null,
    version: typeof b.version === 'number' ? b.version : 1,
    request_id: who.requestId,
    role: who.role,
  };
}
