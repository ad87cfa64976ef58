// Plans: a request's operation compiled to its statements (and the pieces that splice their results into `data`),
// found in the plan cache (per state, role, query text; Note [Shape-keyed plans]: per variable shape too) or made
// by the GraphQL front (ctx.prepare) on a miss.
import { createHash } from 'node:crypto';
import { EngineError } from '../core/errors.js';
import type { Lru } from '../core/lru.js';
import type { EngineState } from '../cache/state.js';
import type { ActionRootIR } from '../ir/action.js';
import type { OperationIR } from '../ir/operation.js';
import type { CompiledSql } from '../sql/builder.js';
import { compileOperation, compileSequential, type Piece } from '../sql/operation.js';
import type { GraphQLRequest } from '../graphql/request-body.js';
import type { PreparedOperation } from '../graphql/prepare.js';
import type { ExecuteContext } from './context.js';
import { cacheFor, planKey, shapeCacheFor } from './plan-cache.js';

export interface Statement extends CompiledSql {
  /**
   * Name of the prepared statement (a hash of the text: equal text, equal name, on every connection); undefined
   * for one-off plans (not reusable), which should not pile up as prepared statements on the connections.
   */
  name: string | undefined;
}

export interface Plan {
  operation: OperationIR['operation'];
  statements: Statement[];
  pieces: Piece[];
  /** Query plans put all root fields in one statement whose columns the pieces index; mutations run one per field. */
  sequential: boolean;
  /** Aliases of the root fields the database answers (query-log's generated_sql is keyed by them). */
  databaseFields?: string[];
  coerceVariables: PreparedOperation['coerceVariables'];
  /** Operations with action fields: runs of other root fields (each a plan) and the action fields, in order. */
  mixed?: MixedStep[];
  /** Root fields selecting remote relationships: their remote joins run on the plan's data (src/remote/join.ts). */
  joins?: OperationIR['fields'];
}

/** One step of a plan with action fields: a plan for the root fields between two action fields, or an action field. */
export type MixedStep = { plan: Plan } | { key: string; action: ActionRootIR; joins?: OperationIR['fields'] };

const namedStatement = (c: CompiledSql): Statement => ({ ...c, name: `e_${createHash('sha1').update(c.text).digest('base64url').slice(0, 27)}` });
const unnamed = (c: CompiledSql): Statement => ({ ...c, name: undefined });

/** The plan-cache entry of an operation whose plans are kept per variable shape (in the shape cache). */
interface ShapeKeyed {
  coerceWithShape: NonNullable<PreparedOperation['coerceWithShape']>;
}

type Entry = Plan | ShapeKeyed;

/** A shape-keyed plan for one request: its variables were already coerced (to compute the shape). */
const withVariables = (plan: Plan, variables: Record<string, unknown>): Plan => ({ ...plan, coerceVariables: () => variables });

/**
 * Shapes longer than this (characters) are not kept: each kept shape is a prepared statement on every connection,
 * so a client sending ever larger object lists gets one-off statements rather than a pile of big prepared ones.
 */
const MAX_SHAPE = 16384;

/** `keep`: the plan is kept (its statements named, prepared once per connection); else its statements are unnamed. */
function buildPlan(p: PreparedOperation, keep: boolean, joins: boolean): Plan {
  const plan = buildPlanOf(p, keep, joins);
  return joins && !plan.mixed ? { ...plan, joins: p.ir.fields } : plan;
}

function buildPlanOf(p: PreparedOperation, keep: boolean, joins: boolean): Plan {
  const { ir } = p;
  if (ir.fields.some(([, f]) => f.kind === 'action_root')) return mixedPlan(p, keep, joins);
  const named = keep ? namedStatement : unnamed;
  const databaseFields = ir.fields.filter(([, f]) => f.kind !== 'typename' && f.kind !== 'raw').map(([key]) => key);
  if (ir.operation === 'mutation') {
    const { statements, pieces } = compileSequential(ir);
    return { operation: ir.operation, statements: statements.map(named), pieces, sequential: true, databaseFields, coerceVariables: p.coerceVariables };
  }
  const { statement, pieces } = compileOperation(ir);
  return {
    operation: ir.operation, statements: statement ? [named(statement)] : [], pieces, sequential: false, databaseFields, coerceVariables: p.coerceVariables,
  };
}

