// POST /v1/graphql/explain (admin only): each database root field's SQL, with its parameters shown as literals,
// and Postgres's EXPLAIN of it (run with the real parameters bound, not with the display text).
import type pg from 'pg';
import { EngineError, metadataErrorBody } from '../core/errors.js';
import type { EngineState } from '../cache/state.js';
import type { Session } from '../auth/session.js';
import { compile, displayLiteral, type SQL } from '../sql/builder.js';
import { CompileContext } from '../sql/context.js';
import { compileRootField } from '../sql/operation.js';
import { compileLiveQuery, liveQueryParams } from '../sql/live.js';
import type { OperationIR } from '../ir/operation.js';
import { resolveParams, type ParamSource } from '../sql/params.js';
import type { PrepareFn } from './context.js';
import { mapExecutionError } from '../core/pg-errors.js';
import { parseRequest } from '../graphql/request-body.js';
import type { ReadRouting } from './features.js';
import { readOn } from './read.js';

export interface ExplainContext {
  pool: pg.Pool;
  /** Read replicas: an EXPLAIN is a read (planned where the query would run). */
  reads?: ReadRouting;
  state: EngineState;
  /** The caller: must be admin. */
  session: Session;
  stringifyNumeric: boolean;
  prepare: PrepareFn;
}

/** The session to explain as: the body's `user` headers (x-engine-* keys), admin when absent. */
function explainSession(user: unknown): Session {
  const variables: Record<string, string> = {};
  if (user !== null && typeof user === 'object' && !Array.isArray(user)) {
    for (const [k, v] of Object.entries(user as Record<string, unknown>)) {
      if (typeof v === 'string' && k.toLowerCase().startsWith('x-engine-')) variables[k.toLowerCase()] = v;
    }
  }
  return { role: variables['x-engine-role'] ?? 'admin', variables };
}

type Explained = { field: string; sql: string; plan: string[] };

/** EXPLAIN of a statement, on the source a read of it would use. */
const explainRows = (ctx: ExplainContext, text: string, values: unknown[]): Promise<Array<{ 'QUERY PLAN': string }>> =>
  readOn(ctx.reads, ctx.pool, 0, async (pool) => (await pool.query<{ 'QUERY PLAN': string }>({ text: `EXPLAIN ${text}`, values })).rows);

/** The SQL (parameters shown as literals) and EXPLAIN lines of one statement. */
async function explainStatement(ctx: ExplainContext, q: SQL, src: ParamSource): Promise<{ sql: string; plan: string[] }> {
  const c = compile(q);
  const values = resolveParams(c.slots, src);
  const display = compile(q, (i) => displayLiteral(values[i - 1])).text;
  try {
    const rows = await explainRows(ctx, c.text, values);
    return { sql: display, plan: rows.map((r) => r['QUERY PLAN']) };
  } catch (e) {
    throw mapExecutionError(e, { text: c.text, values });
  }
}

/** A subscription: the multiplexed statement it polls with (SPEC-NOTES-runtime §2.5), planned for this one subscriber. */
async function explainLive(ctx: ExplainContext, ir: OperationIR, src: ParamSource): Promise<{ sql: string; plan: string[] }> {
  const plan = compileLiveQuery(ir);
  const values = liveQueryParams(plan, [{ id: '00000000-0000-0000-0000-000000000000', source: src }]);
  try {
    const rows = await explainRows(ctx, plan.text, values);
    return { sql: plan.text, plan: rows.map((r) => r['QUERY PLAN']) };
  } catch (e) {
    throw mapExecutionError(e, { text: plan.text, values });
  }
}

/** A query: one entry per database root field. A subscription (one root field): one `{sql, plan}` object. */
export async function explainGraphQL(ctx: ExplainContext, body: unknown): Promise<Explained[] | { sql: string; plan: string[] }> {
  if (ctx.session.role !== 'admin') throw new EngineError('access-denied', 'restricted access : admin only');
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new EngineError('parse-failed', 'expected Object, encountered ' + (Array.isArray(body) ? 'Array' : body === null ? 'Null' : 'String'));
  const b = body as Record<string, unknown>;
  if (!('query' in b)) throw new EngineError('parse-failed', 'key "query" not found');
  // `query` is the request object, or just the GraphQL text.
  const req = typeof b.query === 'string' ? parseRequest({ query: b.query }, ['query']) : parseRequest(b.query, ['query']);
  const session = explainSession(b.user);
  const prepared = await ctx.prepare(ctx.state, session, req, { stringifyNumeric: ctx.stringifyNumeric });
  if (prepared.ir.operation === 'mutation') throw new EngineError('invalid-params', 'only queries can be explained');
  const src: ParamSource = { variables: prepared.coerceVariables(req.variables), sessionVariables: session.variables };
  if (prepared.ir.operation === 'subscription') return explainLive(ctx, prepared.ir, src);
  const ctxSql = new CompileContext();
  const out: Explained[] = [];
  for (const [field, f] of prepared.ir.fields) {
    const q = compileRootField(f, ctxSql);
    if (q === null) continue;
    out.push({ field, ...(await explainStatement(ctx, q, src)) });
  }
  return out;
}

/** The route's answer: the explain array, or a metadata-style error body with the error's status (and the error, for the request log). */
export async function handleExplainRequest(
  ctx: ExplainContext, body: unknown, showInternal: boolean,
): Promise<{ status: number; body: string; error?: EngineError }> {
  try {
    return { status: 200, body: JSON.stringify(await explainGraphQL(ctx, body)) };
  } catch (e) {
    const err = e instanceof EngineError ? e : new EngineError('unexpected', 'an unexpected error occurred', { status: 500 });
    return { status: err.status, body: JSON.stringify(metadataErrorBody(err, showInternal)), error: err };
  }
}
