// The one request pipeline every HTTP request goes through, whichever route answers it. Here and only here are
// decided: the request id, CORS (and preflight answers), the body of a stray error, gzip, the headers a response
// is written with, and at the end the request's metrics and http-log line (./request-log.ts).
//
// Routes answer with a Reply. The GraphQL endpoints are Routes the pipeline calls directly (no koa context,
// middleware chain or router on the hot path: about a fifth of a small query's CPU); every other path goes to the
// koa app (./app.ts), whose single middleware hands its context back here as a Reply (koa itself writes nothing).
import type http from 'node:http';
import { gzipSync } from 'node:zlib';
import { metadataErrorBody, type EngineError } from '../core/errors.js';
import { log } from '../core/log.js';
import type { Runtime } from './runtime.js';
import { GZIP_LEVEL, GZIP_MIN_LENGTH, acceptsGzip, requestIdOf, strayError } from './request-common.js';
import { corsHeaders, corsPolicy, preflightHeaders } from './cors.js';
import { logRequest } from './request-log.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** A route's answer. */
export interface Reply {
  status: number;
  /** The body as sent before compression (JSON already serialised); null: none. */
  body: string | Buffer | null;
  /**
   * The content type and the other headers, in the order they were set; undefined for a koa route, which set its
   * headers on the response itself.
   */
  contentType?: string;
  headers?: [string, string][];
  /** For the request log: the session's variables, once resolved. */
  userVars?: Record<string, string>;
  /** For the request log: the error when the request (a single one, not a batch) failed. */
  error?: EngineError;
  /** For the request log: the GraphQL request, once parsed. */
  query?: unknown;
  /** For the request metrics: the (first) operation's type, once known. */
  operationType?: string;
}

/** What the pipeline knows of a request before a route runs. */
export interface RequestScope {
  started: bigint;
  requestId: string;
  /** The path, without the query string. */
  path: string;
  /** The metrics' endpoint label: the path when it is a route's, else "other". */
  endpoint: string;
  /** The headers every response to this request starts with: x-request-id, then CORS's for an allowed origin. */
  head: Record<string, string | string[]>;
}

/** A route: answers through `done`, exactly once (a throw before it has answered is answered as a stray error). */
export type Route = (req: http.IncomingMessage, scope: RequestScope, done: (reply: Reply) => void) => void;

/** A route served by the pipeline itself: exactly this method and path (any query string). */
export interface DirectRoute {
  method: string;
  path: string;
  run: Route;
}

/** The koa app as the pipeline uses it: it gets the request with its scope and hands back a Reply. */
export type Fallback = (req: http.IncomingMessage, res: http.ServerResponse, scope: RequestScope) => void;

/** gzip only for the bodies of /v1/query and /v1/graphql, as the original does. */
const COMPRESSIBLE = new Set(['/v1/query', '/v1/graphql']);
/** Statuses whose responses have no body (koa's rule, kept when koa stopped writing responses). */
const EMPTY_STATUS = new Set([204, 205, 304]);

/** The path of a request target: origin-form split at '?'; absolute-form (rare) through URL, as koa reads it. */
export function pathOf(url: string): string {
  if (url.charCodeAt(0) === 47 /* / */) {
    const q = url.indexOf('?');
    return q === -1 ? url : url.slice(0, q);
  }
  try {
    return new URL(url, 'http://localhost').pathname;
  } catch {
    return url;
  }
}

/**
 * A path as the router matches it (case-insensitive, one trailing slash optional): a direct route answers
 * `/V1/GraphQL/` as it did when koa's router served it. Only asked when the exact path is not a route.
 */
const routeKey = (path: string): string => {
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
};

/**
 * The server's request listener. `direct` routes are answered here; everything else goes to `fallback` (the koa
 * app). `endpoints` lists every route path (the metrics' endpoint label is a path from it, or "other").
 */
