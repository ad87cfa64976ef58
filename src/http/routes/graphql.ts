// POST /v1/graphql: session, then the GraphQL executor; errors are always HTTP 200 with an `errors` body.
// POST /v1alpha1/graphql (legacy): the same, but an error answers with its own status (400, 401, 500).
// POST /v1beta1/relay: the Relay schema. All three are direct routes of the request pipeline (../pipeline.ts).
import type { IncomingMessage } from 'node:http';
import { EngineError, graphqlErrorObject, isEngineError } from '../../core/errors.js';
import { graphqlRequest, MIN_LSN_HEADER, withActionReply, type HandledResult } from '../../execute/graphql.js';
import { handleRelayRequest } from '../../execute/relay.js';
import { bodyNow, parseJsonBody, readBody } from '../body.js';
import { sessionNow } from '../session.js';
import { showInternal } from '../../config/internal-errors.js';
import type { Runtime } from '../runtime.js';
import type { Session } from '../../auth/session.js';
import type { GraphQLRequest } from '../../graphql/request-body.js';
import type { ActionReply } from '../../execute/context.js';
import type { GraphQLResult } from '../../execute/result.js';
import { METADATA_VERSION_HEADER } from './query.js';
import { JSON_TYPE, type DirectRoute, type Reply } from '../pipeline.js';

export function graphqlRoutes(rt: Runtime): DirectRoute[] {
  return [
    { method: 'POST', path: '/v1/graphql', run: (req, scope, done) => serveGraphQL(req, rt, scope.requestId, false, false, done) },
    { method: 'POST', path: '/v1alpha1/graphql', run: (req, scope, done) => serveGraphQL(req, rt, scope.requestId, true, false, done) },
    { method: 'POST', path: '/v1beta1/relay', run: (req, scope, done) => serveGraphQL(req, rt, scope.requestId, false, true, done) },
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

/** One request on a GraphQL endpoint, from its session to its reply. */
interface Exchange {
  req: IncomingMessage;
  rt: Runtime;
  requestId: string;
  legacy: boolean;
  relay: boolean;
  session: Session | null;
  reply: GraphQLReply;
  done: (reply: GraphQLReply) => void;
}

/**
 * Serves one request: `done` gets the reply, once. Written as steps that call each other (session, body, answer)
 * rather than one async function: with a session known from the headers and a cached plan, the request's only
 * promise is its statement's, where awaiting the session, the body and the answer cost three more and their
 * microtasks. A session that needs I/O (a JWT, an auth hook) or a new plan is a promise, followed by a then.
 */
export function serveGraphQL(req: IncomingMessage, rt: Runtime, requestId: string, legacy: boolean, relay: boolean, done: (reply: GraphQLReply) => void): void {
  const x: Exchange = {
    req, rt, requestId, legacy, relay, session: null, done,
    // Every member the pipeline reads present from the start (one object shape for every reply).
    reply: { status: 200, body: '', contentType: JSON_TYPE, headers: [], userVars: undefined, error: undefined, query: undefined, operationType: undefined },
  };
  let session: Session | Promise<Session>;
  try {
    session = sessionNow(req, rt);
  } catch (e) {
    return failed(x, e);
  }
  if (session instanceof Promise) session.then((s) => withSession(x, s), (e: unknown) => failed(x, e));
  else withSession(x, session);
}

function withSession(x: Exchange, session: Session): void {
  x.session = session;
  x.reply.userVars = session.variables;
  const text = bodyNow(x.req);
  if (text !== null) withBody(x, text);
  else readBody(x.req, (e, body) => (e ? failed(x, e) : withBody(x, body)));
}

function withBody(x: Exchange, text: string): void {
  const { rt, req, reply } = x;
  const actionReply: ActionReply = { setCookie: [] };
  let pending: GraphQLResult | Promise<GraphQLResult>;
  try {
    const body = parseJsonBody(text);
    if (!rt.store.ready) throw new EngineError('unexpected', rt.store.problem ?? 'metadata not loaded yet', { status: 500 });
    const state = rt.store.get();
    reply.headers.push([METADATA_VERSION_HEADER, String(state.seq)]);
    const minLsn = rt.reads?.minLsn(headerText(req.headers[MIN_LSN_HEADER]));
    const ctx = {
      pool: rt.pool, reads: rt.reads, minLsn, state, features: rt.features, session: x.session!, config: rt.config, requestId: x.requestId, clientHeaders: req.headers,
    };
    pending = x.relay ? handleRelayRequest(ctx, body, actionReply) : graphqlRequest(ctx, body, actionReply);
  } catch (e) {
    return failed(x, e);
  }
  // A plan-cache hit of a plan without a statement answers at once: no then for it.
  if (pending instanceof Promise) pending.then((r) => answered(x, r, actionReply), (e: unknown) => failed(x, e));
  else answered(x, pending, actionReply);
}

function answered(x: Exchange, result: GraphQLResult, actionReply: ActionReply): void {
  const { reply } = x;
  try {
    const r: HandledResult = withActionReply(result, actionReply);
    reply.status = x.legacy && r.status === 200 ? (r.errorStatus ?? legacyStatus(r.body)) : r.status;
    if (r.headers) for (const k in r.headers) reply.headers.push([k, r.headers[k]]);
    for (const c of r.setCookie ?? []) reply.headers.push(['Set-Cookie', c]);
    reply.body = r.body;
    reply.error = r.error;
    reply.query = r.request;
    reply.operationType = r.operationType;
  } catch (e) {
    return failed(x, e);
  }
  x.done(reply);
}

/** The request failed as a whole: an `errors` body (HTTP 200, or the error's own status on the legacy endpoint). */
function failed(x: Exchange, e: unknown): void {
  const { reply } = x;
  const err = isEngineError(e)
    ? e
    : new EngineError('unexpected', 'an unexpected error occurred', { status: 500, internal: { message: (e as Error).message } });
  reply.status = x.legacy ? err.status : 200;
  reply.body = JSON.stringify({ errors: [graphqlErrorObject(err, showInternal(x.session, x.rt.config))] });
  reply.error = err;
  x.done(reply);
}
