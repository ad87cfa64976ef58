// What buildSchemaCache remembers between builds so that a change costs what it touches (Note [Incremental
// cache]). Every entry is keyed by an input object (immer gives an unchanged piece of metadata or catalog the same
// identity from one state to the next) and checked against the other inputs it was computed from, so a hit returns
// exactly what a build from scratch would compute; anything else recomputes.
import type { PgTable } from '../catalog/types.js';
import type { PermissionMeta, TableMeta } from '../../projections/metadata.js';
import type { InconsistentObject, TableInfo } from './types.js';

/** Keys read from a record during a resolution, with what they held then (or whether they existed). */
export type Deps = Array<[key: string, value: unknown]>;

/** A view of `record` that notes every key read into `deps` (with its value, or its existence with `exists`). */
export function recording<T>(record: Record<string, T>, deps: Deps, exists = false): Record<string, T> {
  return new Proxy(record, {
    get(target, p) {
      const v = target[p as string];
      if (typeof p === 'string') deps.push([p, exists ? v !== undefined : v]);
      return v;
    },
  });
}

/** Whether `record` still holds what the deps saw. */
export function depsHold(deps: Deps, record: Record<string, unknown>, exists = false): boolean {
  for (const [k, v] of deps) if ((exists ? record[k] !== undefined : record[k]) !== v) return false;
  return true;
}

/** Pass 1 of one table: its columns and enum rows, or why it is inconsistent. */
export interface BaseEntry {
  meta: Pick<TableMeta, 'is_enum' | 'configuration'>;
  enumValues: unknown;
  key: string;
  out: TableInfo | string;
}

/** Pass 2 of one table: relationships and computed fields over the pass-1 tables it read. */
export interface StructureEntry {
  objectRels: unknown;
  arrayRels: unknown;
  computed: unknown;
  /** The catalog's functions and tables, for tables with computed fields (they read both); else null. */
  catalog: unknown;
  catalogTables: unknown;
  deps: Deps;
  out: TableInfo;
  errors: InconsistentObject[];
}

/** One permission resolved against its table's pass-2 info and the tables its expressions read. */
export interface PermEntry {
  info: TableInfo;
  kind: string;
  role: string;
  permission: unknown;
  deps: Deps;
  out: { ok: true; value: unknown } | { ok: false; reason: string };
}

/** Pass 3 of one table: the final info (with permissions) and its permission inconsistencies. */
export interface TableEntry {
  meta: TableMeta;
  structure: TableInfo;
  perms: Array<Record<string, PermissionMeta>>;
  deps: Deps;
  out: TableInfo;
  errors: InconsistentObject[];
}

export class CacheMemo {
  readonly base = new WeakMap<PgTable, BaseEntry>();
  /** Pass-1 info with enum references, by the info without them and the signature of the enum tables it references. */
  readonly enumRefs = new WeakMap<TableInfo, { sig: string; out: TableInfo }>();
  readonly structure = new WeakMap<TableInfo, StructureEntry>();
  readonly perms = new WeakMap<PermissionMeta, PermEntry>();
  readonly tables = new WeakMap<TableMeta, TableEntry>();
  /** The last final info made from a pass-2 info: its roles' permission objects are kept where they resolve the same. */
  readonly lastFinal = new WeakMap<TableInfo, TableInfo>();
  /** The last sorted order of the tracked tables' keys. */
  sorted: { keys: string[]; set: Set<string> } = { keys: [], set: new Set() };
}

/** The memo every build shares unless given another (a fresh one builds from scratch). */
export const sharedMemo = new CacheMemo();

/** The pass-2 info (everything but permissions) a final table info was made from: what a role's schema depends on besides its own permissions. */
const structures = new WeakMap<TableInfo, TableInfo>();
export const structureOf = (info: TableInfo): TableInfo => structures.get(info) ?? info;
export const setStructure = (info: TableInfo, structure: TableInfo): void => void structures.set(info, structure);
