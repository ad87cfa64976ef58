// `<t>_aggregate`, `<t>_aggregate_fields` and `<t>_<op>_fields`.
import { GraphQLBoolean, GraphQLFloat, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, type GraphQLFieldConfig, type GraphQLFieldConfigArgumentMap } from 'graphql';
import type { RoleContext, TableView } from './context.js';
import { AGGREGATE_OPS, desc } from './names.js';
import { opColumns } from './orderby.js';
import { selectColumnEnum, tableObjectType } from './select.js';
import { columnScalarName, named, scalarType, sortedMap } from './types.js';

export function aggregateType(ctx: RoleContext, view: TableView): GraphQLObjectType {
  const name = view.names.aggregate;
  return named(ctx, name, () => new GraphQLObjectType({
    name,
    description: desc.aggregate(view.info.name),
    fields: () => ({
      aggregate: { type: aggregateFieldsType(ctx, view) },
      nodes: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(tableObjectType(ctx, view)))) },
    }),
  }));
}

function aggregateFieldsType(ctx: RoleContext, view: TableView): GraphQLObjectType {
  const name = view.names.aggregateFields;
  return named(ctx, name, () => new GraphQLObjectType({
    name,
    description: desc.aggregateFields(view.info.name),
    fields: () => {
      const countArgs: GraphQLFieldConfigArgumentMap = {};
      const sc = selectColumnEnum(ctx, view);
      if (sc) countArgs.columns = { type: new GraphQLList(new GraphQLNonNull(sc)) };
      countArgs.distinct = { type: GraphQLBoolean };
      const f: Array<[string, GraphQLFieldConfig<unknown, unknown>]> = [['count', { type: GraphQLInt, args: countArgs }]];
      for (const op of AGGREGATE_OPS) {
        const cols = opColumns(view, op);
        if (cols.length === 0) continue;
        const tn = view.names.opFields(op);
        const t = named(ctx, tn, () => new GraphQLObjectType({
          name: tn,
          description: desc.opFields(op, view.info.name),
          fields: () => sortedMap(cols.map((c) => {
            const keep = op === 'sum' || op === 'max' || op === 'min';
            return [c.graphqlName, { type: keep ? scalarType(ctx, columnScalarName(c)) : GraphQLFloat }];
          })),
        }));
        f.push([op, { type: t }]);
      }
      return sortedMap(f);
    },
  }));
}
