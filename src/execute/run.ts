// Running a plan for a request: the cached query plan's fast path (one pool query, its answer built in the
// callback), and the general path (mutations in a transaction, plans with action fields).
import { EngineError } from '../core/errors.js';
import { dataText } from '../sql/operation.js';
import type { GraphQLRequest } from '../graphql/request-body.js';
import type { OperationIR } from '../ir/operation.js';
import type { ExecuteContext } from './context.js';
import { planFor, type Plan, type Statement } from './plan.js';
import { queryStatement, runData } from './database.js';
import { loneAction, runLoneAction, runMixed } from './mixed.js';
import { answered, failed, type GraphQLResult } from './result.js';
import { isConnectionError } from '../core/pg-errors.js';
import { retryAfter } from '../core/connection-retry.js';
import { retryPolicy } from './database.js';
import { sendStatement, statementError, submitStatement, type ArrayResult } from './statement.js';
import { routeRead } from './read.js';

/** A request validated and planned, not yet run (websockets tell pre-execution errors from execution errors). */
export interface PlannedRequest {
  operation: OperationIR['operation'];
  /** Runs it: the response JSON text (`{"data":...}`). Throws EngineError (an execution error). */
  run(): Promise<string>;
}

/**
 * Plans a request (throws EngineError: parse, validation, variables). A subscription's `run` refuses: the caller
 * serves it as a live query (src/subscriptions) or not at all (HTTP).
 */
export async function planRequest(ctx: ExecuteContext, req: GraphQLRequest): Promise<PlannedRequest> {
  const plan = await planFor(ctx, req);
  const variables = plan.coerceVariables(req.variables);
  return {
    operation: plan.operation,
    run: async () => {
      if (plan.operation === 'subscription') throw subscriptionOverHttp();
      return runWithVariables(ctx, plan, variables, req);
    },
  };
}

const subscriptionOverHttp = (): EngineError =>
  new EngineError('unexpected-payload', 'subscriptions are not supported over HTTP, use websockets instead');

/** What running a plan for a request starts with: its type noted, a subscription refused, the variables coerced. */
function planVariables(ctx: ExecuteContext, plan: Plan, req: GraphQLRequest): Record<string, unknown> {
  ctx.operationType ??= plan.operation;
  if (plan.operation === 'subscription') throw subscriptionOverHttp();
  return plan.coerceVariables(req.variables);
}

/** Runs a plan for a request; returns the response JSON text (`{"data":...}`). Throws EngineError. */
export async function runPlan(ctx: ExecuteContext, plan: Plan, req: GraphQLRequest): Promise<string> {
  return runWithVariables(ctx, plan, planVariables(ctx, plan, req), req);
}

async function runWithVariables(ctx: ExecuteContext, plan: Plan, variables: Record<string, unknown>, req: GraphQLRequest): Promise<string> {
  const data = plan.mixed ? await runMixed(ctx, plan.mixed, variables, req, plan.operation) : await runData(ctx, plan, variables, req);
  if (plan.operation === 'mutation' && ctx.reads) await noteWrite(ctx);
  return `{"data":${data}}`;
}

/**
 * A mutation committed (its database part, or an action whose handler wrote through its own connection): the WAL
 * position after it, for the response's x-engine-write-lsn and the read router (its reads wait for it).
 */
async function noteWrite(ctx: ExecuteContext): Promise<void> {
  const lsn = await ctx.reads!.committed();
  if (lsn !== null && ctx.reply) ctx.reply.writeLsn = lsn;
}

/**
 * runPlan's answer for a query plan (one statement, or none) without its chain of promises: the statement's pool
 * query with a callback, and the answer built in it. Each async layer between a request and its one query cost a
 * promise and a microtask or two; this path has one promise. Null for the other plans (mixed and sequential ones),
 * untouched: runPlan takes them. Throws what runPlan would reject with before the query.
 */
export function runQueryPlan(ctx: ExecuteContext, plan: Plan, req: GraphQLRequest): GraphQLResult | Promise<GraphQLResult> | null {
  if (plan.mixed || plan.sequential || plan.joins) return null;
  const q = queryStatement(ctx, plan, planVariables(ctx, plan, req), req);
  if (q === null) return answered(ctx, req, dataText(plan.pieces, null));
  const { st, values } = q;
  return new Promise((resolve) => {
    const done = answerOf(ctx, plan, req, st, values, resolve);
    // Without read replicas the statement goes straight to the pool, as it did before routing existed.
    if (ctx.reads === undefined) sendStatement(ctx.pool, st, values, done);
    else routeRead<ArrayResult>(ctx.reads, ctx.pool, ctx.minLsn, (pool, cb) => sendStatement(pool, st, values, cb), done);
  });
}

/**
 * runPlan's answer for a plan that is one synchronous action field (a query, or a mutation with no write position
 * to note for read replicas): the handler's answer spliced into the body in one callback, without runPlan's chain
 * of async layers. Null for the other plans, untouched: runPlan takes them.
 */
export function runActionPlan(ctx: ExecuteContext, plan: Plan, req: GraphQLRequest): Promise<GraphQLResult> | null {
  const step = plan.mixed === undefined || (plan.operation === 'mutation' && ctx.reads) ? null : loneAction(plan.mixed);
  if (step === null) return null;
  return runLoneAction(ctx, step, planVariables(ctx, plan, req), req).then(
    (data) => answered(ctx, req, `{"data":${data}}`),
    (e: unknown) => failed(ctx, e, req),
  );
}

/**
 * The statement's callback: the answer built from its row (or its failure). Made here rather than as a named
 * closure in runQueryPlan (tsx's keepNames costs a defineProperty per named closure made).
 */
function answerOf(
  ctx: ExecuteContext, plan: Plan, req: GraphQLRequest, st: Statement, values: unknown[], resolve: (r: GraphQLResult | PromiseLike<GraphQLResult>) => void,
): (e: Error | undefined, r: ArrayResult) => void {
  return (e, r) => {
    try {
      // On the primary pool, a lost or refused connection is tried again on a new one (the router retries its own).
      if (e && ctx.reads === undefined && ctx.connectionRetries > 0 && isConnectionError(e)) {
        resolve(retryAfter(e, retryPolicy(ctx), () => submitStatement(ctx.pool, st, values)).then(
          (again) => answered(ctx, req, dataText(plan.pieces, again.rows[0] ?? null)),
          (err: unknown) => failed(ctx, statementError(st, values, err), req),
        ));
        return;
      }
      resolve(e ? failed(ctx, statementError(st, values, e), req) : answered(ctx, req, dataText(plan.pieces, r.rows[0] ?? null)));
    } catch (err) {
      resolve(failed(ctx, err, req));
    }
  };
}
