// Shared GraphQL types of a role schema: scalars, the order_by enum, enum-table enums, and the memo every builder
// module creates named types through (so mutually recursive table types are built once).
import {
  GraphQLBoolean, GraphQLEnumType, GraphQLFloat, GraphQLInt, GraphQLScalarType, GraphQLString,
  type GraphQLEnumValueConfigMap, type GraphQLNamedType,
} from 'graphql';
import { qualifiedKey } from '../../core/names.js';
import type { ColumnInfo } from '../../cache/types.js';
import type { RoleContext } from './context.js';
import { scalarName } from './scalars.js';

export function named<T extends GraphQLNamedType>(ctx: RoleContext, name: string, create: () => T): T {
  const existing = ctx.types.get(name);
  if (existing) return existing as T;
  const t = create();
  ctx.types.set(name, t);
  return t;
}

/** Sorts a field map by name: the original lists fields, arguments and enum values in name order. */
export function sortedMap<V>(entries: Iterable<[string, V]>): Record<string, V> {
  const arr = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const out: Record<string, V> = {};
  for (const [k, v] of arr) out[k] = v;
  return out;
}

const BUILTIN_SCALARS: Record<string, GraphQLScalarType> = {
  Int: GraphQLInt, Float: GraphQLFloat, String: GraphQLString, Boolean: GraphQLBoolean,
};

export function scalarType(ctx: RoleContext, name: string): GraphQLScalarType {
  const builtin = Object.prototype.hasOwnProperty.call(BUILTIN_SCALARS, name) ? BUILTIN_SCALARS[name] : undefined;
  if (builtin) return builtin;
  return named(ctx, name, () => new GraphQLScalarType({ name, serialize: (v) => v, parseValue: (v) => v }));
}

export const columnScalarName = (c: ColumnInfo): string => scalarName(c.type, c.isArray);

/** The GraphQL type of a column's values: the enum of its enum table, or its scalar. */
export function columnType(ctx: RoleContext, c: ColumnInfo): GraphQLScalarType | GraphQLEnumType {
  const e = c.enumReference ? enumTableType(ctx, qualifiedKey(c.enumReference)) : null;
  return e ?? scalarType(ctx, columnScalarName(c));
}

/** `<t>_enum` for a tracked enum table (visible to every role that sees a column referencing it). */
export function enumTableType(ctx: RoleContext, tableKey: string): GraphQLEnumType | null {
  const t = ctx.cache.tables[tableKey];
  const valid = (t?.enumValues ?? []).filter((v) => /^[_A-Za-z][_0-9A-Za-z]*$/.test(v.value));
  // an enum without values is not a valid GraphQL type: such columns stay plain scalars
  if (!t || !t.isEnum || valid.length === 0) return null;
  const name = `${t.name.schema === 'public' ? t.name.name : `${t.name.schema}_${t.name.name}`}_enum`;
  return named(ctx, name, () => {
    const values: GraphQLEnumValueConfigMap = sortedMap(
      valid.map((v) => [v.value, { value: v.value, description: v.comment ?? undefined }]),
    );
    return new GraphQLEnumType({ name, values });
  });
}

export const ORDER_BY_VALUES: Record<string, { direction: 'asc' | 'desc'; nulls: 'first' | 'last'; description: string }> = {
  asc: { direction: 'asc', nulls: 'last', description: 'in the ascending order, nulls last' },
  asc_nulls_first: { direction: 'asc', nulls: 'first', description: 'in the ascending order, nulls first' },
  asc_nulls_last: { direction: 'asc', nulls: 'last', description: 'in the ascending order, nulls last' },
  desc: { direction: 'desc', nulls: 'first', description: 'in the descending order, nulls first' },
  desc_nulls_first: { direction: 'desc', nulls: 'first', description: 'in the descending order, nulls first' },
  desc_nulls_last: { direction: 'desc', nulls: 'last', description: 'in the descending order, nulls last' },
};

export function orderByEnum(ctx: RoleContext): GraphQLEnumType {
  return named(ctx, 'order_by', () => new GraphQLEnumType({
    name: 'order_by',
    description: 'column ordering options',
    values: Object.fromEntries(Object.entries(ORDER_BY_VALUES).map(([k, v]) => [k, { value: k, description: v.description }])),
  }));
}
