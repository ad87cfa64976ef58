// GET /v1alpha1/config (SPEC 4.5): what this server is configured with. Admin only.
import type Router from '@koa/router';
import { EngineError, isEngineError, metadataErrorBody } from '../../core/errors.js';
import { ENGINE_VERSION } from '../../version.js';
import type { ServerConfig } from '../../config/config.js';
import { authConfigSummary, type AuthConfig } from '../../auth/config.js';
import { sessionFor } from '../session.js';
import type { Runtime } from '../runtime.js';

export function serverConfigBody(c: ServerConfig, auth: AuthConfig): Record<string, unknown> {
  return {
    version: ENGINE_VERSION,
    ...authConfigSummary(auth),
    is_allow_list_enabled: c.enableAllowlist,
    // The original reports the refetch delay in seconds.
    live_queries: { batch_size: c.liveQueries.batchSize, refetch_delay: c.liveQueries.refetchInterval / 1000 },
    console_assets_dir: null,
    // Ours: how many read replicas this instance routes reads to, and when (src/replicas).
    read_replicas: { count: c.readReplicaUrls.length, consistency: c.replicaConsistency },
  };
}

export function configRoutes(router: Router, rt: Runtime): void {
  router.get('/v1alpha1/config', async (ctx) => {
    try {
      const session = await sessionFor(ctx.req, rt);
      ctx.state.userVars = session.variables;
      if (session.role !== 'admin') throw new EngineError('access-denied', 'You have to be admin to access this endpoint');
      ctx.body = serverConfigBody(rt.config, rt.authConfig);
    } catch (e) {
      if (!isEngineError(e)) throw e;
      ctx.status = e.status;
      ctx.body = metadataErrorBody(e, false);
      ctx.state.error = e;
    }
  });
}
