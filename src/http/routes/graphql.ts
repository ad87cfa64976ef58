// POST /v1/graphql: session, then the GraphQL executor; errors are always HTTP 200 with an `errors` body.
// POST /v1alpha1/graphql (legacy): the same, but an error answers with its own status (400, 401, 500).
import type Router from '@koa/router';
import type Koa from 'koa';
import { EngineError, graphqlErrorObject, isEngineError } from '../../core/errors.js';
import { handleGraphQLRequest } from '../../execute/graphql.js';
import { handleRelayRequest } from '../../execute/relay.js';
import { readJson } from '../body.js';
import { sessionFor, showInternal } from '../session.js';
import type { Runtime } from '../runtime.js';
import type { Session } from '../../auth/session.js';
import { METADATA_VERSION_HEADER } from './query.js';

export function graphqlRoutes(router: Router, rt: Runtime): void {
  router.post('/v1/graphql', (ctx) => serve(ctx, rt, false));
  router.post('/v1alpha1/graphql', (ctx) => serve(ctx, rt, true));
  router.post('/v1beta1/relay', (ctx) => serve(ctx, rt, false, true));
}

/** Status of a legacy-endpoint error body: internal errors 500, everything else a request error. */
function legacyStatus(body: string): number {
  if (!body.startsWith('{"errors"')) return 200;
  try {
    const parsed = JSON.parse(body) as { data?: unknown; errors?: Array<{ extensions?: { code?: string } }> };
    if (parsed.data !== undefined) return 200;
    return parsed.errors?.[0]?.extensions?.code === 'unexpected' ? 500 : 400;
  } catch {
    return 200;
  }
}

async function serve(ctx: Koa.Context, rt: Runtime, legacy: boolean, relay = false): Promise<void> {
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
    const r = await (relay ? handleRelayRequest : handleGraphQLRequest)({ pool: rt.pool, state, session, config: rt.config, requestId }, body);
    ctx.status = legacy && r.status === 200 ? legacyStatus(r.body) : r.status;
    for (const [k, v] of Object.entries(r.headers ?? {})) ctx.set(k, v);
    ctx.body = r.body;
  } catch (e) {
    const err = isEngineError(e)
      ? e
      : new EngineError('unexpected', 'an unexpected error occurred', { status: 500, internal: { message: (e as Error).message } });
    ctx.status = legacy ? err.status : 200;
    ctx.body = JSON.stringify({ errors: [graphqlErrorObject(err, showInternal(session, rt.config))] });
    ctx.state.errorCode = err.code;
  }
}
