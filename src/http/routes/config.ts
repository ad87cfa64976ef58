// GET /v1alpha1/config (SPEC 4.5): what this server is configured with. Admin only.
import type Router from '@koa/router';
import { EngineError, isEngineError, metadataErrorBody } from '../../core/errors.js';
import { ENGINE_VERSION } from '../../version.js';
import type { ServerConfig } from '../../config.js';
import { sessionFor } from '../session.js';
import type { Runtime } from '../runtime.js';

export const DEFAULT_CLAIMS_NAMESPACE = 'https://engine.io/jwt/claims';

export function serverConfigBody(c: ServerConfig): Record<string, unknown> {
  const jwt = c.jwtSecret;
  return {
    version: ENGINE_VERSION,
    is_admin_secret_set: c.adminSecret !== undefined,
    is_auth_hook_set: c.authHook !== undefined,
    is_jwt_set: jwt !== undefined,
    jwt:
      jwt === undefined
        ? null
        : {
            claims_namespace: typeof jwt.claims_namespace === 'string' ? jwt.claims_namespace : DEFAULT_CLAIMS_NAMESPACE,
            claims_format: jwt.claims_format === 'stringified_json' ? 'stringified_json' : 'json',
          },
    is_allow_list_enabled: c.enableAllowlist,
    // The original reports the refetch delay in seconds.
    live_queries: { batch_size: c.liveQueries.batchSize, refetch_delay: c.liveQueries.refetchInterval / 1000 },
    console_assets_dir: null,
  };
}

export function configRoutes(router: Router, rt: Runtime): void {
  router.get('/v1alpha1/config', async (ctx) => {
    try {
      const session = await sessionFor(ctx.req.headers, rt.config);
      ctx.state.role = session.role;
      if (session.role !== 'admin') throw new EngineError('access-denied', 'You have to be admin to access this endpoint');
      ctx.body = serverConfigBody(rt.config);
    } catch (e) {
      if (!isEngineError(e)) throw e;
      ctx.status = e.status;
      ctx.body = metadataErrorBody(e, false);
      ctx.state.errorCode = e.code;
    }
  });
}
