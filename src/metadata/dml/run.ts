// Runs a /v1/query body made only of DML operations (select/count/insert/update/delete, possibly in bulks) in a
// transaction of its own. Data operations change no metadata, so unlike metadata writes they take neither the
// writers' lock nor a catch-up: like GraphQL requests, they use the instance's current state.
import type pg from 'pg';
import { EngineError, isEngineError } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { inTransaction } from '../../core/transaction.js';
import type { EngineState } from '../../cache/state.js';
import type { CacheCheck } from '../../cache/build.js';
import { runMetadataQuery } from '../execute.js';

export interface DmlRequest {
  role: string;
  requestId: string;
  session?: { role: string; variables: Record<string, string> };
  stringifyNumeric?: boolean;
}

export async function runDmlRequest(
  pool: pg.Pool, state: EngineState, cacheChecks: readonly CacheCheck[], body: unknown, who: DmlRequest,
): Promise<unknown> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    return await inTransaction(client, async () => {
      const result = await runMetadataQuery(body, { client, state, cacheChecks, ...who });
      if (result.events.length > 0) throw new Error('a DML request produced metadata events');
      return result.response;
    });
  } catch (e) {
    if (isEngineError(e)) throw e;
    const err = e as Error & { code?: string };
    log.error('dml-request-failed', { request_id: who.requestId, error: err });
    // A connection that failed mid-transaction is not reused.
    broken = err;
    throw new EngineError('unexpected', 'an unexpected error occurred', { status: 500, internal: { message: err.message, code: err.code } });
  } finally {
    client.release(broken);
  }
}
