// `<t>_bool_exp` and the `<Scalar>_comparison_exp` types (SPEC-NOTES §1.6).
import {
  GraphQLBoolean, GraphQLFloat, GraphQLInputObjectType, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLString,
  type GraphQLInputFieldConfig, type GraphQLInputType,
} from 'graphql';
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
  return scalarComparisonType(ctx, columnScalarName(c), c.type, c.isArray);
}

function inputObject(ctx: RoleContext, name: string, fields: () => Record<string, GraphQLInputFieldConfig>): GraphQLInputObjectType {
  return named(ctx, name, () => new GraphQLInputObjectType({ name, fields }));
}

/** PostGIS operators of geometry, geography and raster comparisons (and their `_cast`). */
function spatialOps(ctx: RoleContext, pgType: string, base: GraphQLInputType): Record<string, GraphQLInputFieldConfig> {
  const nn = (t: GraphQLInputType) => new GraphQLNonNull(t as never);
  const geometry = () => scalarType(ctx, 'geometry');
  const geography = () => scalarType(ctx, 'geography');
  if (pgType === 'geometry') {
    const ops: Record<string, GraphQLInputFieldConfig> = {
      _cast: { type: inputObject(ctx, 'geometry_cast_exp', () => ({ geography: { type: scalarComparisonType(ctx, 'geography', 'geography', false) } })) },
      _st_d_within: { type: inputObject(ctx, 'st_d_within_input', () => ({ distance: { type: nn(GraphQLFloat) }, from: { type: nn(geometry()) } })) },
    };
    for (const op of ['_st_contains', '_st_crosses', '_st_equals', '_st_intersects', '_st_overlaps', '_st_touches', '_st_within']) ops[op] = { type: base };
    return ops;
  }
  if (pgType === 'geography') {
    return {
      _cast: { type: inputObject(ctx, 'geography_cast_exp', () => ({ geometry: { type: scalarComparisonType(ctx, 'geometry', 'geometry', false) } })) },
      _st_d_within: {
        type: inputObject(ctx, 'st_d_within_geography_input', () => ({
          distance: { type: nn(GraphQLFloat) }, from: { type: nn(geography()) }, use_spheroid: { type: GraphQLBoolean, defaultValue: true },
        })),
      },
      _st_intersects: { type: base },
    };
  }
  if (pgType === 'raster') {
    return {
      _st_intersects_geom_nband: {
        type: inputObject(ctx, 'st_intersects_geom_nband_input', () => ({ geommin: { type: nn(geometry()) }, nband: { type: GraphQLInt } })),
      },
      _st_intersects_nband_geom: {
        type: inputObject(ctx, 'st_intersects_nband_geom_input', () => ({ geommin: { type: nn(geometry()) }, nband: { type: nn(GraphQLInt) } })),
      },
      _st_intersects_rast: { type: base },
    };
  }
  return {};
}

/** `<Scalar>_comparison_exp`. */
export function scalarComparisonType(ctx: RoleContext, scalar: string, pgType: string, isArray: boolean): GraphQLInputObjectType {
  const name = `${scalar}_comparison_exp`;
  return named(ctx, name, () => {
    const base = scalarType(ctx, scalar);
    const extra: Record<string, GraphQLInputFieldConfig> = {};
    if (!isArray && isStringType(pgType)) {
      for (const op of ['_ilike', '_like', '_nilike', '_nlike', '_nsimilar', '_similar']) extra[op] = { type: base };
    }
    if (!isArray && pgType === 'jsonb') {
      for (const [op, [d, t]] of Object.entries(JSONB_OPS)) {
        const type = t === 'jsonb' ? base : t === 'String' ? GraphQLString : new GraphQLList(new GraphQLNonNull(GraphQLString));
        extra[op] = { type, description: d };
      }
    }
    return new GraphQLInputObjectType({
      name,
      description: desc.comparison(scalar),
      fields: () => comparisonFields(base, isArray ? extra : { ...extra, ...spatialOps(ctx, pgType, base) }),
    });
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
