// POST /v1/graphql/explain (part of the metadata API, admin only): SQL and Postgres plan per root field.
import type Router from '@koa/router';
import { isEngineError, metadataErrorBody } from '../../core/errors.js';
import { handleExplainRequest } from '../../execute/explain.js';
import { prepareOperation } from '../../graphql/prepare.js';
import { readJson } from '../body.js';
import { sessionFor, showInternal } from '../session.js';
import type { Runtime } from '../runtime.js';
import type { Session } from '../../auth/session.js';

export function explainRoutes(router: Router, rt: Runtime): void {
  router.post('/v1/graphql/explain', async (ctx) => {
    let session: Session | null = null;
    ctx.type = 'application/json';
    try {
      session = await sessionFor(ctx.req.headers, rt);
      ctx.state.role = session.role;
      const body = await readJson(ctx);
      const r = await handleExplainRequest(
        { pool: rt.pool, state: rt.store.get(), session, stringifyNumeric: rt.config.stringifyNumericTypes, prepare: prepareOperation },
        body,
        showInternal(session, rt.config),
      );
      ctx.status = r.status;
      ctx.body = r.body;
    } catch (e) {
      if (!isEngineError(e)) throw e;
      ctx.status = e.status;
      ctx.body = metadataErrorBody(e, showInternal(session, rt.config));
      ctx.state.errorCode = e.code;
    }
  });
}
