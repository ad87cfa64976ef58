// A subscription request → its multiplexed statement (src/sql/live.ts) and this subscriber's parameter values.
// Plans are cached per state (a metadata change starts afresh) by role, query and operation name, like the
// executor's plan cache; plans that depended on variable values (Note [Reusable plans]) are made per subscriber.
import type { EngineState } from '../cache/state.js';
import { EngineError } from '../core/errors.js';
import type { GraphQLRequest } from '../graphql/request-body.js';
import { Lru } from '../core/lru.js';
import { planCacheTotals, planKey } from '../execute/plan-cache.js';
import type { ExecuteContext } from '../execute/context.js';
import type { PreparedOperation } from '../graphql/prepare.js';
import { compileLiveQuery, type LiveQueryPlan } from '../sql/live.js';
import { remoteJoinsInSubscription } from '../execute/plan.js';
import { resolveParams } from '../sql/params.js';

export interface PreparedLive {
  plan: LiveQueryPlan;
  /** JSON array of this subscriber's parameter values (its row in the batched statement). */
  params: string;
}

interface Entry {
  plan: LiveQueryPlan;
  coerceVariables: PreparedOperation['coerceVariables'];
}

const byState = new WeakMap<EngineState, Lru<Entry>>();

function cacheOf(state: EngineState, capacity: number): Lru<Entry> {
  let c = byState.get(state);
  if (c === undefined) {
    c = new Lru<Entry>(capacity, planCacheTotals);
    byState.set(state, c);
  }
  return c;
}

/** Validates a subscription (throws EngineError, a pre-execution error) and gives its statement and parameters. */
export async function prepareLive(ctx: ExecuteContext, req: GraphQLRequest): Promise<PreparedLive> {
  const cache = cacheOf(ctx.state, ctx.planCacheSize);
  const key = planKey(ctx.session.role, req.operationName, req.query) + (ctx.planScope ? `\u0000${ctx.planScope}` : '');
  let entry = cache.get(key);
  if (entry === undefined) {
    const prepared = await ctx.prepare(ctx.state, ctx.session, req, { stringifyNumeric: ctx.stringifyNumeric });
    if (prepared.ir.operation !== 'subscription') throw new EngineError('unexpected', 'not a subscription');
    if (ctx.remoteJoins?.hasRemoteJoins(prepared.ir.fields)) throw remoteJoinsInSubscription();
    entry = { plan: compileLiveQuery(prepared.ir), coerceVariables: prepared.coerceVariables };
    if (prepared.ir.reusable) cache.set(key, entry);
  }
  const variables = entry.coerceVariables(req.variables);
  const values = resolveParams(entry.plan.slots, { variables, sessionVariables: ctx.session.variables });
  return { plan: entry.plan, params: JSON.stringify(values) };
}
