// The database's part of running a plan: a query's one statement, or a mutation's statements (one per root field)
// in one transaction, their results spliced into the `data` object's JSON text; the query-log line.
import type pg from 'pg';
import { log } from '../core/log.js';
import { inTransaction } from '../core/transaction.js';
import { connectRetrying, type RetryPolicy } from '../core/connection-retry.js';
import type { TxIsolation } from '../config/config.js';
import { splice } from '../sql/operation.js';
import { resolveParams } from '../sql/params.js';
import { PREVIOUS_RESULT } from '../sql/mutation-statement.js';
import type { GraphQLRequest } from '../graphql/request-body.js';
import type { ExecuteContext } from './context.js';
import type { Plan, Statement } from './plan.js';
import { runStatement } from './statement.js';
import { readStatement } from './read.js';

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

/** A query plan's one statement (or none) with its parameter values; query-log's line written when it is on. */
export function queryStatement(
  ctx: ExecuteContext, plan: Plan, variables: Record<string, unknown>, req: GraphQLRequest,
): { st: Statement; values: unknown[] } | null {
  const st = plan.statements[0];
  const values = st ? resolveParams(st.slots, { variables, sessionVariables: ctx.session.variables }) : null;
  if (log.wants('query-log')) logQuery(ctx, req, plan, values);
  return st ? { st, values: values! } : null;
}

/** The `data` object's JSON text of a plan without action fields. */
export async function runData(
  ctx: ExecuteContext, plan: Plan, variables: Record<string, unknown>, req: GraphQLRequest, tx?: pg.PoolClient,
): Promise<string> {
  const data = await runDatabase(ctx, plan, variables, req, tx);
  return plan.joins ? withRemoteJoins(ctx, plan.joins, data, req) : data;
}

/** A data object's text with its remote relationships' values fetched (src/remote/join.ts). */
export function withRemoteJoins(ctx: ExecuteContext, fields: NonNullable<Plan['joins']>, data: string, req: GraphQLRequest): Promise<string> {
  const joins = ctx.remoteJoins;
  if (!joins) throw new Error('a plan with remote joins, but no remote joins in the context');
  return joins.remoteJoins({
    remoteSchemas: ctx.state.metadata.remote_schemas, session: ctx.session, clientHeaders: ctx.clientHeaders ?? null,
    variables: req.variables ?? null, setCookie: ctx.reply?.setCookie ?? [],
  }, fields, data);
}

async function runDatabase(
  ctx: ExecuteContext, plan: Plan, variables: Record<string, unknown>, req: GraphQLRequest, tx?: pg.PoolClient,
): Promise<string> {
  if (!plan.sequential) {
    const q = queryStatement(ctx, plan, variables, req);
    if (q === null) return splice(plan.pieces, null);
    // A query's statement is a read (a replica may serve it), unless it is part of a mutation's transaction.
    const row = tx ? await runStatement(tx, q.st, q.values) : await readStatement(ctx, q.st, q.values);
    return splice(plan.pieces, row);
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
  return splice(plan.pieces, await inSessionTransaction(ctx, (client) => runStatements(client, plan, src)));
}

export const retryPolicy = (ctx: ExecuteContext): RetryPolicy => ({ retries: ctx.connectionRetries, requestId: ctx.requestId });

/**
 * Runs a mutation's statement on a connection of its own: connecting is retried on connection errors, the statement
 * never is (once sent, it may have run).
 */
async function onConnection<T>(ctx: ExecuteContext, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await connectRetrying(() => ctx.pool.connect(), retryPolicy(ctx));
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
 * Connecting is retried on connection errors (nothing of the mutation was sent yet).
 */
export async function inSessionTransaction<T>(ctx: ExecuteContext, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await connectRetrying(() => ctx.pool.connect(), retryPolicy(ctx));
  // A connection that cannot even roll back is broken: dropped instead of returned to the pool.
  let broken = false;
  try {
    return await inTransaction(client, async () => {
      await client.query("SELECT set_config('engine.user', $1, true)", [JSON.stringify(ctx.session.variables)]);
      return fn(client);
    }, () => (broken = true), BEGIN[ctx.txIsolation]);
  } finally {
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
