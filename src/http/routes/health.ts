// GET /healthz (200 once metadata is loaded and the database answers) and GET /v1/version.
// GET /healthz?strict=true (readiness): also 500 when the metadata listener has been down for longer than the
// poll interval (this instance may serve stale metadata) or when metadata is inconsistent.
import type Router from '@koa/router';
import { ENGINE_VERSION } from '../../version.js';
import type { Runtime } from '../runtime.js';

/** Why a strict readiness check fails, or null. */
function notReady(rt: Runtime): string | null {
  const since = rt.sync?.disconnectedSince ?? null;
  const down = since === null ? 0 : Date.now() - since;
  if (rt.sync === null || down > rt.config.syncPollInterval) {
    return `metadata listener disconnected for ${rt.sync === null ? 'ever' : `${down} ms`} (poll interval ${rt.config.syncPollInterval} ms)`;
  }
  if (rt.store.get().cache.inconsistent.length > 0) return 'inconsistent objects in schema';
  return null;
}

export function healthRoutes(router: Router, rt: Runtime): void {
  router.get('/healthz', async (ctx) => {
    ctx.type = 'text/plain';
    if (!rt.store.ready) {
      ctx.status = 500;
      ctx.body = `ERROR: ${rt.store.problem ?? 'metadata not loaded'}`;
      return;
    }
    try {
      await rt.pool.query('SELECT 1');
    } catch (e) {
      ctx.status = 500;
      ctx.body = `ERROR: database unreachable: ${(e as Error).message}`;
      return;
    }
    const problem = ctx.query.strict === 'true' ? notReady(rt) : null;
    if (problem !== null) {
      ctx.status = 500;
      ctx.body = `ERROR: ${problem}`;
      return;
    }
    ctx.status = 200;
    ctx.body = rt.store.get().cache.inconsistent.length > 0 ? 'WARN: inconsistent objects in schema' : 'OK';
  });
  router.get('/v1/version', (ctx) => {
    ctx.body = { version: ENGINE_VERSION };
  });
}
