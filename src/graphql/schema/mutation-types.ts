// Input and output types of mutation fields: `<t>_insert_input`, `<t>_obj_rel_insert_input`,
// `<t>_arr_rel_insert_input`, `<t>_on_conflict` (with `<t>_constraint` and `<t>_update_column`), `<t>_set_input`,
// `<t>_inc_input`, the jsonb operator inputs, `<t>_pk_columns_input` and `<t>_mutation_response`.
import {
  GraphQLEnumType, GraphQLInputObjectType, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString,
  type GraphQLFieldConfig, type GraphQLInputFieldConfig,
} from 'graphql';
import { graphqlBaseName, qualifiedKey, quoteName } from '../../core/names.js';
import type { ColumnInfo, TableInfo } from '../../cache/types.js';
import type { RoleContext } from './context.js';
import { boolExpType } from './boolexp.js';
import { isNumericType } from './scalars.js';
import { hasFields, tableObjectType } from './select.js';
import { columnType, named, sortedMap } from './types.js';
import { insertAccess, updateAccess, type InsertAccess } from './mutation-access.js';

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

export const base = (t: TableInfo): string => graphqlBaseName(t.name);

/** Unique and primary key constraints usable in on_conflict. */
export function conflictConstraints(t: TableInfo): string[] {
  const names = [...(t.pg.primaryKey ? [t.pg.primaryKey.name] : []), ...t.pg.uniqueConstraints.map((c) => c.name)];
  return [...new Set(names)].filter((n) => GRAPHQL_NAME.test(n));
}

/** on_conflict is offered when the role may update the table and the table has a unique constraint. */
export const isUpsertable = (ctx: RoleContext, t: TableInfo): boolean =>
  updateAccess(t, ctx.role) !== null && conflictConstraints(t).length > 0;

const remoteTable = (ctx: RoleContext, t: TableInfo, rel: string): TableInfo | undefined => {
  const r = t.relationships[rel];
  return r ? ctx.cache.tables[qualifiedKey(r.remoteTable)] : undefined;
};

/** Relationships that can be inserted through (the remote table is insertable by the role). */
export function insertableRelationships(ctx: RoleContext, t: TableInfo): string[] {
  return Object.keys(t.relationships).filter((n) => {
    const remote = remoteTable(ctx, t, n);
    return !!remote && insertAccess(remote, ctx.role) !== null && insertInputType(ctx, remote) !== null;
  });
}

/** The `where` type of update/delete: the table's bool_exp (only `_and`/`_or`/`_not` when it is not selectable). */
export function mutationBoolExpType(ctx: RoleContext, t: TableInfo): GraphQLInputObjectType {
  const view = ctx.tables.get(qualifiedKey(t.name));
  if (view) return boolExpType(ctx, view);
  const name = `${base(t)}_bool_exp`;
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    description: `Boolean expression to filter rows from the table ${quoteName(t.name)}. All fields are combined with a logical 'AND'.`,
    fields: () => {
      const self = ctx.types.get(name) as GraphQLInputObjectType;
      return { _and: { type: new GraphQLList(self) }, _not: { type: self }, _or: { type: new GraphQLList(self) } };
    },
  }));
}

/** Whether a role with this insert access has `<t>_insert_input`: something to give, a column or a relationship. */
export const hasInsertInput = (access: InsertAccess | null, t: TableInfo): access is InsertAccess =>
  access !== null && (access.columns.length > 0 || Object.keys(t.relationships).length > 0);

export function insertInputType(ctx: RoleContext, t: TableInfo): GraphQLInputObjectType | null {
  const access = insertAccess(t, ctx.role);
  if (!hasInsertInput(access, t)) return null;
  const name = `${base(t)}_insert_input`;
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    description: `input type for inserting data into table ${quoteName(t.name)}`,
    fields: () => {
      const f: Array<[string, GraphQLInputFieldConfig]> = access.columns.map((c) => [c.graphqlName, { type: columnType(ctx, c), description: c.comment ?? undefined }]);
      for (const rn of insertableRelationships(ctx, t)) {
        const rel = t.relationships[rn];
        const remote = remoteTable(ctx, t, rn) as TableInfo;
        const type = rel.kind === 'object' ? objRelInsertType(ctx, remote) : arrRelInsertType(ctx, remote);
        f.push([rn, { type }]);
      }
      return sortedMap(f);
    },
  }));
}

