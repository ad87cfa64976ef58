// One /v1/query in one transaction on one pooled client: lock writers, catch up, run the operation, append its
// events (optimistic seq check), snapshot when due, COMMIT, then swap the instance's state.
import type pg from 'pg';
import type { EngineState } from '../cache/state.js';
import { EngineError, isEngineError } from '../core/errors.js';
import { log } from '../core/log.js';
import { runMetadataQuery } from '../metadata/execute.js';
import { AppendConflict, appendEvents, crossesSnapshot, lockWriters, writeSnapshot } from '../../events/log.js';
import { catchUp } from './catchup.js';
import type { Projector } from './projector.js';
import type { StateStore } from './store.js';

export interface WriteContext {
  pool: pg.Pool;
  store: StateStore;
  projector: Projector;
  instanceId: string;
  snapshotInterval: number;
}

export interface WriteResult {
  response: unknown;
  seq: number;
}

const MAX_ATTEMPTS = 10;

/** Runs a metadata operation; throws EngineError (already rolled back) on failure. */
export async function runMetadataWrite(
  w: WriteContext,
  body: unknown,
  who: {
    role: string;
    requestId: string;
    session?: { role: string; variables: Record<string, string> };
    stringifyNumeric?: boolean;
  },
): Promise<WriteResult> {
  for (let attempt = 1; ; attempt++) {
    const client = await w.pool.connect();
    let released = false;
    try {
      await client.query('BEGIN');
      await lockWriters(client);
      const state = await catchUp(client, w.store.get(), w.projector);
      w.store.swap(state);
      const result = await runMetadataQuery(body, {
        client, state, role: who.role, requestId: who.requestId, session: who.session, stringifyNumeric: who.stringifyNumeric,
      });
      const meta = metaOf(body, who);
      const seq = await appendEvents(client, result.events, state.seq, { instanceId: w.instanceId, meta });
      const next: EngineState = result.state.seq === seq ? result.state : { ...result.state, seq };
      if (result.events.length > 0 && crossesSnapshot(state.seq, seq, w.snapshotInterval))
        await writeSnapshot(client, seq, next.metadata);
      await client.query('COMMIT');
      w.store.swap(next, true);
      return { response: result.response, seq: w.store.seq };
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      if (e instanceof AppendConflict && attempt < MAX_ATTEMPTS) {
        log.info('metadata-conflict', { requestId: who.requestId, attempt, expectedSeq: e.expectedSeq });
        client.release();
        released = true;
        await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
        continue;
      }
      if (isEngineError(e)) throw e;
      if (e instanceof AppendConflict) throw new EngineError('unexpected', 'metadata is being changed concurrently, try again', { status: 500 });
      const err = e as Error & { code?: string };
      log.error('metadata-write-failed', { request_id: who.requestId, error: err });
      // A connection that failed mid-transaction is not reused.
      client.release(err);
      released = true;
      throw new EngineError('unexpected', 'an unexpected error occurred', { status: 500, internal: { message: err.message, code: err.code } });
    } finally {
      if (!released) client.release();
    }
  }
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
