// The original's `websocket-log` lines, for both protocols: one line per connection event and per operation event.
//   detail: {user_vars, connection_info: {websocket_id, token_expiry, msg}, event: {type, detail?}}
// with event.type accepted | rejected | conn_err | operation | closed, and for operations
//   event.detail: {operation_id, request_id, operation_name, operation_type: {type, detail?}, query}
// where operation_type.type is started | completed | stopped | query_err | proto_err, and `query` (the GraphQL
// request) is only given with query_err, as the original. Error events are written at level error, the others at info.
// user_vars are the session's variables (credentials are never session variables); nothing is built when the type
// is off.
import type { Session } from '../auth/session.js';
import type { EngineError } from '../core/errors.js';
import { log } from '../core/log.js';
import { flatUuid } from '../core/uuid.js';
import type { GraphQLRequest } from '../graphql/request-body.js';
import type { OperationSink } from './operations.js';

const TYPE = 'websocket-log';

type OperationType =
  | { type: 'started' | 'completed' | 'stopped' }
  | { type: 'query_err'; detail: ErrorDetail }
  | { type: 'proto_err'; detail: string };

interface ErrorDetail {
  path: string;
  error: string;
  code: string;
}

export type WsEvent =
  | { type: 'accepted' | 'closed' }
  | { type: 'rejected'; detail: ErrorDetail }
  | { type: 'conn_err'; detail: string }
  | {
      type: 'operation';
      detail: {
        operation_id: string;
        request_id: string | null;
        operation_name: string | null;
        operation_type: OperationType;
        query: GraphQLRequest | null;
      };
    };

export const errorDetail = (e: EngineError): ErrorDetail => ({ path: e.path, error: e.message, code: e.code });

const isError = (e: WsEvent): boolean =>
  e.type === 'rejected' || e.type === 'conn_err' || (e.type === 'operation' && (e.detail.operation_type.type === 'query_err' || e.detail.operation_type.type === 'proto_err'));

/** One socket's side of the log: its id, and the session once `connection_init` succeeded. */
export class WsConnectionLog {
  readonly websocketId = flatUuid();
  session: Session | null = null;
  /** Once `closed` is written, operations ended by the closing socket log nothing more (as the original). */
  private closed = false;

  write(event: WsEvent): void {
    if (event.type === 'closed') this.closed = true;
    const level = isError(event) ? 'error' : 'info';
    if (!log.wants(TYPE, level)) return;
    const s = this.session;
    const detail = {
      user_vars: s === null ? null : s.variables,
      connection_info: {
        websocket_id: this.websocketId,
        token_expiry: s?.expiresAt === undefined ? null : new Date(s.expiresAt).toISOString(),
        msg: null,
      },
      event,
    };
    if (level === 'error') log.error(TYPE, detail);
    else log.info(TYPE, detail);
  }

  operation(id: string, requestId: string | null, request: GraphQLRequest | null, type: OperationType): void {
    if (!log.wants(TYPE, 'error')) return;
    this.write({
      type: 'operation',
      detail: {
        operation_id: id,
        request_id: requestId,
        operation_name: request?.operationName ?? null,
        operation_type: type,
        query: type.type === 'query_err' ? request : null,
      },
    });
  }

  /**
   * The sink of one operation, logging as the original: a query or mutation logs `completed` (or `query_err`), a
   * subscription `started` once it is live (call `started()`), then `stopped` (call `stopped()`).
   */
  sink(id: string, requestId: string, request: GraphQLRequest, inner: OperationSink): OperationLogSink {
    return new OperationLogSink(this, id, requestId, request, inner);
  }

  /** Whether `closed` was written. */
  get isClosed(): boolean {
    return this.closed;
  }
}

/** An operation's sink that logs its events (see WsConnectionLog.sink): an object, not closures, per operation. */
export class OperationLogSink implements OperationSink {
  private ended = false;

  constructor(
    private readonly log: WsConnectionLog,
    private readonly id: string,
    private readonly requestId: string,
    private readonly request: GraphQLRequest,
    private readonly inner: OperationSink,
  ) {}

  data(text: string): void {
    this.inner.data(text);
  }

  error(err: EngineError): void {
    if (!this.ended) this.log.operation(this.id, this.requestId, this.request, { type: 'query_err', detail: errorDetail(err) });
    this.ended = true;
    this.inner.error(err);
  }

  complete(): void {
    if (!this.ended) this.log.operation(this.id, this.requestId, this.request, { type: 'completed' });
    this.ended = true;
    this.inner.complete();
  }

  started(): void {
    if (!this.ended) this.log.operation(this.id, this.requestId, this.request, { type: 'started' });
  }

  stopped(): void {
    if (!this.ended && !this.log.isClosed) this.log.operation(this.id, null, this.request, { type: 'stopped' });
    this.ended = true;
  }
}
