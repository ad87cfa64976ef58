// Reads through the read router (ctx.reads, src/replicas through ExecutorFeatures): the source it picks (a
// replica, or the primary), the read sent there, and when that source went away under the read (a replica shut
// down), one more try on the source the router names instead: the client sees no error. Without a router, every
// read is the primary pool's.
import type pg from 'pg';
import type { ReadRouting, ReadSource } from './features.js';
import type { ExecuteContext } from './context.js';
import type { Statement } from './plan.js';
import { runStatement, sendStatement, statementError, type ArrayResult } from './statement.js';

type Callback<R> = (e: Error | undefined, r: R) => void;
/** Sends a read on a pool; calls back once. */
export type SendRead<R> = (pool: pg.Pool, cb: Callback<R>) => void;

/** A read that keeps to one source while it qualifies (a live query's poller): the source of its last read. */
export interface Sticky {
  source?: ReadSource;
}

/**
 * The read on the router's source (retried once elsewhere when it went away), or on `primary` without a router.
 * `sticky`: the source to keep if it still qualifies, updated to the one that served.
 */
export function routeRead<R>(reads: ReadRouting | undefined, primary: pg.Pool, minLsn: number, send: SendRead<R>, cb: Callback<R>, sticky?: Sticky): void {
  if (reads === undefined) return send(primary, cb);
  const picked = reads.source(minLsn, sticky?.source);
  if (picked instanceof Promise) picked.then((s) => attempt(reads, s, minLsn, send, cb, sticky, false), (e: Error) => cb(e, undefined as R));
  else attempt(reads, picked, minLsn, send, cb, sticky, false);
}

/** One try of a read on `s` (a module function, not a closure per read: tsx's keepNames names every named closure made). */
function attempt<R>(reads: ReadRouting, s: ReadSource, minLsn: number, send: SendRead<R>, cb: Callback<R>, sticky: Sticky | undefined, retried: boolean): void {
  if (sticky) sticky.source = s;
  send(s.pool, (e, r) => {
    if (s.done(e) && !retried) return attempt(reads, reads.retry(s, minLsn), minLsn, send, cb, sticky, true);
    cb(e, r);
  });
}

/** routeRead for a read that is a promise: its result, or its failure on the last source tried. */
export function readOn<T>(reads: ReadRouting | undefined, primary: pg.Pool, minLsn: number, run: (pool: pg.Pool) => Promise<T>): Promise<T> {
  if (reads === undefined) return run(primary);
  return new Promise((resolve, reject) => {
    routeRead<T>(reads, primary, minLsn, (pool, cb) => run(pool).then((v) => cb(undefined, v), (e: Error) => cb(e, undefined as T)), (e, v) => (e ? reject(e) : resolve(v)));
  });
}

/** A query statement's first row (or null), read where the router says; throws its failure as the request's error. */
export function readStatement(ctx: ExecuteContext, st: Statement, values: unknown[]): Promise<unknown[] | null> {
  // The primary alone: a lost or refused connection is tried again on a new one (--retries).
  if (ctx.reads === undefined) return runStatement(ctx.pool, st, values, { retries: ctx.connectionRetries, requestId: ctx.requestId });
  return new Promise((resolve, reject) => {
    routeRead<ArrayResult>(ctx.reads, ctx.pool, ctx.minLsn, (pool, cb) => sendStatement(pool, st, values, cb),
      (e, r) => (e ? reject(statementError(st, values, e)) : resolve(r.rows[0] ?? null)));
  });
}
