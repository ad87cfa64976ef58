// POST /v1/graphql: session, then the GraphQL executor; errors are always HTTP 200 with an `errors` body.
import type Router from '@koa/router';
import { EngineError, graphqlErrorObject, isEngineError } from '../../core/errors.js';
import { handleGraphQLRequest } from '../../execute/graphql.js';
import { readJson } from '../body.js';
import { sessionFor, showInternal } from '../session.js';
import type { Runtime } from '../runtime.js';
import type { Session } from '../../auth/session.js';
import { METADATA_VERSION_HEADER } from './query.js';

export function graphqlRoutes(router: Router, rt: Runtime): void {
  router.post('/v1/graphql', async (ctx) => {
    const requestId = ctx.state.requestId as string;
    let session: Session | null = null;
    ctx.type = 'application/json';
    try {
      session = await sessionFor(ctx.req.headers, rt);
      ctx.state.role = session.role;
      const body = await readJson(ctx);
      if (!rt.store.ready) throw new EngineError('unexpected', rt.store.problem ?? 'metadata not loaded yet', { status: 500 });
      const state = rt.store.get();
      ctx.set(METADATA_VERSION_HEADER, String(state.seq));
      const r = await handleGraphQLRequest({ pool: rt.pool, state, session, config: rt.config, requestId }, body);
      ctx.status = r.status;
      for (const [k, v] of Object.entries(r.headers ?? {})) ctx.set(k, v);
      ctx.body = r.body;
    } catch (e) {
      const err = isEngineError(e)
        ? e
        : new EngineError('unexpected', 'an unexpected error occurred', { status: 500, internal: { message: (e as Error).message } });
      ctx.status = 200;
      ctx.body = JSON.stringify({ errors: [graphqlErrorObject(err, showInternal(session, rt.config))] });
      ctx.state.errorCode = err.code;
    }
  });
}
