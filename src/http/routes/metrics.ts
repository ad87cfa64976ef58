// GET /v1/metrics (enabled-apis `metrics`): Prometheus exposition text. Admin only, or `Authorization: Bearer
// <--metrics-secret>` when one is set (so a scraper needs no admin secret).
import type Router from '@koa/router';
import { timingSafeEqual } from 'node:crypto';
import { EngineError, isEngineError, metadataErrorBody } from '../../core/errors.js';
import { sessionFor } from '../session.js';
import type { Runtime } from '../runtime.js';

const sameSecret = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export function metricsRoutes(router: Router, rt: Runtime): void {
  router.get('/v1/metrics', async (ctx) => {
    try {
      const secret = rt.config.metricsSecret;
      const auth = ctx.get('authorization');
      if (!(secret !== undefined && auth.startsWith('Bearer ') && sameSecret(auth.slice(7), secret))) {
        const session = await sessionFor(ctx.req, rt);
        ctx.state.userVars = session.variables;
        if (session.role !== 'admin') throw new EngineError('access-denied', 'You have to be admin to access this endpoint');
      }
      ctx.type = rt.metrics.contentType;
      ctx.body = await rt.metrics.scrape();
    } catch (e) {
      if (!isEngineError(e)) throw e;
      ctx.status = e.status;
      ctx.body = metadataErrorBody(e, false);
      ctx.state.error = e;
    }
  });
}
