// Plans with action fields (mixed plans): the database's root fields between two action fields run as a plan of
// their own, each action field through the actions' runner (ctx.runAction); in a mutation, all in one transaction.
import type pg from 'pg';
import { EngineError } from '../core/errors.js';
import type { GraphQLRequest } from '../graphql/request-body.js';
import type { ActionEnv } from './features.js';
import type { ExecuteContext } from './context.js';
import type { MixedStep, Plan } from './plan.js';
import { inSessionTransaction, runData, withRemoteJoins } from './database.js';

const touchesDb = (s: MixedStep): boolean => 'plan' in s || s.action.kind === 'action_enqueue';

export async function runMixed(
  ctx: ExecuteContext, steps: MixedStep[], variables: Record<string, unknown>, req: GraphQLRequest, operation: Plan['operation'],
): Promise<string> {
  // A mutation's root fields are one transaction, an async action's enqueue included (as the original: the
  // mutation fails, the action was never asked for); a lone action needs none (its INSERT is atomic by itself).
  if (operation === 'mutation' && steps.length > 1 && steps.some(touchesDb)) {
    return inSessionTransaction(ctx, (tx) => runSteps(ctx, steps, variables, req, tx));
  }
  return runSteps(ctx, steps, variables, req);
}

const actionEnv = (ctx: ExecuteContext, variables: Record<string, unknown>, req: GraphQLRequest, tx?: pg.PoolClient): ActionEnv => ({
  db: tx ?? ctx.pool, session: ctx.session, clientHeaders: ctx.clientHeaders ?? null, variables,
  rawVariables: req.variables ?? null, setCookie: ctx.reply?.setCookie ?? [],
});

/** The one step of a plan that is one synchronous action field and nothing else; null for any other plan. */
export function loneAction(steps: MixedStep[]): LoneAction | null {
  const step = steps.length === 1 ? steps[0] : undefined;
  return step === undefined || 'plan' in step || step.action.kind !== 'action' ? null : step;
}
export type LoneAction = Extract<MixedStep, { action: unknown }>;

/**
 * The `data` text of a lone sync action field: what runMixed answers for it (no transaction for a lone field), in
 * one callback rather than through runMixed's and runSteps' async layers. A failed call gives its status to the
 * reply, as runSteps does.
 */
export function runLoneAction(ctx: ExecuteContext, step: LoneAction, variables: Record<string, unknown>, req: GraphQLRequest): Promise<string> {
  const runAction = ctx.runAction;
  if (runAction === undefined) return Promise.reject(new Error('a plan with action fields, but no action runner in the context'));
  return runAction(actionEnv(ctx, variables, req), step.action).then(
    (text) => `{${JSON.stringify(step.key)}:${text}}`,
    (e: unknown) => {
      if (e instanceof EngineError && ctx.reply) ctx.reply.errorStatus = e.status;
      throw e;
    },
  );
}

async function runSteps(
  ctx: ExecuteContext, steps: MixedStep[], variables: Record<string, unknown>, req: GraphQLRequest, tx?: pg.PoolClient,
): Promise<string> {
  const env = actionEnv(ctx, variables, req, tx);
  const runAction = ctx.runAction;
  if (runAction === undefined) throw new Error('a plan with action fields, but no action runner in the context');
  const parts: string[] = [];
  for (const s of steps) {
    if ('plan' in s) {
      parts.push((await runData(ctx, s.plan, variables, req, tx)).slice(1, -1));
      continue;
    }
    try {
      const part = `{${JSON.stringify(s.key)}:${await runAction(env, s.action)}}`;
      parts.push((s.joins ? await withRemoteJoins(ctx, s.joins, part, req) : part).slice(1, -1));
    } catch (e) {
      if (e instanceof EngineError && ctx.reply) ctx.reply.errorStatus = e.status;
      throw e;
    }
  }
  return `{${parts.join(',')}}`;
}
