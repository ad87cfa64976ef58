// GET /healthz (200 once metadata is loaded and the database answers) and GET /v1/version.
import type Router from '@koa/router';
import { ENGINE_VERSION } from '../../version.js';
import type { Runtime } from '../runtime.js';

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
    ctx.status = 200;
    ctx.body = rt.store.get().cache.inconsistent.length > 0 ? 'WARN: inconsistent objects in schema' : 'OK';
  });
  router.get('/v1/version', (ctx) => {
    ctx.body = { version: ENGINE_VERSION };
  });
}
