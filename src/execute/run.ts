// Executes GraphQL requests: plan cache → (parse, validate, IR, compile on a miss) → one named prepared statement
// per query (one per root field, in a transaction, for mutations) → the database's JSON text spliced into the body.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import pg from 'pg';
import { EngineError, graphqlErrorObject } from '../core/errors.js';
import { log } from '../core/log.js';
import type { EngineState } from '../cache/state.js';
import type { Session } from '../auth/session.js';
import type { OperationIR } from '../ir/types.js';
import type { CompiledSql } from '../sql/builder.js';
import { compileOperation, compileSequential, dataText, splice, type Piece } from '../sql/operation.js';
import { resolveParams } from '../sql/params.js';
import { PREVIOUS_RESULT } from '../sql/mutation-statement.js';
import type { Lru } from '../core/lru.js';
import { cacheFor, planKey, shapeCacheFor } from './plan-cache.js';
import { isConnectionError, mapExecutionError } from './pg-errors.js';
import { connectRetrying, retryAfter, withRetries, type RetryPolicy } from './connection-retry.js';
import { parseBody, type GraphQLRequest } from './request.js';
import type { ActionRootIR } from '../ir/action.js';
import { runActionRoot, type ActionEnv } from '../actions/execute.js';
import type { ClientHeaders } from '../actions/call.js';
import type { PreparedOperation } from '../graphql/prepare.js';
import type { TxIsolation } from '../config.js';


export type PrepareFn = (
  state: EngineState,
  session: Session,
  request: GraphQLRequest,
  options: { stringifyNumeric: boolean },
) => PreparedOperation | Promise<PreparedOperation>;

export interface ExecuteContext {
  pool: pg.Pool;
  state: EngineState;
  session: Session;
  stringifyNumeric: boolean;
  /** 0 disables the plan cache. */
  planCacheSize: number;
  showInternal: boolean;
  /** Runs again on a new connection after a connection error (--retries; ./connection-retry.ts). */
  connectionRetries: number;
  /** Isolation of mutation transactions (--tx-iso). */
  txIsolation: TxIsolation;
  requestId: string;
  prepare: PrepareFn;
  /** Separates the plans of another schema over the same state (POST /v1beta1/relay). */
  planScope?: string;
  /** Set when a plan is run (planVariables): the type of the first operation planned (the request metrics' label). */
  operationType?: string;
  /** The client's request headers (actions forward them) and what actions add to the response. */
  clientHeaders?: ClientHeaders | null;
  reply?: ActionReply;
  /**
   * Requests selecting remote-schema fields (src/remote): their answer, or null for the usual path. `raw` is the
   * request object as sent; `db` answers the database part of a mixed request.
   */
  remote?: (req: GraphQLRequest, raw: unknown, db: (req: GraphQLRequest) => Promise<string>) => Promise<string> | null;
}

/** Set-Cookie values of sync action handlers (and remote schemas), and the status of a failed action call (for /v1alpha1). */
export interface ActionReply {
  setCookie: string[];
  errorStatus?: number;
}

interface Statement extends CompiledSql {
  /**
   * Name of the prepared statement (a hash of the text: equal text, equal name, on every connection); undefined
   * for one-off plans (not reusable), which should not pile up as prepared statements on the connections.
   */
  name: string | undefined;
}

interface Plan {
  operation: OperationIR['operation'];
  statements: Statement[];
  pieces: Piece[];
  /** Query plans put all root fields in one statement whose columns the pieces index; mutations run one per field. */
  sequential: boolean;
  /** Aliases of the root fields the database answers (query-log's generated_sql is keyed by them). */
  databaseFields?: string[];
  coerceVariables: PreparedOperation['coerceVariables'];
  /** Operations with action fields: runs of other root fields (each a plan) and the action fields, in order. */
  mixed?: Array<{ plan: Plan } | { key: string; action: ActionRootIR }>;
}

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

