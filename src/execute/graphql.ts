// POST /v1/graphql: wires the GraphQL front (src/graphql/prepare.ts) to the executor (answer.ts), with what the
// features add (ExecutorFeatures: features.ts).
import type pg from 'pg';
import type { EngineState } from '../cache/state.js';
import type { Session } from '../auth/session.js';
import type { ServerConfig } from '../config/config.js';
import { showInternal } from '../config/internal-errors.js';
import { prepareOperation } from '../graphql/prepare.js';
import type { GraphQLResult } from './result.js';
import { executeGraphQL } from './answer.js';
import type { ActionReply, ExecuteContext, PrepareFn } from './context.js';
import { handleExplainRequest } from './explain.js';
import { checkAllowlist } from '../graphql/allowlist.js';
import type { SchemaExtensions } from '../graphql/role-schema.js';
import type { ExecutorFeatures, ReadRouting, RemoteContext } from './features.js';

export interface GraphQLRequestContext {
  pool: pg.Pool;
  state: EngineState;
  /** What actions and remote schemas add (the composition root's: src/features.ts). */
  features: ExecutorFeatures;
  session: Session;
  config: ServerConfig;
  requestId: string;
  /** The client's headers (actions with forward_client_headers pass them on). */
  clientHeaders?: Record<string, string | string[] | undefined>;
  /** Read replicas (src/replicas): where reads run; absent: on `pool`. */
  reads?: ReadRouting;
  /** The WAL position the request's reads must see (x-engine-min-lsn). */
  minLsn?: number;
}

/** With the allow-list on, a plan is only made (and cached per role, query and state) for an allowed query. */
const allowlisted = (prepareFn: PrepareFn): PrepareFn => (state, session, request, options) => {
  checkAllowlist(state.metadata, session.role, request.query);
  return prepareFn(state, session, request, options);
};
/** The GraphQL front over the role schemas with these extensions. */
export type Front = (extensions: SchemaExtensions) => PrepareFn;
const front: Front = (extensions) => (state, session, request, options) => prepareOperation(state, session, request, { ...options, extensions });

/**
 * The prepare function of a front over some extensions, with the allow-list or without: made once per front,
 * extensions and allow-list setting rather than two closures per request.
 */
const prepares = new WeakMap<Front, { plain: WeakMap<SchemaExtensions, PrepareFn>; allowlisted: WeakMap<SchemaExtensions, PrepareFn> }>();
let lastPrepare: { front: Front; extensions: SchemaExtensions; allowlist: boolean; prepare: PrepareFn } | null = null;
function prepareOf(front: Front, extensions: SchemaExtensions, allowlist: boolean): PrepareFn {
  // The one asked for last, without the two WeakMap lookups (every request asks, nearly always for the same one).
  const last = lastPrepare;
  if (last !== null && last.front === front && last.extensions === extensions && last.allowlist === allowlist) return last.prepare;
  let byFront = prepares.get(front);
  if (byFront === undefined) prepares.set(front, (byFront = { plain: new WeakMap(), allowlisted: new WeakMap() }));
  const made = allowlist ? byFront.allowlisted : byFront.plain;
  let prepare = made.get(extensions);
  if (prepare === undefined) {
    prepare = allowlist ? allowlisted(front(extensions)) : front(extensions);
    made.set(extensions, prepare);
  }
  lastPrepare = { front, extensions, allowlist, prepare };
  return prepare;
}