function onConflictField(ctx: RoleContext, t: TableInfo): Record<string, GraphQLInputFieldConfig> {
  return isUpsertable(ctx, t) ? { on_conflict: { type: onConflictType(ctx, t) } } : {};
}

function objRelInsertType(ctx: RoleContext, t: TableInfo): GraphQLInputObjectType {
  const name = `${base(t)}_obj_rel_insert_input`;
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    description: `input type for inserting object relation for remote table ${quoteName(t.name)}`,
    fields: () => sortedMap(Object.entries({
      data: { type: new GraphQLNonNull(insertInputType(ctx, t) as GraphQLInputObjectType) },
      ...onConflictField(ctx, t),
    })),
  }));
}

function arrRelInsertType(ctx: RoleContext, t: TableInfo): GraphQLInputObjectType {
  const name = `${base(t)}_arr_rel_insert_input`;
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    description: `input type for inserting array relation for remote table ${quoteName(t.name)}`,
    fields: () => sortedMap(Object.entries({
      data: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(insertInputType(ctx, t) as GraphQLInputObjectType))) },
      ...onConflictField(ctx, t),
    })),
  }));
}

function constraintEnum(ctx: RoleContext, t: TableInfo): GraphQLEnumType {
  const name = `${base(t)}_constraint`;
  return named(ctx, name, () => new GraphQLEnumType({
    name,
    description: `unique or primary key constraints on table ${quoteName(t.name)}`,
    values: sortedMap(conflictConstraints(t).map((c) => [c, { value: c, description: 'unique or primary key constraint' }])),
  }));
}

function updateColumnEnum(ctx: RoleContext, t: TableInfo): GraphQLEnumType {
  const name = `${base(t)}_update_column`;
  const cols = updateAccess(t, ctx.role)?.columns ?? [];
  return named(ctx, name, () => new GraphQLEnumType({
    name,
    description: `update columns of table ${quoteName(t.name)}`,
    values: cols.length > 0
      ? sortedMap(cols.map((c) => [c.graphqlName, { value: c.name, description: 'column name' }]))
      // An enum needs a value; this one is never a column (the role may update none: only DO NOTHING upserts).
      : { _PLACEHOLDER: { value: '', description: 'placeholder (do not use)' } },
  }));
}

export function onConflictType(ctx: RoleContext, t: TableInfo): GraphQLInputObjectType {
  const name = `${base(t)}_on_conflict`;
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    description: `on conflict condition type for table ${quoteName(t.name)}`,
    fields: () => ({
      constraint: { type: new GraphQLNonNull(constraintEnum(ctx, t)) },
      update_columns: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(updateColumnEnum(ctx, t)))) },
      where: { type: mutationBoolExpType(ctx, t) },
    }),
  }));
}

/** `<t>_mutation_response`: affected_rows, and returning when the role can select the table. */
export function mutationResponseType(ctx: RoleContext, t: TableInfo): GraphQLObjectType {
  const name = `${base(t)}_mutation_response`;
  return named(ctx, name, () => new GraphQLObjectType({
    name,
    description: `response of any mutation on the table ${quoteName(t.name)}`,
    fields: () => {
      const f: Record<string, GraphQLFieldConfig<unknown, unknown>> = {
        affected_rows: { type: new GraphQLNonNull(GraphQLInt), description: 'number of affected rows by the mutation' },
      };
      const view = ctx.tables.get(qualifiedKey(t.name));
      if (view && hasFields(view)) {
        f.returning = {
          type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(tableObjectType(ctx, view)))),
          description: 'data of the affected rows by the mutation',
        };
      }
      return f;
    },
  }));
}

