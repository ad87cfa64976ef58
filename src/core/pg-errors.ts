// Postgres errors → the original engine's GraphQL error codes and messages (SPEC-NOTES-runtime §1.4).
import { EngineError, type ErrorCode } from './errors.js';

interface PgErrorLike {
  code?: string;
  message: string;
  detail?: string;
  hint?: string;
}

function isPgError(e: unknown): e is PgErrorLike & Error {
  const code = e instanceof Error ? (e as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

const CONSTRAINT_PREFIX: Record<string, string> = {
  '23001': 'Can not delete or update due to data being referred. ',
  '23502': 'Not-NULL violation. ',
  '23503': 'Foreign key violation. ',
  '23505': 'Uniqueness violation. ',
  '23P01': 'Exclusion violation. ',
};

/** What `internal` shows (admin only): the statement, its arguments and the Postgres error fields. */
export interface StatementInfo {
  text: string;
  values: readonly unknown[];
}

function internal(e: PgErrorLike, st: StatementInfo | null): Record<string, unknown> {
  return {
    statement: st?.text ?? null,
    prepared: true,
    error: { exec_status: 'FatalError', hint: e.hint ?? null, message: e.message, status_code: e.code ?? null, description: e.detail ?? null },
    arguments: st ? st.values.map((v) => (v === null ? null : String(v))) : [],
  };
}

// Note [Connection errors]
// A connection that could not be made or was lost (refused, reset, closed, the server shutting down or starting
// up, too many connections, SQLSTATE class 08 and 57P01-57P03) is not the statement's fault. The original answers
// it with postgres-error "connection error", status 500, the connection's own error text as `internal`, and runs a
// query again on a new connection first (./connection-retry.ts).
const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const CONNECTION_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** node-postgres's own words for a connection that ended, never came up or is unusable. */
const CONNECTION_MESSAGES = /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect)/;

/** Whether an error means the database connection was refused or lost, rather than a statement failing. */
export function isConnectionError(e: unknown): boolean {
  if (!(e instanceof Error) || e instanceof EngineError) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_ERRNOS.has(code) || CONNECTION_SQLSTATES.has(code) || code.startsWith('08'))) return true;
  return CONNECTION_MESSAGES.test(e.message);
}

/** The original's answer to a refused or lost connection (Note [Connection errors]). */
export const connectionError = (e: Error): EngineError =>
  new EngineError('postgres-error', 'connection error', { status: 500, internal: e.message });

/** Maps an error thrown while running SQL. EngineErrors pass through; non-Postgres errors become `unexpected`. */
export function mapExecutionError(e: unknown, st: StatementInfo | null): EngineError {
  if (e instanceof EngineError) return e;
  if (isConnectionError(e)) return connectionError(e as Error);
  if (!isPgError(e)) {
    return new EngineError('unexpected', 'database query error', { status: 500, internal: { message: e instanceof Error ? e.message : String(e) } });
  }
  const code = e.code!;
  const cls = code.slice(0, 2);
  // Like the original, only the unexpected case carries `internal`; mapped errors are plain 400s.
  const opts = { path: '$' };
  // Raised by engine_catalog.raise_error (mutations): the engine error code travels in DETAIL.
  if (code === 'EG400') return new EngineError((e.detail ?? 'unexpected') as ErrorCode, e.message, opts);
  if (cls === '23') {
    if (code === '23514') return new EngineError('permission-error', `Check constraint violation. ${e.message}`, opts);
    return new EngineError('constraint-violation', (CONSTRAINT_PREFIX[code] ?? '') + e.message, opts);
  }
  if (cls === '22') return new EngineError(code === '22025' ? 'bad-request' : 'data-exception', e.message, opts);
  if (cls === '42') {
    const msg = code === '42P10' && /unique or exclusion constraint/.test(e.message)
      ? 'there is no unique or exclusion constraint on target column(s)'
      : e.message;
    return new EngineError('constraint-error', msg, opts);
  }
  return new EngineError('unexpected', 'database query error', { path: '$', status: 500, internal: internal(e, st) });
}
