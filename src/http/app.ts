// The koa app: request ids, one log line per request, one error path, CORS, min-metadata-version waits, routes.
// Unknown paths and disabled APIs answer 404 with the metadata-style body.
import Koa from 'koa';
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { EngineError, isEngineError, metadataErrorBody } from '../core/errors.js';
import { log } from '../core/log.js';
import { isApiEnabled } from '../config.js';
import type { Runtime } from './runtime.js';
import { healthRoutes } from './routes/health.js';
import { queryRoutes } from './routes/query.js';
import { graphqlRoutes } from './routes/graphql.js';
import { configRoutes } from './routes/config.js';
import { explainRoutes } from './routes/explain.js';
import { pgDumpRoutes } from './routes/pgdump.js';

export const NOT_FOUND_BODY = { path: '$', error: 'resource does not exist', code: 'not-found' };

export function createApp(rt: Runtime): Koa {
  const app = new Koa();
  app.proxy = true;
  app.use(requestLog());
  app.use(cors(rt));
  app.use(gzip());
  app.use(minVersion(rt));
  const router = new Router();
  healthRoutes(router, rt);
  if (isApiEnabled(rt.config, 'metadata')) {
    queryRoutes(router, rt);
    explainRoutes(router, rt);
  }
  if (isApiEnabled(rt.config, 'graphql')) graphqlRoutes(router, rt);
  if (isApiEnabled(rt.config, 'config')) configRoutes(router, rt);
  if (isApiEnabled(rt.config, 'pgdump')) pgDumpRoutes(router, rt);
  app.use(router.routes());
  app.use(async (ctx) => {
    ctx.status = 404;
    ctx.body = NOT_FOUND_BODY;
  });
  app.on('error', (e: unknown) => log.error('http-error', { error: e }));
  return app;
}

/** Sets x-request-id, catches stray errors, logs method/path/status/ms/request id (and the error code). */
function requestLog(): Koa.Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const header = ctx.get('x-request-id');
    const requestId = header !== '' ? header : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('x-request-id', requestId);
    try {
      await next();
    } catch (e) {
      const err = isEngineError(e) ? e : new EngineError('unexpected', 'an unexpected error occurred', { status: 500, internal: String(e) });
      if (!isEngineError(e)) log.error('http-unexpected', { request_id: requestId, error: e });
      ctx.status = err.status;
      ctx.body = metadataErrorBody(err, false);
      ctx.state.errorCode = err.code;
    }
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const fields: Record<string, unknown> = {
      method: ctx.method,
      path: ctx.path,
      status: ctx.status,
      ms: Math.round(ms * 100) / 100,
      request_id: requestId,
    };
    if (ctx.state.errorCode !== undefined) fields.error_code = ctx.state.errorCode;
    if (ctx.state.role !== undefined) fields.role = ctx.state.role;
    if (ctx.status >= 500) log.error('http-log', fields);
    else log.info('http-log', fields);
  };
}

/** CORS per --cors-domain (default: every origin), off with --disable-cors. */
function cors(rt: Runtime): Koa.Middleware {
  const domains = rt.config.corsDomain.split(',').map((d) => d.trim()).filter(Boolean);
  const allowAll = domains.includes('*');
  const patterns = domains.filter((d) => d !== '*').map((d) => new RegExp(`^${d.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`));
  return async (ctx, next) => {
    const origin = ctx.get('origin');
    if (rt.config.disableCors || origin === '' || !(allowAll || patterns.some((p) => p.test(origin)))) return next();
    ctx.set('Access-Control-Allow-Origin', origin);
    ctx.set('Access-Control-Allow-Credentials', 'true');
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', 'GET,POST,OPTIONS');
      ctx.set('Access-Control-Allow-Headers', ctx.get('access-control-request-headers') || '*');
      ctx.set('Access-Control-Max-Age', '1728000');
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
    if (!/\bgzip\b/.test(ctx.get('accept-encoding'))) return;
    const body: unknown = ctx.body;
    const text = typeof body === 'string' ? body : body !== undefined && body !== null ? JSON.stringify(body) : null;
    if (text === null || text.length < 1024) return;
    const type = ctx.response.type;
    ctx.body = gzipSync(Buffer.from(text, 'utf8'));
    ctx.type = type || 'application/json';
    ctx.set('Content-Encoding', 'gzip');
  };
}

/** `x-engine-min-metadata-version: N`: wait (bounded) until this instance has folded seq N. */
function minVersion(rt: Runtime): Koa.Middleware {
  return async (ctx, next) => {
    const raw = ctx.get('x-engine-min-metadata-version');
    if (raw !== '' && /^\d+$/.test(raw) && rt.store.ready) {
      const want = Number(raw);
      if (rt.store.seq < want) {
        rt.sync?.trigger();
        await rt.store.waitFor(want, rt.config.minVersionWait);
      }
    }
    return next();
  };
}