type ColumnFilter = (c: ColumnInfo) => boolean;

export const UPDATE_OPERATORS: Array<{
  arg: string; suffix: string; columns: ColumnFilter; description: string; field: (ctx: RoleContext, c: ColumnInfo) => GraphQLInputFieldConfig['type'];
}> = [
  {
    arg: '_append', suffix: 'append_input', columns: (c) => c.type === 'jsonb' && !c.isArray,
    description: 'append existing jsonb value of filtered columns with new jsonb value', field: (ctx, c) => columnType(ctx, c),
  },
  {
    arg: '_delete_at_path', suffix: 'delete_at_path_input', columns: (c) => c.type === 'jsonb' && !c.isArray,
    description: 'delete the field or element with specified path (for JSON arrays, negative integers count from the end)',
    field: () => new GraphQLList(GraphQLString),
  },
  {
    arg: '_delete_elem', suffix: 'delete_elem_input', columns: (c) => c.type === 'jsonb' && !c.isArray,
    description: 'delete the array element with specified index (negative integers count from the end). throws an error if top level container is not an array',
    field: () => GraphQLInt,
  },
  {
    arg: '_delete_key', suffix: 'delete_key_input', columns: (c) => c.type === 'jsonb' && !c.isArray,
    description: 'delete key/value pair or string element. key/value pairs are matched based on their key value',
    field: () => GraphQLString,
  },
  {
    arg: '_inc', suffix: 'inc_input', columns: (c) => !c.isArray && !c.enumReference && isNumericType(c.type),
    description: 'increments the integer columns with given value of the filtered values', field: (ctx, c) => columnType(ctx, c),
  },
  {
    arg: '_prepend', suffix: 'prepend_input', columns: (c) => c.type === 'jsonb' && !c.isArray,
    description: 'prepend existing jsonb value of filtered columns with new jsonb value', field: (ctx, c) => columnType(ctx, c),
  },
  {
    arg: '_set', suffix: 'set_input', columns: () => true,
    description: 'sets the columns of the filtered rows to the given values', field: (ctx, c) => columnType(ctx, c),
  },
];

const OPERATOR_TYPE_DESCRIPTION: Record<string, (t: TableInfo) => string> = {
  _inc: (t) => `input type for incrementing integer column in table ${quoteName(t.name)}`,
  _set: (t) => `input type for updating data in table ${quoteName(t.name)}`,
};

/** The update operator arguments (`_set`, `_inc`, jsonb ops) that have at least one column for the role. */
export function updateOperatorArgs(ctx: RoleContext, t: TableInfo): Record<string, GraphQLInputFieldConfig> {
  const access = updateAccess(t, ctx.role);
  if (!access) return {};
  const out: Record<string, GraphQLInputFieldConfig> = {};
  for (const op of UPDATE_OPERATORS) {
    const cols = access.columns.filter(op.columns);
    if (cols.length === 0) continue;
    const name = `${base(t)}_${op.suffix}`;
    const type = named(ctx, name, () => new GraphQLInputObjectType({
      name,
      description: OPERATOR_TYPE_DESCRIPTION[op.arg]?.(t) ?? op.description,
      fields: () => sortedMap(cols.map((c) => [c.graphqlName, { type: op.field(ctx, c) }])),
    }));
    out[op.arg] = { type, description: op.description };
  }
  return out;
}

export function pkColumnsInputType(ctx: RoleContext, t: TableInfo, pk: ColumnInfo[]): GraphQLInputObjectType {
  const name = `${base(t)}_pk_columns_input`;
  return named(ctx, name, () => new GraphQLInputObjectType({
    name,
    description: `primary key columns input for table: ${quoteName(t.name)}`,
    fields: () => sortedMap(pk.map((c) => [c.graphqlName, { type: new GraphQLNonNull(columnType(ctx, c)) }])),
  }));
}
