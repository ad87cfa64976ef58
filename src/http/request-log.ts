// The end of every request, whichever way it was served (koa app or fast path): its request metrics, and the
// original's http-log line:
// detail.operation {request_id, user_vars, response_size, query_execution_time, query?, error?} and
// detail.http_info {status, method, ip, url, http_version, content_encoding}. Fields with nothing to say are left
// out, as the original does (its omitNothingFields).
import type { IncomingMessage } from 'node:http';
import type { EngineError } from '../core/errors.js';
import { log } from '../core/log.js';
import type { EngineMetrics } from '../core/metrics.js';

export interface RequestLog {
  metrics: EngineMetrics;
  /** The route (a bounded set: a route's path, or "other"), for the metrics' labels. */
  endpoint: string;
  /** The GraphQL operation's type, once known. */
  operationType?: string;
  req: IncomingMessage;
  method: string;
  /** The path, without the query string. */
  url: string;
  status: number;
  /** process.hrtime.bigint() when the request arrived. */
  started: bigint;
  requestId: string;
  /** Bytes of the body sent (after compression). */
  responseSize: number;
  contentEncoding: string | null;
  /** The session's variables, once resolved. */
  userVars?: Record<string, string>;
  /** The request failed as a whole with this error. */
  error?: EngineError;
  /** The GraphQL request ({query, variables, operationName}): logged on errors, and on every request with query-log on. */
  query?: unknown;
}

/** Counts the request and writes its http-log line (level error for 5xx; nothing is built when http-log is off). */
export function logRequest(r: RequestLog): void {
  const seconds = Number(process.hrtime.bigint() - r.started) / 1e9;
  r.metrics.request(r.endpoint, r.operationType ?? '', r.status, seconds);
  const level = r.status >= 500 ? 'error' : 'info';
  if (!log.wants('http-log', level)) return;
  const operation: Record<string, unknown> = {
    request_id: r.requestId,
    user_vars: r.userVars,
    response_size: r.responseSize,
    query_execution_time: seconds,
  };
  if (r.query !== undefined && (r.error !== undefined || log.wants('query-log'))) operation.query = r.query;
  if (r.error !== undefined) operation.error = { path: r.error.path, error: r.error.message, code: r.error.code };
  const detail = {
    operation,
    http_info: {
      status: r.status,
      method: r.method,
      ip: ipOf(r.req),
      url: r.url,
      http_version: `HTTP/${r.req.httpVersion}`,
      content_encoding: r.contentEncoding,
    },
  };
  if (level === 'error') log.error('http-log', detail);
  else log.info('http-log', detail);
}

/** The client address; IPv4 clients of a dual-stack socket as plain IPv4 (as the original prints them). */
function ipOf(req: IncomingMessage): string | undefined {
  const a = req.socket.remoteAddress;
  return a !== undefined && a.startsWith('::ffff:') ? a.slice(7) : a;
}
