// Running again on a new connection what failed because the database connection was refused or lost (--retries,
// Note [Connection errors] in ./pg-errors.ts). A query is run again whenever its connection failed; a mutation only
// when nothing of it had been sent yet (connecting, BEGIN): once its statement was sent it may have run, and running
// it again could apply it twice.
import { log } from './log.js';
import { connectionError, isConnectionError } from './pg-errors.js';

/** How often to try again, and the request it is for (the retry lines name it). */
export interface RetryPolicy {
  retries: number;
  requestId?: string;
}

/** The pause before retry n (1-based): 100 ms doubling, as the original's; it stops retrying past 6 s. */
const pauseMs = (n: number): number => 100 * 2 ** (n - 1);
const LONGEST_PAUSE_MS = 6000;

/**
 * After a first attempt failed with `error`: up to `policy.retries` more attempts, each after a pause, while the
 * failures are connection errors. Resolves with the first answer; rejects with the last error.
 */
export async function retryAfter<T>(error: unknown, policy: RetryPolicy, attempt: () => Promise<T>): Promise<T> {
  let last = error;
  for (let n = 1; n <= policy.retries && pauseMs(n) <= LONGEST_PAUSE_MS && isConnectionError(last); n++) {
    // The original's pg-client line, with the request and what failed.
    log.warn('pg-client', {
      message: `postgres connection failed, retrying(${n}).`, request_id: policy.requestId, error: (last as Error).message,
    });
    await new Promise((resolve) => setTimeout(resolve, pauseMs(n)));
    try {
      return await attempt();
    } catch (e) {
      last = e;
    }
  }
  throw last;
}

/** `attempt`, run again on connection errors (for work that is safe to repeat: queries, nothing sent yet). */
export async function withRetries<T>(policy: RetryPolicy, attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (e) {
    return retryAfter(e, policy, attempt);
  }
}

/**
 * A pooled connection (`connect`: the pool's): connecting is retried on connection errors, on a new connection each
 * time (nothing of the caller's work was sent yet). The caller releases the connection. Rejects with the original's
 * "connection error" when the connection could not be had.
 */
export async function connectRetrying<C>(connect: () => Promise<C>, policy: RetryPolicy): Promise<C> {
  try {
    return await withRetries(policy, connect);
  } catch (e) {
    throw isConnectionError(e) ? connectionError(e as Error) : e;
  }
}