/** What the executor's context holds on every GraphQL endpoint; each passes its own front (the allow-list applies on top). */
export function baseExecuteContext(ctx: GraphQLRequestContext, front: Front): ExecuteContext {
  return {
    pool: ctx.pool,
    reads: ctx.reads,
    minLsn: ctx.minLsn ?? 0,
    preparedStatements: ctx.config.usePreparedStatements,
    state: ctx.state,
    session: ctx.session,
    stringifyNumeric: ctx.config.stringifyNumericTypes,
    planCacheSize: ctx.config.queryPlanCacheSize,
    showInternal: showInternal(ctx.session, ctx.config),
    connectionRetries: ctx.config.connectionRetries,
    txIsolation: ctx.config.txIsolation,
    requestId: ctx.requestId,
    prepare: prepareOf(front, ctx.features.extensions, ctx.config.enableAllowlist),
    // Every optional member present from the start: one object shape for every request's context (members added
    // later made several shapes, and the executor's reads of them megamorphic).
    planScope: undefined,
    operationType: undefined,
    runAction: ctx.features.runAction,
    clientHeaders: null,
    reply: undefined,
    remote: undefined,
    remoteJoins: ctx.features,
  };
}

/**
 * The executor's context for a GraphQL request on /v1/graphql or /v1alpha1/graphql, over HTTP or a websocket (there
 * `reply` is dropped: a websocket has no response headers). Requests selecting remote-schema fields go to the remote
 * schemas' feature (only states with remote schemas pay for the check).
 */
export function graphqlExecuteContext(ctx: GraphQLRequestContext, reply: ActionReply = { setCookie: [] }): ExecuteContext {
  const ec = baseExecuteContext(ctx, front);
  ec.clientHeaders = ctx.clientHeaders ?? null;
  ec.reply = reply;
  if (ctx.state.metadata.remote_schemas.length) {
    const rc: RemoteContext = {
      state: ctx.state, extensions: ctx.features.extensions, session: ctx.session, headers: ctx.clientHeaders ?? {}, showInternal: ec.showInternal,
      setCookie: reply.setCookie, cacheSize: ec.planCacheSize,
    };
    const { remoteAnswer } = ctx.features;
    ec.remote = (req, raw, db) => remoteAnswer(rc, req, raw, db);
  }
  return ec;
}

/** The WAL position after a request's writes (read replicas: a later read sends it as x-engine-min-lsn). */
export const WRITE_LSN_HEADER = 'x-engine-write-lsn';
export const MIN_LSN_HEADER = 'x-engine-min-lsn';

/** A GraphQL endpoint's answer: the executor's, with what actions and remote schemas add to the response. */
export type HandledResult = GraphQLResult & { errorStatus?: number; setCookie?: string[] };

/**
 * One POST /v1/graphql body (already JSON-parsed): always HTTP 200, `{"data":...}` or `{"errors":[...]}` (or an
 * array). The executor's answer as it comes (itself when at hand, else its promise: no promise of its own on the
 * hot path); `reply` holds what actions and remote schemas add once the answer is there (see withActionReply).
 */
export function graphqlRequest(ctx: GraphQLRequestContext, body: unknown, reply: ActionReply): GraphQLResult | Promise<GraphQLResult> {
  return executeGraphQL(graphqlExecuteContext(ctx, reply), body);
}

/**
 * A sync action handler's or a remote's Set-Cookie reaches the client (one header each); a failed action call
 * gives /v1alpha1 its status.
 */
export function withActionReply(r: GraphQLResult, reply: ActionReply): HandledResult {
  let out: HandledResult = reply.setCookie.length ? { ...r, setCookie: reply.setCookie } : r;
  if (reply.writeLsn !== undefined) out = { ...out, headers: { ...out.headers, [WRITE_LSN_HEADER]: reply.writeLsn } };
  return reply.errorStatus === undefined ? out : { ...out, errorStatus: reply.errorStatus };
}

/** POST /v1/graphql/explain (admin only): `[{field, sql, plan}]`, or a metadata-style error with its status. */
export async function handleGraphQLExplain(ctx: GraphQLRequestContext, body: unknown): ReturnType<typeof handleExplainRequest> {
  return handleExplainRequest(
    { pool: ctx.pool, reads: ctx.reads, state: ctx.state, session: ctx.session, stringifyNumeric: ctx.config.stringifyNumericTypes, prepare: front(ctx.features.extensions) },
    body,
    showInternal(ctx.session, ctx.config),
  );
}
