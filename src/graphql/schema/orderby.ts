// `<t>_order_by`, `<t>_aggregate_order_by` and `<t>_<op>_order_by`.
import { GraphQLInputObjectType, type GraphQLInputFieldConfig } from 'graphql';
import type { ColumnInfo } from '../../cache/types.js';
import type { RoleContext, TableView } from './context.js';
import { AGGREGATE_OPS, NUMERIC_OPS, desc } from './names.js';
import { named, orderByEnum, sortedMap } from './types.js';

/** Columns an aggregate op applies to: numeric ones, or comparable ones for max/min. */
export const opColumns = (view: TableView, op: string): ColumnInfo[] =>
  NUMERIC_OPS.has(op) ? view.numericColumns : view.comparableColumns;

/** Whether `<t>_order_by` has any field (an input object without fields would make the schema invalid). */
export function hasOrderBy(view: TableView, visiting: Set<string> = new Set()): boolean {
  if (view.columns.length > 0 || [...view.arrayRels.values()].some((r) => r.remote.access.allowAggregations)) return true;
  if (visiting.has(view.key)) return false;
  visiting.add(view.key);
  const viaRel = [...view.objectRels.values()].some((r) => hasOrderBy(r.remote, visiting));
  visiting.delete(view.key);
  return viaRel;
}

export function orderByType(ctx: RoleContext, view: TableView): GraphQLInputObjectType {
  const name = view.names.orderBy;
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    description: desc.orderBy(view.info.name),
    fields: () => {
      const ob = orderByEnum(ctx);
      const f: Array<[string, GraphQLInputFieldConfig]> = [];
      for (const c of view.columns) f.push([c.graphqlName, { type: ob }]);
      for (const [n, r] of view.objectRels) if (hasOrderBy(r.remote)) f.push([n, { type: orderByType(ctx, r.remote) }]);
      for (const [n, r] of view.arrayRels) {
        if (r.remote.access.allowAggregations) f.push([`${n}_aggregate`, { type: aggregateOrderByType(ctx, r.remote) }]);
      }
      return sortedMap(f);
    },
  }));
}

export function aggregateOrderByType(ctx: RoleContext, view: TableView): GraphQLInputObjectType {
  const name = view.names.aggregateOrderBy;
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    description: desc.aggregateOrderBy(view.info.name),
    fields: () => {
      const ob = orderByEnum(ctx);
      const f: Array<[string, GraphQLInputFieldConfig]> = [['count', { type: ob }]];
      for (const op of AGGREGATE_OPS) {
        const cols = opColumns(view, op);
        if (cols.length === 0) continue;
        const tn = view.names.opOrderBy(op);
        const t = named(ctx, tn, () => new GraphQLInputObjectType({
          name: tn,
          description: desc.opOrderBy(op, view.info.name),
          fields: sortedMap(cols.map((c) => [c.graphqlName, { type: ob }])),
        }));
        f.push([op, { type: t }]);
      }
      return sortedMap(f);
    },
  }));
}