/** Action fields run on their own (a handler call is no SQL); the other root fields keep their statements. */
function mixedPlan(p: PreparedOperation, keep: boolean, joins: boolean): Plan {
  const mixed: MixedStep[] = [];
  let group: OperationIR['fields'] = [];
  const flush = () => {
    if (group.length) mixed.push({ plan: buildPlan({ ...p, ir: { ...p.ir, fields: group } }, keep, joins) });
    group = [];
  };
  for (const [key, f] of p.ir.fields) {
    if (f.kind !== 'action_root') group.push([key, f]);
    else {
      flush();
      mixed.push(joins ? { key, action: f.action, joins: [[key, f]] } : { key, action: f.action });
    }
  }
  flush();
  return { operation: p.ir.operation, statements: [], pieces: [], sequential: false, coerceVariables: p.coerceVariables, mixed };
}

/** The cached plan (as it is: no promise, no extra microtask on the hot path) or a new one. */
export function planFor(ctx: ExecuteContext, req: GraphQLRequest): Plan | Promise<Plan> {
  const cache = cacheFor<Entry>(ctx.state, ctx.planCacheSize);
  // Backend-only privileges change which insert fields a role has (src/graphql/request/mutation-root.ts).
  const key = planKey(ctx.session.role, req.operationName, req.query) + (ctx.planScope ? `\u0000${ctx.planScope}` : '')
    + (ctx.session.backendOnly ? '\u0000backend-only' : '');
  const hit = cache.get(key);
  if (hit === undefined) return newPlan(ctx, req, cache, key);
  if (!('coerceWithShape' in hit)) return hit;
  // Note [Shape-keyed plans]: the same text with variables of the same shape compiles to the same statement.
  const { variables, shape } = hit.coerceWithShape(req.variables);
  const plan = shapeCacheFor<Plan>(ctx.state, ctx.planCacheSize).get(`${key}\u0000${shape}`);
  return plan ? withVariables(plan, variables) : newPlan(ctx, req, cache, key);
}

async function newPlan(ctx: ExecuteContext, req: GraphQLRequest, cache: Lru<Entry>, key: string): Promise<Plan> {
  const prepared = await ctx.prepare(ctx.state, ctx.session, req, { stringifyNumeric: ctx.stringifyNumeric });
  const joins = ctx.remoteJoins?.hasRemoteJoins(prepared.ir.fields) ?? false;
  if (joins && prepared.ir.operation === 'subscription') throw remoteJoinsInSubscription();
  // Without prepared statements (--use-prepared-statements false) every statement is unnamed: a transaction-mode
  // pooler may run a statement on a connection other than the one that prepared it.
  if (prepared.ir.reusable) {
    const plan = buildPlan(prepared, ctx.preparedStatements, joins);
    cache.set(key, plan);
    return plan;
  }
  if (prepared.coerceWithShape) {
    const { variables, shape } = prepared.coerceWithShape(req.variables);
    const keep = shape.length <= MAX_SHAPE;
    const plan = buildPlan(prepared, keep && ctx.preparedStatements, joins);
    cache.set(key, { coerceWithShape: prepared.coerceWithShape });
    if (keep) shapeCacheFor<Plan>(ctx.state, ctx.planCacheSize).set(`${key}\u0000${shape}`, plan);
    return withVariables(plan, variables);
  }
  // Otherwise the plan depended on variable values (Note [Reusable plans]): it is used once and not kept.
  return buildPlan(prepared, false, joins);
}

/** The original's refusal of a subscription selecting a remote relationship. */
export const remoteJoinsInSubscription = (): EngineError =>
  new EngineError('not-supported', 'Remote relationships are not allowed in subscriptions');

/** Plan cache counters of a state (tests, debugging). */
export function planCacheStats(
  state: EngineState, capacity = 4000,
): { hits: number; misses: number; size: number; shapeHits: number; shapeMisses: number; shapeSize: number } {
  const c = cacheFor<Entry>(state, capacity);
  const s = shapeCacheFor<Plan>(state, capacity);
  return { hits: c.hits, misses: c.misses, size: c.size, shapeHits: s.hits, shapeMisses: s.misses, shapeSize: s.size };
}
