// The HTTP server's request listener: the request pipeline (./pipeline.ts: request id, CORS, error bodies, gzip,
// log line, metrics, for every route) in front of the routes. The GraphQL endpoints are direct routes of the
// pipeline; the others are a koa app whose only middleware hands each request's outcome back to the pipeline.
// Unknown paths and disabled APIs answer 404 with the metadata-style body.
import type http from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import { EngineError } from '../core/errors.js';
import { log } from '../core/log.js';
import { isApiEnabled } from '../config/config.js';
import type { Runtime } from './runtime.js';
import { healthRoutes } from './routes/health.js';
import { queryRoutes } from './routes/query.js';
import { graphqlRoutes } from './routes/graphql.js';
import { configRoutes } from './routes/config.js';
import { explainRoutes } from './routes/explain.js';
import { pgDumpRoutes } from './routes/pgdump.js';
import { consoleRoutes } from './routes/console.js';
import { metricsRoutes } from './routes/metrics.js';
import { finish, requestPipeline, strayReply, type DirectRoute, type Reply, type RequestScope } from './pipeline.js';

export const NOT_FOUND_BODY = { path: '$', error: 'resource does not exist', code: 'not-found' };
/** The same as an error, for the request log. */
const NOT_FOUND = new EngineError('not-found', NOT_FOUND_BODY.error, { status: 404 });

/** The request's scope, for the koa middleware (koa's callback only takes the request and the response). */
const SCOPE = Symbol('request scope');
type Scoped = http.IncomingMessage & { [SCOPE]?: RequestScope };

export function createHandler(rt: Runtime): http.RequestListener {
  const direct: DirectRoute[] = isApiEnabled(rt.config, 'graphql') ? graphqlRoutes(rt) : [];
  const router = new Router();
  const koa = createApp(rt, router).callback();
  // The routes' paths (known once they are all registered): the metrics' endpoint label stays a bounded set.
  const endpoints = (): ReadonlySet<string> => new Set([...direct.map((r) => r.path), ...router.stack.map((l) => String(l.path))]);
  return requestPipeline(rt, direct, (req, res, scope) => {
    (req as Scoped)[SCOPE] = scope;
    void koa(req, res);
  }, endpoints);
}

/** The koa app of the routes other than the GraphQL endpoints; it writes no response itself (see the middleware). */
function createApp(rt: Runtime, router: Router): Koa {
  const app = new Koa();
  app.proxy = true;
  app.use(toPipeline(rt));
  healthRoutes(router, rt);
  if (isApiEnabled(rt.config, 'metadata')) {
    queryRoutes(router, rt);
    explainRoutes(router, rt);
  }
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
 * The koa app's one middleware: runs the routes, then gives the outcome to the pipeline as a Reply (routes leave
 * what the request log reports in ctx.state: userVars, error, query) and tells koa not to respond itself.
 */
function toPipeline(rt: Runtime): Koa.Middleware {
  return async (ctx, next) => {
    const scope = (ctx.req as Scoped)[SCOPE]!;
    ctx.state.requestId = scope.requestId;
    ctx.respond = false;
    let reply: Reply;
    try {
      await next();
      const body: unknown = ctx.body;
      let text = body === undefined || body === null ? null : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
      if (text === null && ctx.status !== 204 && ctx.status !== 205 && ctx.status !== 304) {
        // What koa answers when a route leaves no body: the status message as text.
        text = ctx.message || String(ctx.status);
        ctx.type = 'text';
      }
      reply = {
        status: ctx.status,
        body: text,
        userVars: ctx.state.userVars as Record<string, string> | undefined,
        error: ctx.state.error as EngineError | undefined,
        query: ctx.state.query,
        operationType: ctx.state.operationType as string | undefined,
      };
    } catch (e) {
      // The route's headers are on the response already: the error's content type replaces theirs.
      reply = { ...strayReply(e, scope.requestId), headers: undefined };
    }
    finish(rt, ctx.req, ctx.res, scope, reply);
  };
}
