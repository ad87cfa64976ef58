// `<t>_bool_exp` and the `<Scalar>_comparison_exp` types (SPEC-NOTES §1.6).
import { GraphQLBoolean, GraphQLInputObjectType, GraphQLList, GraphQLNonNull, GraphQLString, type GraphQLInputFieldConfig, type GraphQLInputType } from 'graphql';
import { qualifiedKey } from '../../core/names.js';
import type { ColumnInfo } from '../../cache/types.js';
import type { RoleContext, TableView } from './context.js';
import { desc } from './names.js';
import { isStringType } from './scalars.js';
import { columnScalarName, enumTableType, named, scalarType, sortedMap } from './types.js';

const JSONB_OPS: Record<string, [string, 'jsonb' | 'String' | '[String!]']> = {
  _contained_in: ['is the column contained in the given json value', 'jsonb'],
  _contains: ['does the column contain the given json value at the top level', 'jsonb'],
  _has_key: ['does the string exist as a top-level key in the column', 'String'],
  _has_keys_all: ['do all of these strings exist as top-level keys in the column', '[String!]'],
  _has_keys_any: ['do any of these strings exist as top-level keys in the column', '[String!]'],
};

function comparisonFields(base: GraphQLInputType, extra: Record<string, GraphQLInputFieldConfig>): Record<string, GraphQLInputFieldConfig> {
  const list = new GraphQLList(new GraphQLNonNull(base as never));
  return sortedMap(Object.entries({
    _eq: { type: base }, _gt: { type: base }, _gte: { type: base }, _in: { type: list }, _is_null: { type: GraphQLBoolean },
    _lt: { type: base }, _lte: { type: base }, _neq: { type: base }, _nin: { type: list }, ...extra,
  }));
}

/** The comparison input type of a column (enum-table columns compare with equality operators only). */
export function comparisonType(ctx: RoleContext, c: ColumnInfo): GraphQLInputObjectType {
  const enumT = c.enumReference ? enumTableType(ctx, qualifiedKey(c.enumReference)) : null;
  if (enumT) {
    const name = `${enumT.name}_comparison_exp`;
    return named(ctx, name, () => {
      const list = new GraphQLList(new GraphQLNonNull(enumT));
      return new GraphQLInputObjectType({
        name,
        description: desc.comparison(enumT.name),
        fields: sortedMap(Object.entries({ _eq: { type: enumT }, _in: { type: list }, _is_null: { type: GraphQLBoolean }, _neq: { type: enumT }, _nin: { type: list } })),
      });
    });
  }
  const scalar = columnScalarName(c);
  const name = `${scalar}_comparison_exp`;
  return named(ctx, name, () => {
    const base = scalarType(ctx, scalar);
    const extra: Record<string, GraphQLInputFieldConfig> = {};
    if (!c.isArray && isStringType(c.type)) {
      for (const op of ['_ilike', '_like', '_nilike', '_nlike', '_nsimilar', '_similar']) extra[op] = { type: base };
    }
    if (!c.isArray && c.type === 'jsonb') {
      for (const [op, [d, t]] of Object.entries(JSONB_OPS)) {
        const type = t === 'jsonb' ? base : t === 'String' ? GraphQLString : new GraphQLList(new GraphQLNonNull(GraphQLString));
        extra[op] = { type, description: d };
      }
    }
    return new GraphQLInputObjectType({ name, description: desc.comparison(scalar), fields: () => comparisonFields(base, extra) });
  });
}

export function boolExpType(ctx: RoleContext, view: TableView): GraphQLInputObjectType {
  const name = view.names.boolExp;
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    description: desc.boolExp(view.info.name),
    fields: () => {
      const self = boolExpType(ctx, view);
      const f: Array<[string, GraphQLInputFieldConfig]> = [
        ['_and', { type: new GraphQLList(self) }],
        ['_not', { type: self }],
        ['_or', { type: new GraphQLList(self) }],
      ];
      for (const c of view.columns) {
        f.push([c.graphqlName, { type: comparisonType(ctx, c) }]);
      }
      for (const [n, r] of [...view.objectRels, ...view.arrayRels]) f.push([n, { type: boolExpType(ctx, r.remote) }]);
      return sortedMap(f);
    },
  }));
}
