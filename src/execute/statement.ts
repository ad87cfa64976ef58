// One statement on Postgres: a named prepared statement (or a one-off), rows as arrays, its failure as the
// request's error. Statements are query objects made from the text (class ArrayQuery), which pg's types do not
// describe: the members pg's constructor would set from a config object, and the methods it overrides, are
// declared here.
import { createRequire } from 'node:module';
import pg from 'pg';
import type { EngineError } from '../core/errors.js';
import { isConnectionError, mapExecutionError } from '../core/pg-errors.js';
import { withRetries, type RetryPolicy } from '../core/connection-retry.js';
import type { Statement } from './plan.js';

const require = createRequire(import.meta.url);
/** pg's query result class (rows as arrays are asked for by giving one to the query). */
const PgResult = require('pg/lib/result.js') as new (rowMode: string, types: unknown) => PgResultRows;
/** How pg writes a parameter's value (what its own bind does with each one). */
const { prepareValue } = require('pg/lib/utils.js') as { prepareValue: (v: unknown) => unknown };
/** pg's protocol serializer, as pg itself resolves it. */
const { serialize } = createRequire(require.resolve('pg'))('pg-protocol') as { serialize: { execute(): Buffer; sync(): Buffer } };

/** The part of pg's Result a text row is added to. */
interface PgResultRows {
  rows: unknown[];
}

/** The part of pg's Connection a statement's messages are written with. */
interface PgConnection {
  stream: { writable: boolean; write(b: Buffer): boolean };
  submittedNamedStatements: Record<string, string>;
  parse(q: { text: string; name?: string; types?: unknown }): void;
  bind(b: { portal: string; statement?: string; values: unknown[]; binary?: boolean }): void;
  sync(): void;
}

/** Execute (the unnamed portal, every row) then Sync: the messages pg writes one by one, written as one buffer. */
const EXECUTE_SYNC = Buffer.concat([serialize.execute(), serialize.sync()]);

export type ArrayResult = pg.QueryArrayResult<unknown[]>;
type Callback = (e: Error | undefined, r: ArrayResult) => void;

/** What pg.Query's constructor sets from a config object (its private members: not in @types/pg). */
interface ConfiguredQuery {
  name?: string;
  text: string;
  values: unknown[];
  types?: unknown;
  binary?: boolean;
  _rowMode: string;
  _result: PgResultRows;
  _results: unknown;
  _canceledDueToError: Error | false;
  hasBeenParsed(connection: PgConnection): boolean;
}

// Declaration merging: the instances have the members above.
interface ArrayQuery extends ConfiguredQuery {}

/**
 * A named statement's query, rows as arrays. Made from the text rather than a config object: pg copies a config
 * object through its property descriptors on every query (`cloneQueryConfig`, ~2-3 µs of a small request), a text
 * it does not. The name and the row mode are set as pg's constructor would have set them from a config.
 *
 * `textRow`: every column is text, so the statement runs without a Describe. pg asks for the portal's row
 * description on every execution to choose a parser per column; a text column's parser returns the text, so a
 * data row is the row as it is. Without it Postgres sends no RowDescription, pg parses none and sets up no parsers,
 * and Execute and Sync go out as one write.
 */
class ArrayQuery extends pg.Query {
  private readonly textRow: boolean;

  constructor(name: string | undefined, text: string, values: unknown[], textRow: boolean) {
    super(text, values);
    this.name = name;
    this._rowMode = 'array';
    this._result = new PgResult('array', undefined);
    this._results = this._result;
    this.textRow = textRow;
  }

  /**
   * pg's prepare (Parse when the connection has not seen the statement, then Bind), without Describe. The values are
   * written out first: one pg cannot write fails the query before anything is sent (pg sends Parse, then Close and
   * Sync, still counts the statement as prepared on the connection, so its next run there fails with 26000, and
   * calls back twice).
   */
  prepare(connection: PgConnection): void {
    if (!this.textRow) return void (pg.Query.prototype as unknown as { prepare(c: PgConnection): void }).prepare.call(this, connection);
    const values: unknown[] = [];
    try {
      for (const v of this.values) values.push(prepareValue(v));
    } catch (err) {
      // Failed once, at the ReadyForQuery that Sync brings back (pg's own way for a row it could not parse; calling
      // back now would call back twice).
      this._canceledDueToError = err as Error;
      connection.sync();
      return;
    }
    if (!this.hasBeenParsed(connection)) {
      connection.parse({ text: this.text, name: this.name, types: this.types });
      if (this.name) connection.submittedNamedStatements[this.name] = this.text;
    }
    connection.bind({ portal: '', statement: this.name, values, binary: this.binary });
    if (connection.stream.writable) connection.stream.write(EXECUTE_SYNC);
  }

  /** A text row is kept as it came (one fresh array per message); any other through pg's parsers. */
  handleDataRow(msg: { fields: unknown[] }): void {
    if (this.textRow) this._result.rows.push(msg.fields);
    else (pg.Query.prototype as unknown as { handleDataRow(m: unknown): void }).handleDataRow.call(this, msg);
  }
}

/**
 * Sends a statement on the pool (which checks a connection out for it) or on a checked-out client, with a callback:
 * both take a query object and a callback, which pg's types know only for configs and texts.
 */
export function sendStatement(target: pg.Pool | pg.PoolClient, st: Statement, values: unknown[], cb: Callback): void {
  (target as unknown as { query(q: ArrayQuery, cb: Callback): void }).query(new ArrayQuery(st.name, st.text, values, st.textRow === true), cb);
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
