// POST /v1beta1/relay: the GraphQL executor over the role's Relay schema (src/graphql/relay), with its own plan-cache
// scope (the same query text means something else there).
import { prepareOperation } from '../graphql/prepare.js';
import { baseExecuteContext, type Front, type GraphQLRequestContext } from './graphql.js';
import type { GraphQLResult } from './result.js';
import { executeGraphQL } from './answer.js';
import type { ActionReply, ExecuteContext } from './context.js';

const front: Front = (extensions) => (state, session, request, options) =>
  prepareOperation(state, session, request, { ...options, extensions, relay: true });

/** The executor's context for a request on /v1beta1/relay (also the websocket transport's). */
export function relayExecuteContext(ctx: GraphQLRequestContext, reply?: ActionReply): ExecuteContext {
  return { ...baseExecuteContext(ctx, front), planScope: 'relay', reply };
}

/** One POST /v1beta1/relay body: always HTTP 200, like /v1/graphql. */
export function handleRelayRequest(ctx: GraphQLRequestContext, body: unknown, reply?: ActionReply): GraphQLResult | Promise<GraphQLResult> {
  return executeGraphQL(relayExecuteContext(ctx, reply), body);
}
