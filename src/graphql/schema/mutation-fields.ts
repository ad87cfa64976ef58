// mutation_root fields per table, as the original v1.3 generates them: insert_<t>, insert_<t>_one, update_<t>,
// update_<t>_by_pk, delete_<t>, delete_<t>_by_pk (custom root field names apply). Single-row fields exist only when
// the role can also select the table (mutation.ts puts them on mutation_root); each field's meta is recorded for the
// request translator (mutation-access.ts).
import { GraphQLList, GraphQLNonNull, type GraphQLFieldConfigArgumentMap, type GraphQLInputObjectType } from 'graphql';
import { graphqlBaseName, qualifiedKey, quoteName } from '../../core/names.js';
import type { ColumnInfo, TableInfo } from '../../cache/types.js';
import { hasGraphQLNames, type RoleContext, type TableView } from './context.js';
import { hasFields, tableObjectType } from './select.js';
import { columnType } from './types.js';
import { deleteAccess, insertAccess, mutationFieldMetas, updateAccess, type InsertAccess, type MutationFieldMeta } from './mutation-access.js';
import { once, type FieldThunk } from './lazy-root.js';
import { memoByObjectAndKey } from '../../core/weak-memo.js';
import {
  hasInsertInput, insertInputType, isUpsertable, mutationBoolExpType, mutationResponseType, onConflictType, pkColumnsInputType, updateOperatorArgs,
} from './mutation-types.js';

type Field = [string, FieldThunk];

export function mutationRootFieldNames(t: TableInfo) {
  const b = graphqlBaseName(t.name);
  const c = t.customRootFields;
  return {
    insert: c.insert ?? `insert_${b}`,
    insert_one: c.insert_one ?? `insert_${b}_one`,
    update: c.update ?? `update_${b}`,
    update_by_pk: c.update_by_pk ?? `update_${b}_by_pk`,
    delete: c.delete ?? `delete_${b}`,
    delete_by_pk: c.delete_by_pk ?? `delete_${b}_by_pk`,
  };
}

/** What a role's mutation fields of a table read of that table only: its root field names, key and access. */
interface OwnMutations {
  names: ReturnType<typeof mutationRootFieldNames>;
  pk: ColumnInfo[];
  ins: InsertAccess | null;
  upd: boolean;
  del: boolean;
}

/** Kept per table info and role, as the tables' own views (context.ts ownView). */
const ownMutationsOf = memoByObjectAndKey((t: TableInfo, role: string): OwnMutations => {
  const pkNames = t.pg.primaryKey?.columns ?? [];
  const keyColumns = pkNames.map((n) => t.columns.find((c) => c.name === n)).filter((c): c is ColumnInfo => !!c);
  const ins = insertAccess(t, role);
  return {
    names: mutationRootFieldNames(t),
    // Single-row fields take the key columns as arguments: only when each has a GraphQL name.
    pk: keyColumns.every(hasGraphQLNames) ? keyColumns : [],
    ins: hasInsertInput(ins, t) ? ins : null,
    upd: updateAccess(t, role) !== null,
    del: deleteAccess(t, role) !== null,
  };
});

/** A table's mutation_root fields: names and metas now, each config (and the types it names) when first read. */
function tableMutationFields(ctx: RoleContext, t: TableInfo, metas: Map<string, MutationFieldMeta>): Field[] {
  const out: Field[] = [];
  const { names, pk, ins, upd, del } = ownMutationsOf(t, ctx.role);
  if (!ins && !upd && !del) return out;
  const q = t.name;
  const view = ctx.tables.get(qualifiedKey(t.name)) ?? null;
  const selectable = view !== null && hasFields(view);
  const add = (kind: MutationFieldMeta['kind'], name: string, config: FieldThunk, backendOnly = false): void => {
    if (metas.has(name)) return; // a name clash: the first definition wins
    metas.set(name, { kind, table: t, view: selectable ? view : null, pk, backendOnly });
    out.push([name, once(config)]);
  };
  const single = () => tableObjectType(ctx, view as TableView);

  if (ins) {
    const input = () => insertInputType(ctx, t) as GraphQLInputObjectType;
    const onConflict = (): GraphQLFieldConfigArgumentMap => (isUpsertable(ctx, t)
      ? { on_conflict: { type: onConflictType(ctx, t), description: 'on conflict condition' } } : {});
    add('insert', names.insert, () => ({
      type: mutationResponseType(ctx, t),
      description: `insert data into the table: ${quoteName(q)}`,
      args: { objects: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(input()))), description: 'the rows to be inserted' }, ...onConflict() },
    }), ins.backendOnly);
    if (selectable) {
      add('insert_one', names.insert_one, () => ({
        type: single(),
        description: `insert a single row into the table: ${quoteName(q)}`,
        args: { object: { type: new GraphQLNonNull(input()), description: 'the row to be inserted' }, ...onConflict() },
      }), ins.backendOnly);
    }
  }

  if (upd) {
    const ops = once(() => updateOperatorArgs(ctx, t));
    add('update', names.update, () => ({
      type: mutationResponseType(ctx, t),
      description: `update data of the table: ${quoteName(q)}`,
      args: { ...ops(), where: { type: new GraphQLNonNull(mutationBoolExpType(ctx, t)), description: 'filter the rows which have to be updated' } },
    }));
    if (selectable && pk.length > 0) {
      add('update_by_pk', names.update_by_pk, () => ({
        type: single(),
        description: `update single row of the table: ${quoteName(q)}`,
        args: { ...ops(), pk_columns: { type: new GraphQLNonNull(pkColumnsInputType(ctx, t, pk)) } },
      }));
    }
  }

  if (del) {
    add('delete', names.delete, () => ({
      type: mutationResponseType(ctx, t),
      description: `delete data from the table: ${quoteName(q)}`,
      args: { where: { type: new GraphQLNonNull(mutationBoolExpType(ctx, t)), description: 'filter the rows which have to be deleted' } },
    }));
    if (selectable && pk.length > 0) {
      add('delete_by_pk', names.delete_by_pk, () => ({
        type: single(),
        description: `delete single row from the table: ${quoteName(q)}`,
        args: Object.fromEntries(pk.map((c) => [c.graphqlName, { type: new GraphQLNonNull(columnType(ctx, c)) }])),
      }));
    }
  }
  return out;
}

/** Whether the role has a mutation_root field of a table (each table with some access gives one at least). */
export const hasTableMutations = (ctx: RoleContext): boolean =>
  Object.values(ctx.cache.tables).some((t) => {
    const m = ownMutationsOf(t, ctx.role);
    return m.ins !== null || m.upd || m.del;
  });

/** The tables' mutation_root fields for a role (their metas recorded in mutationFieldMetas as they are named). */
export function tableMutationRootFields(ctx: RoleContext): Field[] {
  const metas = mutationFieldMetas(ctx);
  return Object.values(ctx.cache.tables).flatMap((t) => tableMutationFields(ctx, t, metas));
}
