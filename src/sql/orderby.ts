// OrderByIR → ORDER BY items over a row alias; object relationships and array aggregates become scalar subqueries.
import type { OrderByIR, OrderByTarget } from '../ir/types.js';
import { ident, join, raw, sql, type SQL } from './builder.js';
import { compileBoolExp, relationshipJoin } from './boolexp.js';
import type { CompileContext } from './context.js';
import { aggregateCall } from './aggregate.js';

export function targetExpr(t: OrderByTarget, alias: string, ctx: CompileContext): SQL {
  switch (t.kind) {
    case 'column':
      return ident(alias, t.column);
    case 'object_relationship': {
      const a = ctx.alias(t.relationship.name);
      const rt = t.relationship.remoteTable;
      const inner = targetExpr(t.target, a, ctx);
      const cond = relationshipJoin(t.relationship, alias, a);
      const filter = compileBoolExp(t.filter, a, ctx);
      return sql`(SELECT ${inner} FROM ${ident(rt.schema, rt.name)} AS ${ident(a)} WHERE ${cond} AND ${filter} LIMIT 1)`;
    }
    case 'array_aggregate': {
      const a = ctx.alias(t.relationship.name);
      const rt = t.relationship.remoteTable;
      const agg = t.op === 'count' ? raw('count(*)') : aggregateCall(t.op, ident(a, t.column));
      const cond = relationshipJoin(t.relationship, alias, a);
      const filter = compileBoolExp(t.filter, a, ctx);
      return sql`(SELECT ${agg} FROM ${ident(rt.schema, rt.name)} AS ${ident(a)} WHERE ${cond} AND ${filter})`;
    }
  }
}

/** The ORDER BY list (without the keyword), or null when there is nothing to order by. */
export function compileOrderBy(items: readonly OrderByIR[], alias: string, ctx: CompileContext): SQL | null {
  if (items.length === 0) return null;
  return join(
    items.map((o) => sql`${targetExpr(o.target, alias, ctx)} ${raw(o.direction === 'asc' ? 'ASC' : 'DESC')} ${raw(o.nulls === 'first' ? 'NULLS FIRST' : 'NULLS LAST')}`),
    ', ',
  );
}
