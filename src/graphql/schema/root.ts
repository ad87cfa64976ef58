// query_root fields: per table `<t>`, `<t>_by_pk`, `<t>_aggregate`; per tracked function `<fn>`, `<fn>_aggregate`.
// Each root field is described by a RootFieldMeta that the request translator dispatches on.
import { GraphQLList, GraphQLNonNull } from 'graphql';
import { graphqlBaseName } from '../../core/names.js';
import type { ColumnInfo } from '../../cache/types.js';
import type { QueryFieldContributor, RootFieldMeta } from '../role-schema.js';
import { hasGraphQLNames, type RoleContext } from './context.js';
import { desc, rootFieldNames } from './names.js';
import { aggregateType, argsArgument, functionArgsType, hasFields, selectArgs, tableObjectType } from './select.js';
import { columnType } from './types.js';
import { once, type FieldThunk } from './lazy-root.js';

export type RootField = [string, FieldThunk, RootFieldMeta];

/**
 * The tables' and functions' query_root fields for a role, then those of `contributors`, in order. Names and metas
 * are decided here; each field's config (and the types it names) is made when the field is first read.
 */
export function queryRootFields(ctx: RoleContext, contributors: readonly QueryFieldContributor[]): RootField[] {
  const out: RootField[] = [];
  for (const view of ctx.tables.values()) {
    if (!hasFields(view)) continue;
    const names = rootFieldNames(view.info);
    const q = view.info.name;
    const list = () => new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(tableObjectType(ctx, view))));
    out.push([names.select, once(() => ({ type: list(), args: selectArgs(ctx, view), description: desc.select(q) })), { kind: 'select', view }]);
    const pkCols = view.info.pg.primaryKey?.columns;
    const pk = (pkCols ?? []).map((n) => view.info.columns.find((c) => c.name === n)).filter((c): c is ColumnInfo => !!c);
    // _by_pk only when every key column has a GraphQL name (its arguments are those columns).
    if (pk.length > 0 && pk.length === pkCols?.length && pk.every(hasGraphQLNames)) {
      out.push([names.selectByPk, once(() => ({
        type: tableObjectType(ctx, view),
        args: Object.fromEntries(pk.map((c) => [c.graphqlName, { type: new GraphQLNonNull(columnType(ctx, c)) }])),
        description: desc.selectByPk(q),
      })), { kind: 'select_by_pk', view, pk }]);
    }
    if (view.access.allowAggregations) {
      out.push([names.selectAggregate, once(() => ({
        type: new GraphQLNonNull(aggregateType(ctx, view)), args: selectArgs(ctx, view), description: desc.selectAggregate(q),
      })), { kind: 'aggregate', view }]);
    }
  }
  for (const fn of ctx.functions) {
    if (!hasFields(fn.returns)) continue;
    const base = graphqlBaseName(fn.info.name);
    const args = once(() => {
      const argsT = functionArgsType(ctx, fn.info.name, fn.info.pg.args, fn.inputArgs);
      return { ...argsArgument(argsT, fn.info.pg.args, fn.inputArgs), ...selectArgs(ctx, fn.returns) };
    });
    const description = fn.info.comment ?? desc.fn(fn.info.name, fn.returns.info.name);
    out.push([base, once(() => ({
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(tableObjectType(ctx, fn.returns)))), args: args(), description,
    })), { kind: 'function', fn }]);
    if (fn.returns.access.allowAggregations) {
      out.push([`${base}_aggregate`, once(() => ({
        type: new GraphQLNonNull(aggregateType(ctx, fn.returns)), args: args(),
        description: desc.fnAggregate(fn.info.name, fn.returns.info.name),
      })), { kind: 'function_aggregate', fn }]);
    }
  }
  for (const contribute of contributors) {
    for (const c of contribute(ctx)) {
      out.push([c.name, () => c.config, { kind: 'extension', subscription: c.subscription, translate: c.translate }]);
    }
  }
  return out;
}
