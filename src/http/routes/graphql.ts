// POST /v1/graphql: session, then the GraphQL executor; errors are always HTTP 200 with an `errors` body.
// POST /v1alpha1/graphql (legacy): the same, but an error answers with its own status (400, 401, 500).
import type { IncomingMessage } from 'node:http';
import type Router from '@koa/router';
import type Koa from 'koa';
import { EngineError, graphqlErrorObject, isEngineError } from '../../core/errors.js';
import { handleGraphQLRequest } from '../../execute/graphql.js';
import { handleRelayRequest } from '../../execute/relay.js';
import { readJsonBody } from '../body.js';
import { sessionFor, showInternal } from '../session.js';
import type { Runtime } from '../runtime.js';
import type { Session } from '../../auth/session.js';
import type { GraphQLRequest } from '../../execute/request.js';
import type { GraphQLResult } from '../../execute/run.js';
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

/** A GraphQL endpoint's answer, independent of koa (the plain-http fast path in ../fast-path.ts uses it too). */
export interface GraphQLReply {
  status: number;
  /** Body JSON text; the content type is always application/json. */
  body: string;
  /** Response headers besides the content type, in the order they were set. */
  headers: [string, string][];
  /** The session's variables, once resolved (for the request log). */
  userVars?: Record<string, string>;
  /** The error when the request (a single one, not a batch) failed (for the request log). */
  error?: EngineError;
  /** The GraphQL request, once parsed (for the request log). */
  query?: GraphQLRequest;
  /** The (first) operation's type, once known (for the request metrics). */
  operationType?: string;
}

export async function serveGraphQL(req: IncomingMessage, rt: Runtime, requestId: string, legacy: boolean, relay = false): Promise<GraphQLReply> {
  let session: Session | null = null;
  const reply: GraphQLReply = { status: 200, body: '', headers: [] };
  try {
    session = await sessionFor(req, rt);
    reply.userVars = session.variables;
    const body = await readJsonBody(req);
    if (!rt.store.ready) throw new EngineError('unexpected', rt.store.problem ?? 'metadata not loaded yet', { status: 500 });
    const state = rt.store.get();
    reply.headers.push([METADATA_VERSION_HEADER, String(state.seq)]);
    const r: GraphQLResult & { errorStatus?: number; setCookie?: string[] } = await (relay ? handleRelayRequest : handleGraphQLRequest)(
      { pool: rt.pool, state, session, config: rt.config, requestId, clientHeaders: req.headers }, body,
    );
    reply.status = legacy && r.status === 200 ? (r.errorStatus ?? legacyStatus(r.body)) : r.status;
    if (r.headers) for (const k in r.headers) reply.headers.push([k, r.headers[k]]);
    for (const c of r.setCookie ?? []) reply.headers.push(['Set-Cookie', c]);
    reply.body = r.body;
    reply.error = r.error;
    reply.query = r.request;
    reply.operationType = r.operationType;
  } catch (e) {
    const err = isEngineError(e)
      ? e
      : new EngineError('unexpected', 'an unexpected error occurred', { status: 500, internal: { message: (e as Error).message } });
    reply.status = legacy ? err.status : 200;
    reply.body = JSON.stringify({ errors: [graphqlErrorObject(err, showInternal(session, rt.config))] });
    reply.error = err;
  }
  return reply;
}

async function serve(ctx: Koa.Context, rt: Runtime, legacy: boolean, relay = false): Promise<void> {
  ctx.type = 'application/json';
  const r = await serveGraphQL(ctx.req, rt, ctx.state.requestId as string, legacy, relay);
  ctx.state.userVars = r.userVars;
  ctx.state.error = r.error;
  ctx.state.query = r.query;
  ctx.state.operationType = r.operationType;
  for (const [k, v] of r.headers) {
    if (k.toLowerCase() === 'set-cookie') ctx.append(k, v);
    else ctx.set(k, v);
  }
  ctx.status = r.status;
  ctx.body = r.body;
}
