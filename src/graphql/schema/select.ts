// Table object types `<t>`, the select arguments (where, order_by, limit, offset, distinct_on), `<t>_select_column`,
// the arguments object `<fn>_args` of functions and computed fields, and `<t>_aggregate`, `<t>_aggregate_fields`
// and `<t>_<op>_fields` (in this module because a table type and its aggregate refer to each other).
import {
  GraphQLBoolean, GraphQLEnumType, GraphQLFloat, GraphQLInputObjectType, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString,
  type GraphQLFieldConfig, type GraphQLFieldConfigArgumentMap, type GraphQLOutputType,
} from 'graphql';
import { graphqlBaseName, type QualifiedName } from '../../core/names.js';
import type { PgFunctionArg } from '../../catalog/types.js';
import type { ColumnInfo } from '../../cache/types.js';
import type { ComputedView, RoleContext, TableView } from './context.js';
import { boolExpType } from './boolexp.js';
import { AGGREGATE_OPS, desc } from './names.js';
import { hasOrderBy, opColumns, orderByType } from './orderby.js';
import { isJsonType, scalarName } from './scalars.js';
import { columnScalarName, columnType, named, scalarType, sortedMap } from './types.js';

export function selectColumnEnum(ctx: RoleContext, view: TableView): GraphQLEnumType | null {
  if (view.columns.length === 0) return null;
  const name = view.names.selectColumn;
  return named(ctx, name, () => new GraphQLEnumType({
    name,
    description: desc.selectColumn(view.info.name),
    values: sortedMap(view.columns.map((c) => [c.graphqlName, { value: c.name, description: 'column name' }])),
  }));
}

export function selectArgs(ctx: RoleContext, view: TableView): GraphQLFieldConfigArgumentMap {
  const args: GraphQLFieldConfigArgumentMap = {};
  const sc = selectColumnEnum(ctx, view);
  if (sc) args.distinct_on = { type: new GraphQLList(new GraphQLNonNull(sc)), description: 'distinct select on columns' };
  args.limit = { type: GraphQLInt, description: 'limit the number of rows returned' };
  args.offset = { type: GraphQLInt, description: 'skip the first n rows. Use only with order_by' };
  if (hasOrderBy(view)) {
    args.order_by = { type: new GraphQLList(new GraphQLNonNull(orderByType(ctx, view))), description: 'sort the rows by one or more columns' };
  }
  args.where = { type: boolExpType(ctx, view), description: 'filter the rows returned' };
  return args;
}

/** `<fn>_args`: one nullable field per input argument. Null when the function takes no input arguments. */
export function functionArgsType(
  ctx: RoleContext, fn: QualifiedName, pgArgs: PgFunctionArg[], inputArgs: Array<[string, number]>,
): GraphQLInputObjectType | null {
  if (inputArgs.length === 0) return null;
  const name = `${graphqlBaseName(fn)}_args`;
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    fields: () => sortedMap(inputArgs.map(([n, i]) => [n, { type: scalarType(ctx, scalarName(pgArgs[i].type)) }])),
    // An unknown key is reported at the args object, as the original (src/graphql/request/input.ts).
    extensions: { functionArgs: true },
  }));
}

/** The `args` argument: required when some input argument has no default. */
export function argsArgument(type: GraphQLInputObjectType | null, pgArgs: PgFunctionArg[], inputArgs: Array<[string, number]>): GraphQLFieldConfigArgumentMap {
  if (!type) return {};
  const required = inputArgs.some(([, i]) => !pgArgs[i].hasDefault);
  return { args: { type: required ? new GraphQLNonNull(type) : type, description: 'input parameters for function ' + `"${type.name.slice(0, -5)}"` } };
}

export function computedField(ctx: RoleContext, cv: ComputedView): GraphQLFieldConfig<unknown, unknown> {
  const cf = cv.cf;
  const argsT = functionArgsType(ctx, cf.function, cf.pgFunction.args, cv.inputArgs);
  const argsArg = argsArgument(argsT, cf.pgFunction.args, cv.inputArgs);
  const description = cf.comment ?? desc.computedField(cf.function);
  if (cf.returns.kind === 'scalar') {
    return { type: scalarType(ctx, scalarName(cf.returns.type)), args: argsArg, description };
  }
  const remote = cv.remote as TableView;
  const obj = tableObjectType(ctx, remote);
  const type: GraphQLOutputType = cf.returns.set ? new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(obj))) : obj;
  return { type, args: { ...argsArg, ...selectArgs(ctx, remote) }, description };
}

/** A column as an object field: its scalar (non-null when the column is), and `path` for json columns. */
export function columnField(ctx: RoleContext, c: ColumnInfo): GraphQLFieldConfig<unknown, unknown> {
  const t = columnType(ctx, c);
  const args: GraphQLFieldConfigArgumentMap = isJsonType(c.type) && !c.isArray
    ? { path: { type: GraphQLString, description: 'JSON select path' } } : {};
  return { type: c.nullable ? t : new GraphQLNonNull(t), args, description: c.comment ?? undefined };
}

export function tableObjectType(ctx: RoleContext, view: TableView): GraphQLObjectType {
  const name = view.names.object;
  return named(ctx, name, () => new GraphQLObjectType({
    name,
    description: desc.table(view.info),
    fields: () => {
      const f: Array<[string, GraphQLFieldConfig<unknown, unknown>]> = [];
      for (const c of view.columns) f.push([c.graphqlName, columnField(ctx, c)]);
      for (const [n, r] of view.objectRels) {
        f.push([n, { type: tableObjectType(ctx, r.remote), description: r.rel.comment ?? desc.objRel }]);
      }
      for (const [n, r] of view.arrayRels) {
        const obj = tableObjectType(ctx, r.remote);
        f.push([n, {
          type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(obj))),
          args: selectArgs(ctx, r.remote),
          description: r.rel.comment ?? desc.arrRel,
        }]);
        if (r.remote.access.allowAggregations) {
          f.push([`${n}_aggregate`, {
            type: new GraphQLNonNull(aggregateType(ctx, r.remote)),
            args: selectArgs(ctx, r.remote),
            description: r.rel.comment ?? desc.arrRelAggregate,
          }]);
        }
      }
      for (const [n, cv] of view.computed) f.push([n, computedField(ctx, cv)]);
      return sortedMap(f);
    },
  }));
}

/** A table is usable in the schema only when its object type would have at least one field. */
export const hasFields = (view: TableView): boolean =>
  view.columns.length + view.objectRels.size + view.arrayRels.size + view.computed.size > 0;

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
