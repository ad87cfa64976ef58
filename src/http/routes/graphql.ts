// POST /v1/graphql: session, then the GraphQL executor; errors are always HTTP 200 with an `errors` body.
// POST /v1alpha1/graphql (legacy): the same, but an error answers with its own status (400, 401, 500).
// POST /v1beta1/relay: the Relay schema. All three are direct routes of the request pipeline (../pipeline.ts).
import type { IncomingMessage } from 'node:http';
import { EngineError, graphqlErrorObject, isEngineError } from '../../core/errors.js';
import { graphqlRequest, MIN_LSN_HEADER, withActionReply, type HandledResult } from '../../execute/graphql.js';
import { handleRelayRequest } from '../../execute/relay.js';
import { bodyText, parseJsonBody } from '../body.js';
import { sessionFor } from '../session.js';
import { showInternal } from '../../config/internal-errors.js';
import type { Runtime } from '../runtime.js';
import type { Session } from '../../auth/session.js';
import type { GraphQLRequest } from '../../graphql/request-body.js';
import type { ActionReply } from '../../execute/context.js';
import { METADATA_VERSION_HEADER } from './query.js';
import { JSON_TYPE, type DirectRoute, type Reply } from '../pipeline.js';

export function graphqlRoutes(rt: Runtime): DirectRoute[] {
  return [
    { method: 'POST', path: '/v1/graphql', run: (req, scope) => serveGraphQL(req, rt, scope.requestId, false) },
    { method: 'POST', path: '/v1alpha1/graphql', run: (req, scope) => serveGraphQL(req, rt, scope.requestId, true) },
    { method: 'POST', path: '/v1beta1/relay', run: (req, scope) => serveGraphQL(req, rt, scope.requestId, false, true) },
  ];
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

/** A header's value (the first of repeated ones). */
const headerText = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** A GraphQL endpoint's answer (always JSON; its headers besides the content type in the order they were set). */
export type GraphQLReply = Reply & { body: string; headers: [string, string][]; query?: GraphQLRequest };

export async function serveGraphQL(req: IncomingMessage, rt: Runtime, requestId: string, legacy: boolean, relay = false): Promise<GraphQLReply> {
  let session: Session | null = null;
  // Every member the pipeline reads present from the start (one object shape for every reply).
  const reply: GraphQLReply = {
    status: 200, body: '', contentType: JSON_TYPE, headers: [], userVars: undefined, error: undefined, query: undefined, operationType: undefined,
  };
  try {
    session = await sessionFor(req, rt);
    reply.userVars = session.variables;
    const text = bodyText(req);
    const body = parseJsonBody(typeof text === 'string' ? text : await text);
    if (!rt.store.ready) throw new EngineError('unexpected', rt.store.problem ?? 'metadata not loaded yet', { status: 500 });
    const state = rt.store.get();
    reply.headers.push([METADATA_VERSION_HEADER, String(state.seq)]);
    const minLsn = rt.reads?.minLsn(headerText(req.headers[MIN_LSN_HEADER]));
    const ctx = { pool: rt.pool, reads: rt.reads, minLsn, state, features: rt.features, session, config: rt.config, requestId, clientHeaders: req.headers };
    // Awaited only when it is a promise (a plan-cache hit has the one of its query; an await of an answer at hand
    // would cost a microtask for nothing).
    const actionReply: ActionReply = { setCookie: [] };
    const pending = relay ? handleRelayRequest(ctx, body, actionReply) : graphqlRequest(ctx, body, actionReply);
    const r: HandledResult = withActionReply(pending instanceof Promise ? await pending : pending, actionReply);
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
