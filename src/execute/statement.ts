// One statement on Postgres: a named prepared statement (or a one-off), rows as arrays, its failure as the
// request's error. Statements are query objects made from the text (class ArrayQuery), which pg's types do not
// describe: the members pg's constructor would set from a config object are declared here.
import { createRequire } from 'node:module';
import pg from 'pg';
import type { EngineError } from '../core/errors.js';
import { isConnectionError, mapExecutionError } from '../core/pg-errors.js';
import { withRetries, type RetryPolicy } from '../core/connection-retry.js';
import type { Statement } from './plan.js';

/** pg's query result class (rows as arrays are asked for by giving one to the query). */
const PgResult = createRequire(import.meta.url)('pg/lib/result.js') as new (rowMode: string, types: unknown) => unknown;

export type ArrayResult = pg.QueryArrayResult<unknown[]>;
type Callback = (e: Error | undefined, r: ArrayResult) => void;

/** What pg.Query's constructor sets from a config object (its private members: not in @types/pg). */
interface ConfiguredQuery {
  name?: string;
  _rowMode: string;
  _result: unknown;
  _results: unknown;
}

// Declaration merging: the instances have the members above.
interface ArrayQuery extends ConfiguredQuery {}

/**
 * A named statement's query, rows as arrays. Made from the text rather than a config object: pg copies a config
 * object through its property descriptors on every query (`cloneQueryConfig`, ~2-3 µs of a small request), a text
 * it does not. The name and the row mode are set as pg's constructor would have set them from a config.
 */
class ArrayQuery extends pg.Query {
  constructor(name: string | undefined, text: string, values: unknown[]) {
    super(text, values);
    this.name = name;
    this._rowMode = 'array';
    this._result = new PgResult('array', undefined);
    this._results = this._result;
  }
}

/**
 * Sends a statement on the pool (which checks a connection out for it) or on a checked-out client, with a callback:
 * both take a query object and a callback, which pg's types know only for configs and texts.
 */
export function sendStatement(target: pg.Pool | pg.PoolClient, st: Statement, values: unknown[], cb: Callback): void {
  (target as unknown as { query(q: ArrayQuery, cb: Callback): void }).query(new ArrayQuery(st.name, st.text, values), cb);
}

/** A statement's result (rows as arrays). */
export function submitStatement(target: pg.Pool | pg.PoolClient, st: Statement, values: unknown[]): Promise<ArrayResult> {
  return new Promise((resolve, reject) => sendStatement(target, st, values, (e, r) => (e ? reject(e) : resolve(r))));
}

/**
 * A statement's first row (or null); throws its failure as the request's error. With a retry policy (a query on
 * the pool), run again on a new connection after a connection error.
 */
export async function runStatement(
  target: pg.Pool | pg.PoolClient, st: Statement, values: unknown[], retry?: RetryPolicy,
): Promise<unknown[] | null> {
  try {
    const r = retry ? await withRetries(retry, () => submitStatement(target, st, values)) : await submitStatement(target, st, values);
    return r.rows[0] ?? null;
  } catch (e) {
    throw statementError(st, values, e);
  }
}

/** A statement's failure as the request's error (at the statement's field when the database gave no path). */
export function statementError(st: Statement, values: unknown[], e: unknown): EngineError {
  const err = mapExecutionError(e, { text: st.text, values });
  return st.errorPath && err.path === '$' && !isConnectionError(e) ? err.at(st.errorPath) : err;
}
