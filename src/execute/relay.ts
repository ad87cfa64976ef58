// POST /v1beta1/relay: the GraphQL executor over the role's Relay schema (src/graphql/relay), with its own plan-cache
// scope (the same query text means something else there).
import { prepareOperation } from '../graphql/prepare.js';
import type { GraphQLRequestContext } from './graphql.js';
import { executeGraphQL, type ExecuteContext, type GraphQLResult, type PrepareFn } from './run.js';
import { checkAllowlist } from '../graphql/allowlist.js';

const prepare: PrepareFn = (state, session, request, options) => prepareOperation(state, session, request, { ...options, relay: true });
// With the allow-list on, only allowed queries get a plan (as on /v1/graphql).
const prepareAllowlisted: PrepareFn = (state, session, request, options) => {
  checkAllowlist(state.metadata, session.role, request.query);
  return prepare(state, session, request, options);
};

/** The executor's context for a request on /v1beta1/relay (also the websocket transport's). */
export function relayExecuteContext(ctx: GraphQLRequestContext): ExecuteContext {
  return {
    pool: ctx.pool,
    state: ctx.state,
    session: ctx.session,
    stringifyNumeric: ctx.config.stringifyNumericTypes,
    planCacheSize: ctx.config.queryPlanCacheSize,
    showInternal: ctx.config.devMode || (ctx.session.role === 'admin' && ctx.config.adminInternalErrors),
    requestId: ctx.requestId,
    prepare: ctx.config.enableAllowlist ? prepareAllowlisted : prepare,
    planScope: 'relay',
  };
}

/** One POST /v1beta1/relay body: always HTTP 200, like /v1/graphql. */
export async function handleRelayRequest(
  ctx: GraphQLRequestContext, body: unknown,
): Promise<GraphQLResult & { headers?: Record<string, string> }> {
  return executeGraphQL(relayExecuteContext(ctx), body);
}
