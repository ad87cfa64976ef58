// The koa app: request ids, one log line per request, one error path, CORS, routes (min-metadata-version waits: sessionFor, after auth).
// Unknown paths and disabled APIs answer 404 with the metadata-style body. `createHandler` puts a plain-http fast
// path for POST /v1/graphql in front of it (./fast-path.ts), with the same behaviour through the same helpers.
import type http from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import { gzipSync } from 'node:zlib';
import { EngineError, metadataErrorBody } from '../core/errors.js';
import { log } from '../core/log.js';
import { isApiEnabled } from '../config.js';
import type { Runtime } from './runtime.js';
import { healthRoutes } from './routes/health.js';
import { queryRoutes } from './routes/query.js';
import { graphqlRoutes } from './routes/graphql.js';
import { configRoutes } from './routes/config.js';
import { explainRoutes } from './routes/explain.js';
import { pgDumpRoutes } from './routes/pgdump.js';
import { consoleRoutes } from './routes/console.js';
import { metricsRoutes } from './routes/metrics.js';
import { graphqlFastPath } from './fast-path.js';
import { GZIP_MIN_LENGTH, acceptsGzip, requestIdOf, strayError } from './request-common.js';
import { corsHeaders, corsPolicy, preflightHeaders } from './cors.js';
import { logRequest } from './request-log.js';

export const NOT_FOUND_BODY = { path: '$', error: 'resource does not exist', code: 'not-found' };
/** The same as an error, for the request log. */
const NOT_FOUND = new EngineError('not-found', NOT_FOUND_BODY.error, { status: 404 });

export function createApp(rt: Runtime): Koa {
  const app = new Koa();
  app.proxy = true;
  const router = new Router();
  app.use(requestLog(rt, router));
  app.use(cors(rt));
  app.use(gzip());
  healthRoutes(router, rt);
  if (isApiEnabled(rt.config, 'metadata')) {
    queryRoutes(router, rt);
    explainRoutes(router, rt);
  }
  if (isApiEnabled(rt.config, 'graphql')) graphqlRoutes(router, rt);
  if (isApiEnabled(rt.config, 'config')) configRoutes(router, rt);
  if (isApiEnabled(rt.config, 'pgdump')) pgDumpRoutes(router, rt);
  if (rt.config.enableConsole) consoleRoutes(router);
  if (isApiEnabled(rt.config, 'metrics')) metricsRoutes(router, rt);
  app.use(router.routes());
  app.use(async (ctx) => {
    ctx.status = 404;
    ctx.body = NOT_FOUND_BODY;
    ctx.state.error = NOT_FOUND;
  });
  app.on('error', (e: unknown) => log.error('http-error', { error: e }));
  return app;
}

/**
 * The server's request listener: the koa app, except that `POST /v1/graphql` (exactly that URL: anything else, e.g.
 * a query string, goes through koa) is answered by the fast path, which skips koa's per-request context, middleware
 * chain and router (about a fifth of the CPU time of a small query).
 */
export function createHandler(rt: Runtime): http.RequestListener {
  const koa = createApp(rt).callback();
  if (!isApiEnabled(rt.config, 'graphql')) return koa;
  const fast = graphqlFastPath(rt);
  return (req, res) => {
    if (req.method === 'POST' && req.url === '/v1/graphql') fast(req, res);
    else void koa(req, res);
  };
}

/**
 * Sets x-request-id, catches stray errors, writes the http-log line. Routes leave what the line reports in
 * ctx.state: userVars (the session's variables), error (an EngineError), query (the GraphQL request).
 */
function requestLog(rt: Runtime, router: Router): Koa.Middleware {
  let endpoints: Set<string> | null = null;
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const requestId = requestIdOf(ctx.req.headers['x-request-id']);
    ctx.state.requestId = requestId;
    ctx.set('x-request-id', requestId);
    try {
      await next();
    } catch (e) {
      const err = strayError(e, requestId);
      ctx.status = err.status;
      ctx.body = metadataErrorBody(err, false);
      ctx.state.error = err;
    }
    // The routes' paths (known once they are all registered): the metrics' endpoint label stays a bounded set.
    endpoints ??= new Set(router.stack.map((l) => String(l.path)));
    logRequest({
      metrics: rt.metrics,
      endpoint: endpoints!.has(ctx.path) ? ctx.path : 'other',
      operationType: ctx.state.operationType as string | undefined,
      req: ctx.req,
      method: ctx.method,
      url: ctx.path,
      status: ctx.status,
      started,
      requestId,
      responseSize: ctx.response.length ?? 0,
      contentEncoding: ctx.response.get('Content-Encoding') || null,
      userVars: ctx.state.userVars as Record<string, string> | undefined,
      error: ctx.state.error as EngineError | undefined,
      query: ctx.state.query,
    });
  };
}

function cors(rt: Runtime): Koa.Middleware {
  const allowed = corsPolicy(rt.config);
  return async (ctx, next) => {
    const origin = allowed(ctx.get('origin'));
    if (origin === null) return next();
    for (const [k, v] of corsHeaders(origin)) ctx.set(k, v);
    if (ctx.method === 'OPTIONS') {
      for (const [k, v] of preflightHeaders(ctx.get('access-control-request-headers'))) ctx.set(k, v);
      ctx.status = 204;
      return;
    }
    return next();
  };
}

/** gzip for /v1/query and /v1/graphql when the client accepts it (as the original does). */
function gzip(): Koa.Middleware {
  return async (ctx, next) => {
    await next();
    if (!(ctx.path === '/v1/query' || ctx.path === '/v1/graphql')) return;
    if (!acceptsGzip(ctx.get('accept-encoding'))) return;
    const body: unknown = ctx.body;
    const text = typeof body === 'string' ? body : body !== undefined && body !== null ? JSON.stringify(body) : null;
    if (text === null || text.length < GZIP_MIN_LENGTH) return;
    const type = ctx.response.type;
    ctx.body = gzipSync(Buffer.from(text, 'utf8'));
    ctx.type = type || 'application/json';
    ctx.set('Content-Encoding', 'gzip');
  };
}
