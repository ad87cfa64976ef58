// The end of every request (src/http/pipeline.ts calls it once per request, whatever route answered): its request
// metrics, and the original's http-log line:
// detail.operation {request_id, user_vars, response_size, query_execution_time, query?, error?} and
// detail.http_info {status, method, ip, url, http_version, content_encoding}. Fields with nothing to say are left
// out, as the original does (its omitNothingFields).
//
// The line's detail is written as JSON text here rather than handed to pino as an object: pino's generic
// serialisation of this one line (key walk, JSON.stringify of each value, its own string building) cost about
// 6 µs of a small query's ~70 µs on `npm run bench`; this costs about one. The other lines stay on pino's API.
// The request's path only keeps what the line says (an HttpLogLine); the text is made with its batch's other lines
// (log.lineLater), where it costs less than between one response and the next request.
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

/**
 * Counts the request and writes its http-log line (nothing is built when http-log is off). Its level is error for a
 * request answered with an error, as the original's (whose line is at error exactly when it carries the request's
 * error): one with an error (a /v1/graphql error answered with 200 included), and any 4xx or 5xx.
 */
export function logRequest(metrics: EngineMetrics, req: IncomingMessage, r: RequestOutcome): void {
  const ns = Number(process.hrtime.bigint() - r.started);
  metrics.request(r.endpoint, r.operationType ?? '', r.status, ns / 1e9);
  const level = r.error !== undefined || r.status >= 400 ? 'error' : 'info';
  if (!log.wants('http-log', level)) return;
  const query = r.query !== undefined && (r.error !== undefined || log.wants('query-log')) ? r.query : undefined;
  const line: HttpLogLine = { requestId: r.requestId, userVars: r.userVars, responseSize: r.responseSize, ns, query, error: r.error, httpInfo: httpInfoJson(req, r) };
  log.lineLater(level, 'http-log', httpLogDetail, line);
}

/** What a request's http-log line says, kept until the line is made (its values do not change after the request). */
interface HttpLogLine {
  requestId: string;
  userVars: Record<string, string> | undefined;
  responseSize: number;
  ns: number;
  query: unknown;
  error: EngineError | undefined;
  /** The line's end, from `},"http_info":` on (read while the request's socket is at hand). */
  httpInfo: string;
}

function httpLogDetail(l: HttpLogLine): string {
  let operation = `{"operation":{"request_id":${stringJson(l.requestId)}`;
  if (l.userVars !== undefined) operation += `,"user_vars":${variablesJson(l.userVars)}`;
  operation += `,"response_size":${l.responseSize},"query_execution_time":${secondsText(l.ns)}`;
  if (l.query !== undefined) operation += `,"query":${JSON.stringify(l.query)}`;
  if (l.error !== undefined) operation += `,"error":${JSON.stringify({ path: l.error.path, error: l.error.message, code: l.error.code })}`;
  return operation + l.httpInfo;
}

/**
 * A value's JSON text. Most values here are strings that need no escaping (generated request ids, role names, numeric
 * ids): they are quoted as they are, which costs a tenth of JSON.stringify. Anything else (a JWT's list of allowed
 * roles among the session variables) goes through JSON.stringify.
 */
const PLAIN = /^[\w .:/@+-]*$/;
const stringJson = (v: unknown): string => (typeof v === 'string' && PLAIN.test(v) ? `"${v}"` : JSON.stringify(v));

/** The session variables' JSON text, as JSON.stringify writes it (the names' texts are kept, as jsonText). */
function variablesJson(vars: Record<string, string>): string {
  let out = '{';
  for (const k in vars) out += `${out.length === 1 ? '' : ','}${jsonText(k)}:${stringJson(vars[k])}`;
  return `${out}}`;
}

/**
 * The line's end, `},"http_info":{...}}`, kept per connection: a keep-alive client repeats the same method, path,
 * status, encoding and HTTP version, so the text is made again only when one of them changes.
 */
interface HttpInfo {
  status: number;
  method: string;
  url: string;
  encoding: string | null;
  version: string;
  text: string;
}
const httpInfos = new WeakMap<object, HttpInfo>();
function httpInfoJson(req: IncomingMessage, r: RequestOutcome): string {
  const method = req.method ?? '';
  const kept = httpInfos.get(req.socket);
  if (kept !== undefined && kept.status === r.status && kept.url === r.url && kept.method === method && kept.encoding === r.contentEncoding
    && kept.version === req.httpVersion) return kept.text;
  const ip = ipOf(req);
  const text = `},"http_info":{"status":${r.status},"method":${jsonText(method)}${ip === undefined ? '' : `,"ip":${JSON.stringify(ip)}`},"url":${
    jsonText(r.url)},"http_version":${httpVersionJson(req)},"content_encoding":${r.contentEncoding === null ? 'null' : jsonText(r.contentEncoding)}}}`;
  // An address not known yet (a socket already closed) is not kept: a later line may know it.
  if (ip !== undefined) httpInfos.set(req.socket, { status: r.status, method, url: r.url, encoding: r.contentEncoding, version: req.httpVersion, text });
  return text;
}

/**
 * JSON texts of the strings a line repeats on every request (method, path, content encoding, variable names): kept,
 * up to JSON_TEXTS_KEPT of them (paths are the client's), instead of a JSON.stringify per string per line.
 */
const JSON_TEXTS_KEPT = 512;
const jsonTexts = new Map<string, string>();
function jsonText(s: string): string {
  let t = jsonTexts.get(s);
  if (t === undefined) {
    t = JSON.stringify(s);
    if (jsonTexts.size < JSON_TEXTS_KEPT) jsonTexts.set(s, t);
  }
  return t;
}

const httpVersionJson = (req: IncomingMessage): string =>
  req.httpVersionMajor === 1 && req.httpVersionMinor === 1 ? '"HTTP/1.1"' : JSON.stringify(`HTTP/${req.httpVersion}`);

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
