// Aggregate expressions: count (star, columns, distinct) and the per-column ops of `<t>_aggregate_fields`.
import type { AggregateOpFieldIR } from '../ir/types.js';
import { ident, join, raw, sql, type SQL } from './builder.js';

const AGGREGATE_OPS = new Set(['sum', 'avg', 'max', 'min', 'stddev', 'stddev_samp', 'stddev_pop', 'variance', 'var_samp', 'var_pop']);

/** `op(expr)` for an aggregate op of the IR (checked: the name is pasted as SQL). */
export function aggregateCall(op: string, arg: SQL): SQL {
  if (!AGGREGATE_OPS.has(op)) throw new Error(`unknown aggregate operation ${op}`);
  return sql`${raw(op)}(${arg})`;
}

/** count(*), count((a, b)) or count(DISTINCT (a, b)), as the original writes them. */
export function countExpr(f: Extract<AggregateOpFieldIR, { kind: 'count' }>, alias: string): SQL {
  if (!f.columns || f.columns.length === 0) return raw('count(*)');
  const cols = sql`(${join(f.columns.map((c) => ident(alias, c)), ', ')})`;
  return f.distinct ? sql`count(DISTINCT ${cols})` : sql`count(${cols})`;
}