export function requestPipeline(rt: Runtime, direct: DirectRoute[], fallback: Fallback, endpoints: () => ReadonlySet<string>): http.RequestListener {
  const allowed = corsPolicy(rt.config);
  const routes = new Map(direct.map((r) => [r.path, r]));
  let known: ReadonlySet<string> | null = null;
  const endpointOf = (path: string): string => ((known ??= endpoints()).has(path) ? path : 'other');
  return (req, res) => {
    const started = process.hrtime.bigint();
    const h = req.headers;
    const requestId = requestIdOf(h['x-request-id']);
    const head: Record<string, string | string[]> = { 'x-request-id': requestId };
    const origin = allowed(h.origin ?? '');
    if (origin !== null) for (const [k, v] of corsHeaders(origin)) head[k] = v;
    const path = pathOf(req.url ?? '/');
    const scope: RequestScope = { started, requestId, path, endpoint: endpointOf(path), head };
    if (origin !== null && req.method === 'OPTIONS') {
      const headers = preflightHeaders(h['access-control-request-headers'] ?? '');
      return finish(rt, req, res, scope, { status: 204, body: null, headers });
    }
    const route = routes.get(path) ?? routes.get(routeKey(path));
    if (route !== undefined && route.method === req.method) {
      // An inline callback, no named `done` closure: tsx's keepNames costs a defineProperty per named closure made.
      let answered = false;
      try {
        route.run(req, scope, (reply) => {
          answered = true;
          finish(rt, req, res, scope, reply);
        });
      } catch (e) {
        if (!answered) finish(rt, req, res, scope, strayReply(e, requestId));
        else log.error('http-error', { error: e });
      }
      return;
    }
    // A koa route sets its own headers on the response: ours go first, as they always have.
    for (const k in head) res.setHeader(k, head[k]);
    fallback(req, res, scope);
  };
}

/** The answer to an error no route caught: the metadata-style error body, with its status (a direct route's reply). */
export function strayReply(e: unknown, requestId: string): Reply {
  const error = strayError(e, requestId);
  return { status: error.status, body: JSON.stringify(metadataErrorBody(error, false)), contentType: JSON_TYPE, headers: [], error };
}

/** Writes the reply (gzip when allowed and worth it), then counts and logs the request. */
export function finish(rt: Runtime, req: http.IncomingMessage, res: http.ServerResponse, scope: RequestScope, reply: Reply): void {
  try {
    const { status } = reply;
    let payload = EMPTY_STATUS.has(status) ? null : reply.body;
    let encoding: string | null = null;
    if (typeof payload === 'string' && payload.length >= GZIP_MIN_LENGTH && COMPRESSIBLE.has(scope.path) && acceptsGzip(req.headers['accept-encoding'] ?? '')) {
      payload = gzipSync(Buffer.from(payload, 'utf8'), { level: GZIP_LEVEL });
      encoding = 'gzip';
    }
    const size = payload === null ? 0 : typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    if (reply.headers !== undefined) {
      // One writeHead with a header object (nothing was set on the response before: node takes it as it is).
      const out = scope.head;
      if (reply.contentType !== undefined && payload !== null) out['Content-Type'] = reply.contentType;
      for (const [k, v] of reply.headers) {
        const had = out[k];
        out[k] = had === undefined ? v : [...(Array.isArray(had) ? had : [had]), v]; // Set-Cookie may repeat
      }
      if (payload !== null) out['Content-Length'] = String(size);
      if (encoding !== null) out['Content-Encoding'] = encoding;
      res.writeHead(status, out);
    } else {
      // A koa route: its headers are on the response; a stray error's content type replaces the route's.
      if (reply.contentType !== undefined) res.setHeader('Content-Type', reply.contentType);
      if (payload === null) {
        res.removeHeader('Content-Type');
        res.removeHeader('Content-Length');
      } else res.setHeader('Content-Length', size);
      if (encoding !== null) res.setHeader('Content-Encoding', encoding);
      res.writeHead(status);
    }
    if (payload === null || req.method === 'HEAD') res.end();
    else res.end(payload);
    const sentEncoding = encoding ?? (reply.headers === undefined ? headerText(res.getHeader('Content-Encoding')) : null);
    logRequest(rt.metrics, req, {
      endpoint: scope.endpoint, url: scope.path, status, started: scope.started, requestId: scope.requestId, responseSize: size, contentEncoding: sentEncoding,
      operationType: reply.operationType, userVars: reply.userVars, error: reply.error, query: reply.query,
    });
  } catch (e) {
    // What koa's own error handler did with an error that reached it (none is expected here).
    log.error('http-error', { error: e });
    if (res.headersSent) return void res.destroy();
    res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': '21' });
    res.end('Internal Server Error');
  }
}

const headerText = (v: number | string | string[] | undefined): string | null =>
  v === undefined ? null : Array.isArray(v) ? v.join(', ') : String(v);
