// Executes GraphQL requests: a POST /v1/graphql body (one request or a batch) → per request, the remote-schema route
// (ctx.remote) or the plan (plan.ts: the plan cache, or parse, validate, IR, compile on a miss) run (run.ts: one named
// prepared statement per query, one per root field in a transaction for mutations) → the database's JSON text
// spliced into the body.
import type { EngineError } from '../core/errors.js';
import { parseBody, type GraphQLRequest } from '../graphql/request-body.js';
import type { ExecuteContext } from './context.js';
import { planFor, type Plan } from './plan.js';
import { runActionPlan, runPlan, runQueryPlan } from './run.js';
import { answered, errorText, failed, toEngineError, type GraphQLResult } from './result.js';

/**
 * The answer of a request that selects remote-schema fields (through ctx.remote), or null when it selects none.
 * HTTP and websockets both go through here; the database part of a mixed request is answered without the hook.
 */
export function remoteRequest(ctx: ExecuteContext, req: GraphQLRequest, raw: unknown): Promise<string> | null {
  return ctx.remote?.(req, raw, async (part) => (await answer({ ...ctx, remote: undefined }, part)).body) ?? null;
}

/**
 * One request's answer; never rejects. A cached query plan is answered by runQueryPlan (one promise, or none at
 * all), a cached plan of one sync action by runActionPlan; a new plan, a remote-schema request, a mutation or
 * another action go through the async path.
 */
function answer(ctx: ExecuteContext, req: GraphQLRequest, raw?: unknown): GraphQLResult | Promise<GraphQLResult> {
  try {
    const viaRemote = remoteRequest(ctx, req, raw);
    if (viaRemote) return viaRemote.then((body) => answered(ctx, req, body), (e: unknown) => failed(ctx, e, req));
    const planned = planFor(ctx, req);
    if (planned instanceof Promise) return answerLater(ctx, req, planned);
    return runQueryPlan(ctx, planned, req) ?? runActionPlan(ctx, planned, req) ?? answerLater(ctx, req, planned);
  } catch (e) {
    return failed(ctx, e, req);
  }
}

async function answerLater(ctx: ExecuteContext, req: GraphQLRequest, planned: Plan | Promise<Plan>): Promise<GraphQLResult> {
  try {
    return answered(ctx, req, await runPlan(ctx, await planned, req));
  } catch (e) {
    return failed(ctx, e, req);
  }
}

/**
 * A whole POST /v1/graphql body (already JSON-parsed): one response, or an array for a batch; always HTTP 200.
 * The answer itself when it is at hand (a parse error, a plan without a statement), else its promise.
 */
export function executeGraphQL(ctx: ExecuteContext, body: unknown): GraphQLResult | Promise<GraphQLResult> {
  let parsed;
  try {
    parsed = parseBody(body);
  } catch (e) {
    const error = toEngineError(ctx, e);
    return { status: 200, body: errorText(ctx, error), error };
  }
  if (!parsed.batch) return answer(ctx, parsed.request, body);
  return executeBatch(ctx, parsed.requests, body as unknown[]);
}

async function executeBatch(ctx: ExecuteContext, requests: GraphQLRequest[], body: unknown[]): Promise<GraphQLResult> {
  // Elements run one after another, each on its own (a mutation's effects are visible to the next element).
  const parts: string[] = [];
  let error: EngineError | undefined;
  for (const [i, r] of requests.entries()) {
    const a = await answer(ctx, r, body[i]);
    parts.push(a.body);
    error ??= a.error;
  }
  return { status: 200, body: `[${parts.join(',')}]`, error, operationType: ctx.operationType };
}
