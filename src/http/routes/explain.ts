// POST /v1/graphql/explain (part of the metadata API, admin only): SQL and Postgres plan per root field.
// Errors use the metadata shape with their own status.
import type Router from '@koa/router';
import { EngineError, isEngineError, metadataErrorBody } from '../../core/errors.js';
import { handleGraphQLExplain } from '../../execute/graphql.js';
import { readJson } from '../body.js';
import { sessionFor } from '../session.js';
import { showInternal } from '../../config/internal-errors.js';
import type { Runtime } from '../runtime.js';
import type { Session } from '../../auth/session.js';

export function explainRoutes(router: Router, rt: Runtime): void {
  router.post('/v1/graphql/explain', async (ctx) => {
    const requestId = ctx.state.requestId as string;
    let session: Session | null = null;
    ctx.type = 'application/json';
    try {
      session = await sessionFor(ctx.req, rt);
      ctx.state.userVars = session.variables;
      const body = await readJson(ctx);
      if (!rt.store.ready) throw new EngineError('unexpected', rt.store.problem ?? 'metadata not loaded yet', { status: 500 });
      const r = await handleGraphQLExplain({ pool: rt.pool, reads: rt.reads, state: rt.store.get(), features: rt.features, session, config: rt.config, requestId }, body);
      ctx.status = r.status;
      ctx.body = r.body;
      ctx.state.error = r.error;
    } catch (e) {
      if (!isEngineError(e)) throw e;
      ctx.status = e.status;
      ctx.body = metadataErrorBody(e, showInternal(session, rt.config));
      ctx.state.error = e;
    }
  });
}
