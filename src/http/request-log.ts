// The end of every request (src/http/pipeline.ts calls it once per request, whatever route answered): its request
// metrics, and the original's http-log line:
// detail.operation {request_id, user_vars, response_size, query_execution_time, query?, error?} and
// detail.http_info {status, method, ip, url, http_version, content_encoding}. Fields with nothing to say are left
// out, as the original does (its omitNothingFields).
//
// The line's detail is written as JSON text here rather than handed to pino as an object: pino's generic
// serialisation of this one line (key walk, JSON.stringify of each value, its own string building) cost about
// 6 µs of a small query's ~70 µs on `npm run bench`; this costs about one. The other lines stay on pino's API.
import type { IncomingMessage } from 'node:http';
import type { EngineError } from '../core/errors.js';
import { log } from '../core/log.js';
import type { EngineMetrics } from '../core/metrics.js';

export interface RequestOutcome {
  /** The route (a bounded set: a route's path, or "other"), for the metrics' labels. */
  endpoint: string;
  /** The path, without the query string. */
  url: string;
  status: number;
  /** process.hrtime.bigint() when the request arrived. */
  started: bigint;
  requestId: string;
  /** Bytes of the body sent (after compression). */
  responseSize: number;
  contentEncoding: string | null;
  /** The GraphQL operation's type, once known. */
  operationType?: string;
  /** The session's variables, once resolved. */
  userVars?: Record<string, string>;
  /** The request failed as a whole with this error. */
  error?: EngineError;
  /** The GraphQL request ({query, variables, operationName}): logged on errors, and on every request with query-log on. */
  query?: unknown;
}

/** Counts the request and writes its http-log line (level error for 5xx; nothing is built when http-log is off). */
export function logRequest(metrics: EngineMetrics, req: IncomingMessage, r: RequestOutcome): void {
  const ns = Number(process.hrtime.bigint() - r.started);
  metrics.request(r.endpoint, r.operationType ?? '', r.status, ns / 1e9);
  const level = r.status >= 500 ? 'error' : 'info';
  if (!log.wants('http-log', level)) return;
  let operation = `{"request_id":${JSON.stringify(r.requestId)}`;
  if (r.userVars !== undefined) operation += `,"user_vars":${JSON.stringify(r.userVars)}`;
  operation += `,"response_size":${r.responseSize},"query_execution_time":${secondsText(ns)}`;
  if (r.query !== undefined && (r.error !== undefined || log.wants('query-log'))) operation += `,"query":${JSON.stringify(r.query)}`;
  if (r.error !== undefined) operation += `,"error":${JSON.stringify({ path: r.error.path, error: r.error.message, code: r.error.code })}`;
  const ip = ipOf(req);
  log.line(level, 'http-log', `{"operation":${operation}},"http_info":{"status":${r.status},"method":${JSON.stringify(req.method)}${
    ip === undefined ? '' : `,"ip":${JSON.stringify(ip)}`},"url":${JSON.stringify(r.url)},"http_version":${JSON.stringify(`HTTP/${req.httpVersion}`)},"content_encoding":${
    r.contentEncoding === null ? 'null' : JSON.stringify(r.contentEncoding)}}}`);
}

/**
 * Nanoseconds as decimal seconds ("0.001563371"): the same JSON number as the float's own text, from integer
 * parts (turning a float into its shortest text is the dearest number formatting of the line).
 */
function secondsText(ns: number): string {
  const whole = Math.floor(ns / 1e9);
  const frac = ns - whole * 1e9;
  return `${whole}.${frac < 1e8 ? String(frac).padStart(9, '0') : frac}`;
}

/** The client address; IPv4 clients of a dual-stack socket as plain IPv4 (as the original prints them). */
function ipOf(req: IncomingMessage): string | undefined {
  const a = req.socket.remoteAddress;
  return a !== undefined && a.startsWith('::ffff:') ? a.slice(7) : a;
}
