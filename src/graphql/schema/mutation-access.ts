// What a role may insert, update and delete on a table (the admin: everything), in Postgres column names; and the
// per-role-schema record of mutation root fields that the request translator dispatches on.
import type { BoolExpJson, ColumnInfo, ColumnPresets, TableInfo } from '../../cache/types.js';
import { hasGraphQLNames, type RoleContext, type TableView } from './context.js';

export interface InsertAccess {
  /** Columns the client may give (permission columns minus presets). */
  columns: ColumnInfo[];
  check: BoolExpJson | null;
  presets: ColumnPresets;
  backendOnly: boolean;
}

export interface UpdateAccess {
  columns: ColumnInfo[];
  filter: BoolExpJson | null;
  check: BoolExpJson | null;
  presets: ColumnPresets;
}

export interface DeleteAccess {
  filter: BoolExpJson | null;
}

/** A column a mutation may set: not generated, and one the GraphQL schema can name. */
const writable = (c: ColumnInfo): boolean => !c.isGenerated && hasGraphQLNames(c);

export function insertAccess(t: TableInfo, role: string): InsertAccess | null {
  if (!t.pg.insertable) return null;
  if (role === 'admin') return { columns: t.columns.filter(writable), check: null, presets: {}, backendOnly: false };
  const p = t.permissions[role]?.insert;
  if (!p) return null;
  const allowed = new Set(p.columns);
  const presets = p.set ?? {};
  return {
    columns: t.columns.filter((c) => writable(c) && allowed.has(c.name) && !(c.name in presets)),
    check: p.check,
    presets,
    backendOnly: p.backendOnly,
  };
}

export function updateAccess(t: TableInfo, role: string): UpdateAccess | null {
  if (!t.pg.updatable) return null;
  if (role === 'admin') return { columns: t.columns.filter(writable), filter: null, check: null, presets: {} };
  const p = t.permissions[role]?.update;
  if (!p) return null;
  const allowed = new Set(p.columns);
  const presets = p.set ?? {};
  return {
    columns: t.columns.filter((c) => writable(c) && allowed.has(c.name) && !(c.name in presets)),
    filter: p.filter,
    check: p.check,
    presets,
  };
}

export function deleteAccess(t: TableInfo, role: string): DeleteAccess | null {
  if (!t.pg.deletable) return null;
  if (role === 'admin') return { filter: null };
  const p = t.permissions[role]?.delete;
  return p ? { filter: p.filter } : null;
}

export type MutationFieldKind = 'insert' | 'insert_one' | 'update' | 'update_by_pk' | 'delete' | 'delete_by_pk';

export interface MutationFieldMeta {
  kind: MutationFieldKind;
  table: TableInfo;
  /** The role's select view of the table (null without select permission: no `returning`, no single-row fields). */
  view: TableView | null;
  /** Primary key columns (by_pk fields). */
  pk: ColumnInfo[];
  /** A backend_only insert permission: the field exists only for requests with backend-only privileges. */
  backendOnly: boolean;
}

/** Mutation root fields of each role schema, keyed by its RoleContext (filled by the schema contributor). */
const registry = new WeakMap<RoleContext, Map<string, MutationFieldMeta>>();
/** What fills a context's record when it is first read, for a schema that names its mutation fields lazily. */
const fillers = new WeakMap<RoleContext, () => void>();

/** Has `fill` fill the context's record when the record is first read (build.ts Note [Lazy role schemas]). */
export function fillMutationFieldMetasLater(ctx: RoleContext, fill: () => void): void {
  fillers.set(ctx, fill);
}

export function mutationFieldMetas(ctx: RoleContext): Map<string, MutationFieldMeta> {
  let m = registry.get(ctx);
  if (!m) {
    m = new Map();
    registry.set(ctx, m);
  }
  const fill = fillers.get(ctx);
  if (fill) {
    fillers.delete(ctx);
    fill();
  }
  return m;
}
