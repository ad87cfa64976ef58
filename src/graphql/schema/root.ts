// query_root fields: per table `<t>`, `<t>_by_pk`, `<t>_aggregate`; per tracked function `<fn>`, `<fn>_aggregate`.
// Each root field is described by a RootFieldMeta that the request translator dispatches on.
import { GraphQLList, GraphQLNonNull, type GraphQLFieldConfig } from 'graphql';
import { graphqlBaseName } from '../../core/names.js';
import type { ColumnInfo } from '../../cache/types.js';
import type { QueryFieldContributor, RootFieldMeta } from '../role-schema.js';
import { hasGraphQLNames, type RoleContext } from './context.js';
import { desc, rootFieldNames } from './names.js';
import { aggregateType, argsArgument, functionArgsType, hasFields, selectArgs, tableObjectType } from './select.js';
import { columnType } from './types.js';

export type RootField = [string, GraphQLFieldConfig<unknown, unknown>, RootFieldMeta];

/** The tables' and functions' query_root fields for a role, then those of `contributors`, in order. */
export function queryRootFields(ctx: RoleContext, contributors: readonly QueryFieldContributor[]): RootField[] {
  const out: RootField[] = [];
  for (const view of ctx.tables.values()) {
    if (!hasFields(view)) continue;
    const names = rootFieldNames(view.info);
    const q = view.info.name;
    const obj = tableObjectType(ctx, view);
    const list = new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(obj)));
    out.push([names.select, { type: list, args: selectArgs(ctx, view), description: desc.select(q) }, { kind: 'select', view }]);
    const pkCols = view.info.pg.primaryKey?.columns;
    const pk = (pkCols ?? []).map((n) => view.info.columns.find((c) => c.name === n)).filter((c): c is ColumnInfo => !!c);
    // _by_pk only when every key column has a GraphQL name (its arguments are those columns).
    if (pk.length > 0 && pk.length === pkCols?.length && pk.every(hasGraphQLNames)) {
      const args = Object.fromEntries(pk.map((c) => [c.graphqlName, { type: new GraphQLNonNull(columnType(ctx, c)) }]));
      out.push([names.selectByPk, { type: obj, args, description: desc.selectByPk(q) }, { kind: 'select_by_pk', view, pk }]);
    }
    if (view.access.allowAggregations) {
      out.push([names.selectAggregate, {
        type: new GraphQLNonNull(aggregateType(ctx, view)), args: selectArgs(ctx, view), description: desc.selectAggregate(q),
      }, { kind: 'aggregate', view }]);
    }
  }
  for (const fn of ctx.functions) {
    if (!hasFields(fn.returns)) continue;
    const base = graphqlBaseName(fn.info.name);
    const argsT = functionArgsType(ctx, fn.info.name, fn.info.pg.args, fn.inputArgs);
    const args = { ...argsArgument(argsT, fn.info.pg.args, fn.inputArgs), ...selectArgs(ctx, fn.returns) };
    const obj = tableObjectType(ctx, fn.returns);
    const description = fn.info.comment ?? desc.fn(fn.info.name, fn.returns.info.name);
    out.push([base, { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(obj))), args, description }, { kind: 'function', fn }]);
    if (fn.returns.access.allowAggregations) {
      out.push([`${base}_aggregate`, {
        type: new GraphQLNonNull(aggregateType(ctx, fn.returns)), args,
        description: desc.fnAggregate(fn.info.name, fn.returns.info.name),
      }, { kind: 'function_aggregate', fn }]);
    }
  }
  for (const contribute of contributors) {
    for (const c of contribute(ctx)) {
      out.push([c.name, c.config, { kind: 'extension', subscription: c.subscription, translate: c.translate }]);
    }
  }
  return out;
}