function buildPlan(p: PreparedOperation, keep: boolean): Plan {
  const { ir } = p;
  if (ir.fields.some(([, f]) => f.kind === 'action_root')) return mixedPlan(p, keep);
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

/**
 * The original's query-log line: the GraphQL request and, for queries, the SQL with its arguments per root field
 * (ours answers every root field of a query with one statement: each field names that statement); null for
 * mutations and subscriptions, as the original.
 */
function logQuery(ctx: ExecuteContext, req: GraphQLRequest, plan: Plan, values: unknown[] | null): void {
  let generated: Record<string, unknown> | null = null;
  const st = plan.statements[0];
  if (!plan.sequential && st !== undefined && values !== null) {
    generated = {};
    for (const field of plan.databaseFields ?? []) generated[field] = { query: st.text, prepared_arguments: values };
  }
  log.info('query-log', {
    request_id: ctx.requestId,
    query: { query: req.query, operationName: req.operationName, variables: req.variables },
    generated_sql: generated,
  });
}

/** Action fields run on their own (a handler call is no SQL); the other root fields keep their statements. */
function mixedPlan(p: PreparedOperation, keep: boolean): Plan {
  const mixed: NonNullable<Plan['mixed']> = [];
  let group: OperationIR['fields'] = [];
  const flush = () => {
    if (group.length) mixed.push({ plan: buildPlan({ ...p, ir: { ...p.ir, fields: group } }, keep) });
    group = [];
  };
  for (const [key, f] of p.ir.fields) {
    if (f.kind !== 'action_root') group.push([key, f]);
    else {
      flush();
      mixed.push({ key, action: f.action });
    }
  }
  flush();
  return { operation: p.ir.operation, statements: [], pieces: [], sequential: false, coerceVariables: p.coerceVariables, mixed };
}

/** The cached plan (as it is: no promise, no extra microtask on the hot path) or a new one. */
function planFor(ctx: ExecuteContext, req: GraphQLRequest): Plan | Promise<Plan> {
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
  if (prepared.ir.reusable) {
    const plan = buildPlan(prepared, true);
    cache.set(key, plan);
    return plan;
  }
  if (prepared.coerceWithShape) {
    const { variables, shape } = prepared.coerceWithShape(req.variables);
    const keep = shape.length <= MAX_SHAPE;
    const plan = buildPlan(prepared, keep);
    cache.set(key, { coerceWithShape: prepared.coerceWithShape });
    if (keep) shapeCacheFor<Plan>(ctx.state, ctx.planCacheSize).set(`${key}\u0000${shape}`, plan);
    return withVariables(plan, variables);
  }
  // Otherwise the plan depended on variable values (Note [Reusable plans]): it is used once and not kept.
  return buildPlan(prepared, false);
}

/** pg's query result class (rows as arrays are asked for by giving one to the query). */
const PgResult = createRequire(import.meta.url)('pg/lib/result.js') as new (rowMode: string, types: unknown) => unknown;

/**
 * A named statement's query, rows as arrays. Made from the text rather than a config object: pg copies a config
 * object through its property descriptors on every query (`cloneQueryConfig`, ~2-3 µs of a small request), a text
 * it does not. The name and the row mode are set as pg's constructor would have set them from a config.
 */
class ArrayQuery extends pg.Query {
  constructor(name: string | undefined, text: string, values: unknown[]) {
    super(text, values);
    const q = this as unknown as { name?: string; _rowMode: string; _result: unknown; _results: unknown };
    q.name = name;
    q._rowMode = 'array';
    q._result = new PgResult('array', undefined);
    q._results = q._result;
  }
}

/** pool.query given a query object and a callback (pg's types know only configs and texts). */
type QueryWithCallback = (q: ArrayQuery, cb: (e: Error | undefined, r: pg.QueryArrayResult<unknown[]>) => void) => void;

/** Runs a query object on the pool (which hands back a promise for it) or on a checked-out client (a callback). */
function submit(client: pg.Pool | pg.PoolClient, q: ArrayQuery): Promise<pg.QueryArrayResult<unknown[]>> {
  if (!('release' in client)) return (client as pg.Pool).query(q) as unknown as Promise<pg.QueryArrayResult<unknown[]>>;
  return new Promise((resolve, reject) => {
    (q as unknown as { callback: (e: Error | null, r: pg.QueryArrayResult<unknown[]>) => void }).callback = (e, r) => (e ? reject(e) : resolve(r));
    client.query(q);
  });
}

/** Runs a statement; with a retry policy (a query on the pool), again on a new connection after a connection error. */
async function runStatement(client: pg.Pool | pg.PoolClient, st: Statement, values: unknown[], retry?: RetryPolicy): Promise<unknown[] | null> {
  try {
    const r = retry
      ? await withRetries(retry, () => submit(client, new ArrayQuery(st.name, st.text, values)))
      : await submit(client, new ArrayQuery(st.name, st.text, values));
    return r.rows[0] ?? null;
  } catch (e) {
    throw statementError(st, values, e);
  }
}

/** A statement's failure as the request's error (at the statement's field when the database gave no path). */
function statementError(st: Statement, values: unknown[], e: unknown): EngineError {
  const err = mapExecutionError(e, { text: st.text, values });
  return st.errorPath && err.path === '$' && !isConnectionError(e) ? err.at(st.errorPath) : err;
}

const retryPolicy = (ctx: ExecuteContext): RetryPolicy => ({ retries: ctx.connectionRetries, requestId: ctx.requestId });

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
async function runPlan(ctx: ExecuteContext, plan: Plan, req: GraphQLRequest): Promise<string> {
  return runWithVariables(ctx, plan, planVariables(ctx, plan, req), req);
}

async function runWithVariables(ctx: ExecuteContext, plan: Plan, variables: Record<string, unknown>, req: GraphQLRequest): Promise<string> {
  if (plan.mixed) return `{"data":${await runMixed(ctx, plan.mixed, variables, req, plan.operation)}}`;
  return `{"data":${await runData(ctx, plan, variables, req)}}`;
}

/** A query plan's one statement (or none) with its parameter values; query-log's line written when it is on. */
function queryStatement(
  ctx: ExecuteContext, plan: Plan, variables: Record<string, unknown>, req: GraphQLRequest,
): { st: Statement; values: unknown[] } | null {
  const st = plan.statements[0];
  const values = st ? resolveParams(st.slots, { variables, sessionVariables: ctx.session.variables }) : null;
  if (log.wants('query-log')) logQuery(ctx, req, plan, values);
  return st ? { st, values: values! } : null;
}

/**
 * runPlan's answer for a query plan (one statement, or none) without its chain of promises: the statement's pool
 * query with a callback, and the answer built in it. Each async layer between a request and its one query cost a
 * promise and a microtask or two; this path has one promise. Null for the other plans (mixed and sequential ones),
 * untouched: runPlan takes them. Throws what runPlan would reject with before the query.
 */
function runQueryPlan(ctx: ExecuteContext, plan: Plan, req: GraphQLRequest): GraphQLResult | Promise<GraphQLResult> | null {
  if (plan.mixed || plan.sequential) return null;
  const q = queryStatement(ctx, plan, planVariables(ctx, plan, req), req);
  if (q === null) return answered(ctx, req, dataText(plan.pieces, null));
  const { st, values } = q;
  return new Promise((resolve) => {
    (ctx.pool as unknown as { query: QueryWithCallback }).query(new ArrayQuery(st.name, st.text, values), (e, r) => {
      try {
        if (e && ctx.connectionRetries > 0 && isConnectionError(e)) {
          resolve(retryAfter(e, retryPolicy(ctx), () => submit(ctx.pool, new ArrayQuery(st.name, st.text, values))).then(
            (again) => answered(ctx, req, dataText(plan.pieces, again.rows[0] ?? null)),
            (err: unknown) => failed(ctx, statementError(st, values, err), req),
          ));
          return;
        }
        resolve(e ? failed(ctx, statementError(st, values, e), req) : answered(ctx, req, dataText(plan.pieces, r.rows[0] ?? null)));
      } catch (err) {
        resolve(failed(ctx, err, req));
      }
    });
  });
}

/** The `data` object's JSON text of a plan without action fields. */
async function runData(
  ctx: ExecuteContext, plan: Plan, variables: Record<string, unknown>, req: GraphQLRequest, tx?: pg.PoolClient,
): Promise<string> {
  if (!plan.sequential) {
    const q = queryStatement(ctx, plan, variables, req);
    return splice(plan.pieces, q === null ? null : await runStatement(tx ?? ctx.pool, q.st, q.values, tx ? undefined : retryPolicy(ctx)));
  }
  const src = { variables, sessionVariables: ctx.session.variables };
  if (log.wants('query-log')) logQuery(ctx, req, plan, null);
  // A lone mutation statement is atomic by itself and sets engine.user itself (CompiledSql.standalone): no BEGIN/COMMIT,
  // unless another isolation than the default is asked for (only BEGIN can set it).
  const only = plan.statements.length === 1 && ctx.txIsolation === 'read-committed' ? plan.statements[0] : null;
  if (only?.standalone) {
    const values = resolveParams(only.slots, src);
    const row = tx ? await runStatement(tx, only, values) : await onConnection(ctx, (client) => runStatement(client, only, values));
    return splice(plan.pieces, [row?.[0] ?? null]);
  }
  if (plan.statements.length === 0) return splice(plan.pieces, []);
  if (tx) return splice(plan.pieces, await runStatements(tx, plan, src));
  return splice(plan.pieces, await inTransaction(ctx, (client) => runStatements(client, plan, src)));
}

const touchesDb = (s: NonNullable<Plan['mixed']>[number]): boolean => 'plan' in s || s.action.kind === 'action_enqueue';

async function runMixed(
  ctx: ExecuteContext, steps: NonNullable<Plan['mixed']>, variables: Record<string, unknown>, req: GraphQLRequest, operation: Plan['operation'],
): Promise<string> {
  // A mutation's root fields are one transaction, an async action's enqueue included (as the original: the
  // mutation fails, the action was never asked for); a lone action needs none (its INSERT is atomic by itself).
  if (operation === 'mutation' && steps.length > 1 && steps.some(touchesDb)) {
    return inTransaction(ctx, (tx) => runSteps(ctx, steps, variables, req, tx));
  }
  return runSteps(ctx, steps, variables, req);
}

async function runSteps(
  ctx: ExecuteContext, steps: NonNullable<Plan['mixed']>, variables: Record<string, unknown>, req: GraphQLRequest, tx?: pg.PoolClient,
): Promise<string> {
  const setCookie = ctx.reply?.setCookie ?? [];
  const env: ActionEnv = {
    db: tx ?? ctx.pool, session: ctx.session, clientHeaders: ctx.clientHeaders ?? null, variables,
    rawVariables: req.variables ?? null, setCookie,
  };
  const parts: string[] = [];
  for (const s of steps) {
    if ('plan' in s) {
      parts.push((await runData(ctx, s.plan, variables, req, tx)).slice(1, -1));
      continue;
    }
    try {
      parts.push(`${JSON.stringify(s.key)}:${await runActionRoot(env, s.action)}`);
    } catch (e) {
      if (e instanceof EngineError && ctx.reply) ctx.reply.errorStatus = e.status;
      throw e;
    }
  }
  return `{${parts.join(',')}}`;
}

/**
 * Runs a mutation's statement on a connection of its own: connecting is retried on connection errors, the statement
 * never is (once sent, it may have run).
 */
async function onConnection<T>(ctx: ExecuteContext, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await connectRetrying(ctx.pool, retryPolicy(ctx), async () => undefined);
  try {
    return await fn(client);
  } finally {
    client.release(); // the pool drops one whose connection ended
  }
}

const BEGIN: Record<TxIsolation, string> = {
  'read-committed': 'BEGIN ISOLATION LEVEL READ COMMITTED',
  'repeatable-read': 'BEGIN ISOLATION LEVEL REPEATABLE READ',
  serializable: 'BEGIN ISOLATION LEVEL SERIALIZABLE',
};

/**
 * Runs `fn` in a transaction with the session in `engine.user` (event triggers read it); commits if it returns.
 * Connecting, BEGIN and the session are retried on connection errors (nothing of the mutation was sent yet).
 */
async function inTransaction<T>(ctx: ExecuteContext, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await connectRetrying(ctx.pool, retryPolicy(ctx), async (c) => {
    await c.query(BEGIN[ctx.txIsolation]);
    await c.query("SELECT set_config('engine.user', $1, true)", [JSON.stringify(ctx.session.variables)]);
  });
  let ok = false;
  try {
    const result = await fn(client);
    await client.query('COMMIT');
    ok = true;
    return result;
  } finally {
    // A connection that cannot even roll back is broken: drop it instead of returning it to the pool.
    let broken = false;
    if (!ok) await client.query('ROLLBACK').catch(() => { broken = true; });
    client.release(broken);
  }
}

/** A mutation plan's statements, every root field in order, on a client already in a transaction. */
async function runStatements(client: pg.PoolClient, plan: Plan, src: Parameters<typeof resolveParams>[1]): Promise<unknown[]> {
  const results: unknown[] = [];
  const params = plan.statements.map((st) => resolveParams(st.slots, src));
  for (let i = 0; i < plan.statements.length; i++) {
    const st = plan.statements[i];
    // A statement reading PREVIOUS_RESULT continues the one before it (Note [Nested returning], src/sql/mutation-statement.ts).
    const values = i > 0 && st.slots.some((s) => s.kind === 'variable' && s.name === PREVIOUS_RESULT)
      ? resolveParams(st.slots, { ...src, variables: { ...src.variables, [PREVIOUS_RESULT]: results[i - 1] } })
      : params[i];
    const row = await runStatement(client, st, values);
    results.push(row?.[0] ?? null);
  }
  return results;
}

function toEngineError(ctx: ExecuteContext, e: unknown): EngineError {
  if (e instanceof EngineError) return e;
  log.error('graphql-internal-error', { request_id: ctx.requestId, error: e });
  return new EngineError('unexpected', 'an unexpected error occurred', { status: 500, internal: { message: e instanceof Error ? e.message : String(e) } });
}

/** A whole-request answer: the body, and for the request log the error and the GraphQL request. */
export interface GraphQLResult {
  status: number;
  body: string;
  headers?: Record<string, string>;
  /** The error of a request that failed (of a batch: the first one). */
  error?: EngineError;
  /** The GraphQL request of a single request, once parsed. */
  request?: GraphQLRequest;
  /** The (first) operation's type, once planned (request metrics). */
  operationType?: string;
}

const errorText = (ctx: ExecuteContext, err: EngineError): string => JSON.stringify({ errors: [graphqlErrorObject(err, ctx.showInternal)] });

/**
 * The answer of a request that selects remote-schema fields (through ctx.remote), or null when it selects none.
 * HTTP and websockets both go through here; the database part of a mixed request is answered without the hook.
 */
export function remoteRequest(ctx: ExecuteContext, req: GraphQLRequest, raw: unknown): Promise<string> | null {
  return ctx.remote?.(req, raw, async (part) => (await answer({ ...ctx, remote: undefined }, part)).body) ?? null;
}

/** A request's answer: its body, with the request and the operation's type for the request log and metrics. */
const answered = (ctx: ExecuteContext, req: GraphQLRequest, body: string): GraphQLResult =>
  ({ status: 200, body, request: req, operationType: ctx.operationType });

/** A request's failure as its answer (always HTTP 200, an `errors` body). */
function failed(ctx: ExecuteContext, e: unknown, req: GraphQLRequest): GraphQLResult {
  const error = toEngineError(ctx, e);
  return { status: 200, body: errorText(ctx, error), error, request: req, operationType: ctx.operationType };
}

/**
 * One request's answer; never rejects. A cached query plan is answered by runQueryPlan (one promise, or none at
 * all); a new plan, a remote-schema request, a mutation or an action go through the async path.
 */
function answer(ctx: ExecuteContext, req: GraphQLRequest, raw?: unknown): GraphQLResult | Promise<GraphQLResult> {
  try {
    const viaRemote = remoteRequest(ctx, req, raw);
    if (viaRemote) return viaRemote.then((body) => answered(ctx, req, body), (e: unknown) => failed(ctx, e, req));
    const planned = planFor(ctx, req);
    if (planned instanceof Promise) return answerLater(ctx, req, planned);
    return runQueryPlan(ctx, planned, req) ?? answerLater(ctx, req, planned);
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

/** Plan cache counters of a state (tests, debugging). */
export function planCacheStats(
  state: EngineState, capacity = 4000,
): { hits: number; misses: number; size: number; shapeHits: number; shapeMisses: number; shapeSize: number } {
  const c = cacheFor<Entry>(state, capacity);
  const s = shapeCacheFor<Plan>(state, capacity);
  return { hits: c.hits, misses: c.misses, size: c.size, shapeHits: s.hits, shapeMisses: s.misses, shapeSize: s.size };
}
