// buildSchemaCache: metadata resolved against the Postgres catalog, a pure function. Objects that do not resolve
// are left out and recorded as inconsistencies with the original engine's reasons, never thrown.
import { compareNames, qualifiedKey, quote as q, quoteName as qt } from '../core/names.js';
import type { PgCatalog, PgTable } from '../catalog/types.js';
import type { Metadata, TableMeta, PermKind, PermissionMeta } from '../../projections/metadata.js';
import { CacheMemo, depsHold, recording, setStructure, sharedMemo, type Deps, type PermEntry } from './memo.js';
import { exportAction } from '../../projections/export.js';
import { baseTypeName, type ActionMeta, type CustomTypes } from '../../events/actions.js';
import { BUILTIN_SCALARS, PG_SCALARS } from '../../events/decide/actions.js';
import { PERM_KINDS, own, permissionsOf } from '../../events/types.js';
import type {
  ActionInfo,
  ColumnInfo,
  FunctionInfo,
  InconsistentObject,
  InconsistentObjectType,
  RemoteIntrospections,
  RolePermissions,
  SchemaCache,
  TableInfo,
} from './types.js';
import {
  actionId,
  computedFieldDefinition,
  computedFieldId,
  eventTriggerId,
  functionId,
  permissionId,
  qn,
  relationshipDefinition,
  relationshipId,
  tableId,
} from './objects.js';
import { enumIntegrity, Failure, resolveComputedField, resolveFunction, resolveRelationship } from './resolve.js';
import { resolvePermission } from './resolve-permission.js';

/**
 * Checks of features that live above the cache (remote schemas: src/remote), run in order on the built cache and
 * reporting inconsistent objects (whose `code`, if set, is the error a write that creates them gets). The
 * composition root (src/features.ts) says which run; buildSchemaCache takes them as an argument.
 */
export type CacheCheck = (metadata: Metadata, cache: SchemaCache, remoteSchemas: RemoteIntrospections, delta?: CacheDelta) => InconsistentObject[];

/**
 * Given to the checks when the tables of the cache being built are those of `previous` but for `changed` (a delta
 * build, Note [Delta build]): a check whose answer for `previous` cannot depend on the other tables may keep it.
 * Only the tables are the same: the rest of the metadata may differ.
 */
export interface CacheDelta {
  previous: SchemaCache;
  changed: readonly string[];
}

// Note [Incremental cache]
// A build resolves every tracked table in three passes (columns, then relationships and computed fields, then
// permissions, each reading the previous pass's results of other tables). Each pass of each table is remembered
// (memo.ts) under its own inputs and the other tables' results it read, so a build after a change recomputes only
// the tables whose inputs changed or who read a table that changed, and otherwise returns the very objects the
// previous build made: a role's schema (graphql/schema/build.ts) can tell from identities alone that nothing it
// depends on changed. A build with a fresh CacheMemo computes everything; the two are the same by construction,
// and test/cache/incremental.int.test.ts checks it over random changes.
export interface BuildOptions {
  /** What to remember results in (default: the shared memo; a fresh CacheMemo builds from scratch). */
  memo?: CacheMemo;
  /** The cache of the state before: a change of a few tables' permissions is applied to it (Note [Delta build]). */
  previous?: SchemaCache;
  /**
   * The keys of the only tables whose metadata may differ from `previous`'s (a bulk's writer knows them: its tables
   * record is changed in place, so identities cannot tell).
   */
  changed?: readonly string[];
  /** Who may change the records of a cache it built with the same owner in place (a bulk, until it ends). */
  owner?: object;
}

/** The tracked tables resolved, pass by pass, and their inconsistencies: what a delta build starts from. */
interface TablesPart {
  keys: string[];
  base: Record<string, TableInfo>;
  resolved: Record<string, TableInfo>;
  structures: Record<string, TableInfo>;
  tables: Record<string, TableInfo>;
  /** Pass-1 inconsistencies, in order. */
  p1: InconsistentObject[];
  /** Pass-2 and pass-3 inconsistencies by table key, in key order. */
  p2: Map<string, InconsistentObject[]>;
  p3: Map<string, InconsistentObject[]>;
  /** Keys of the tables some permission read (a superset: only ever added to, shared by the parts that follow). */
  p3Deps: Set<string>;
  /** The build's owner, if it may change these records in place. */
  owner: object | null;
}

interface Internals {
  memo: CacheMemo;
  metadata: Metadata;
  catalog: PgCatalog;
  part: TablesPart;
  functions: FunctionsPart;
}

/** The tracked functions resolved, with the tables whose existence they read. */
interface FunctionsPart {
  metadata: Metadata['functions'];
  catalog: PgCatalog['functions'];
  deps: Deps;
  out: Record<string, FunctionInfo>;
  errors: InconsistentObject[];
}

function resolveFunctions(metadata: Metadata, catalog: PgCatalog, tables: Record<string, TableInfo>): FunctionsPart {
  const out: Record<string, FunctionInfo> = {};
  const errors: InconsistentObject[] = [];
  const deps: Deps = [];
  const seen = recording(tables, deps, true);
  for (const f of Object.values(metadata.functions)) {
    try {
      out[qualifiedKey(f.function)] = resolveFunction(f.function, f.configuration.session_argument ?? null, seen, catalog);
    } catch (e) {
      if (!(e instanceof Failure)) throw e;
      // The original's definition of a function object is its name with the schema (track_function v1 or v2 alike).
      errors.push({ reason: `in function ${qt(f.function)}: ${e.message}`, type: 'function', definition: qn(f.function), id: functionId(f.function) });
    }
  }
  return { metadata: metadata.functions, catalog: catalog.functions, deps, out, errors };
}

/** How each cache was built, for the next build to start from. */
const internals = new WeakMap<SchemaCache, Internals>();

export function buildSchemaCache(
  metadata: Metadata, catalog: PgCatalog, remoteSchemas: RemoteIntrospections, checks: readonly CacheCheck[], options: BuildOptions = {},
): SchemaCache {
  const memo = options.memo ?? sharedMemo;
  const prev = options.previous && internals.get(options.previous);
  const usable = prev && prev.memo === memo && prev.catalog === catalog ? prev : undefined;
  const delta = usable ? deltaTables(usable, metadata, catalog, memo, options.changed, options.owner) : null;
  const part = delta?.part ?? allTables(metadata, catalog, memo);
  const { tables } = part;
  const inconsistent: InconsistentObject[] = [...part.p1];
  for (const errors of part.p2.values()) inconsistent.push(...errors);
  for (const errors of part.p3.values()) inconsistent.push(...errors);
  const record = (id: string, type: InconsistentObjectType, definition: unknown, reason: string) =>
    inconsistent.push({ reason, type, definition, id });

  // Functions (they read which tables are consistent: kept while those they read are).
  const fns = prev?.memo === memo && prev.functions.metadata === metadata.functions && prev.functions.catalog === catalog.functions
    && depsHold(prev.functions.deps, tables, true) ? prev.functions : resolveFunctions(metadata, catalog, tables);
  inconsistent.push(...fns.errors);
  const functions = fns.out;

  const actions: Record<string, ActionInfo> = {};
  for (const a of metadata.actions as ActionMeta[]) {
    const reason = actionProblem(a, metadata.custom_types as CustomTypes);
    if (reason) {
      record(actionId(a.name), 'action', exportAction(a), `in action ${q(a.name)}; ${reason}`);
      continue;
    }
    const handler = resolveUrlTemplate(a.definition.handler);
    if (typeof handler !== 'string') {
      // The original resolves the handler inside the action's context: the same `in action "<a>"; ` prefix.
      record(actionId(a.name), 'action', exportAction(a), `in action ${q(a.name)}; Value for environment variables not found: ${handler.missing.join(', ')}`);
      continue;
    }
    actions[a.name] = { name: a.name, definition: a.definition, handler, comment: a.comment, roles: a.permissions.map((p) => p.role) };
  }

  const cache: SchemaCache = { tables, functions, roles: [], inconsistent, actions, customTypes: metadata.custom_types as CustomTypes };
  // Every role named in a consistent permission: read rarely, so computed when read (a bulk builds many caches).
  let roles: string[] | null = null;
  Object.defineProperty(cache, 'roles', {
    enumerable: true,
    get: () => (roles ??= [...new Set(Object.values(tables).flatMap((i) => Object.keys(i.permissions)))].sort()),
  });
  const since = delta && options.previous ? { previous: options.previous, changed: delta.changed } : undefined;
  for (const check of checks) inconsistent.push(...check(metadata, cache, remoteSchemas, since));
  internals.set(cache, { memo, metadata, catalog, part, functions: fns });
  return cache;
}

// Note [Delta build]
// Most writes (and nearly every element of a big bulk) change one table's permissions or relationships. With the
// same catalog and the same tracked tables, such a change leaves pass 1 of every table as it was; pass 2 of the
// changed table is redone (it reads only pass 1 of others), and pass 3 of the changed tables, provided no other
// table's permissions read the changed table's pass 2 (p3Deps). The new cache is the previous one with those
// entries replaced: the changed tables are found by comparing each table's metadata by identity, or named by the
// caller. Anything else (a table added or removed, its columns or configuration, another catalog) takes the full
// path, which still reuses every table whose inputs did not change. Within one bulk the records are changed in
// place (`owner`): copying a 1,000-key record costs about a millisecond, 40,000 times over.
function deltaTables(
  prev: Internals, metadata: Metadata, catalog: PgCatalog, memo: CacheMemo, hint: readonly string[] | undefined, owner: object | undefined,
): { part: TablesPart; changed: readonly string[] } | null {
  const next = metadata.tables;
  const part = prev.part;
  let changed: readonly string[];
  if (hint) {
    changed = hint;
  } else {
    const old = prev.metadata.tables;
    if (next === old) return { part, changed: [] };
    const found: string[] = [];
    let n = 0;
    for (const k in next) {
      n++;
      if (next[k] === old[k]) continue;
      if (!Object.hasOwn(old, k)) return null;
      found.push(k);
    }
    if (n !== part.keys.length) return null;
    changed = found;
  }
  // Check first, change after: a part given up on is left as it was.
  const redo: Array<[string, TableMeta, TableInfo]> = [];
  for (const k of changed) {
    const t = Object.hasOwn(next, k) ? next[k] : undefined;
    const s = part.structures[k];
    if (!t || !s || tableBase(t, k, catalog, memo) !== part.base[k]) return null;
    const e = tableStructure(t, part.resolved[k], part.resolved, catalog, memo);
    if (e.out !== s && part.p3Deps.has(k)) return null;
    redo.push([k, t, e.out]);
  }
  const mine = owner !== undefined && part.owner === owner;
  const out: TablesPart = mine ? part : {
    ...part, tables: { ...part.tables }, structures: { ...part.structures }, p2: new Map(part.p2), p3: new Map(part.p3), owner: owner ?? null,
  };
  let reorder = false;
  const put = (map: Map<string, InconsistentObject[]>, k: string, errors: InconsistentObject[]) => {
    if (!errors.length) map.delete(k);
    else {
      reorder ||= !map.has(k);
      map.set(k, errors);
    }
  };
  for (const [k, t, s] of redo) {
    if (s === out.structures[k]) continue;
    out.structures[k] = s;
    put(out.p2, k, tableStructure(t, part.resolved[k], part.resolved, catalog, memo).errors);
  }
  for (const [k, t, s] of redo) {
    const e = tablePermissions(t, s, out.structures, memo);
    out.tables[k] = e.out;
    for (const [dep] of e.deps) part.p3Deps.add(dep);
    put(out.p3, k, e.errors);
  }
  if (reorder) {
    const index = new Map(part.keys.map((k, i) => [k, i]));
    for (const map of [out.p2, out.p3]) {
      const sorted = [...map].sort((a, b) => index.get(a[0])! - index.get(b[0])!);
      map.clear();
      for (const [k, v] of sorted) map.set(k, v);
    }
  }
  return { part: out, changed };
}

/** Every tracked table through the three passes (each table's passes remembered in the memo). */
function allTables(metadata: Metadata, catalog: PgCatalog, memo: CacheMemo): TablesPart {
  const keys = sortedKeys(metadata.tables, memo);
  const p1: InconsistentObject[] = [];
  const p2 = new Map<string, InconsistentObject[]>();
  const record = (id: string, type: InconsistentObjectType, definition: unknown, reason: string) =>
    p1.push({ reason, type, definition, id });

  // Pass 1: tables themselves (existence, enum integrity) and their columns.
  const base: Record<string, TableInfo> = {};
  let anyEnum = false;
  for (const key of keys) {
    const t = metadata.tables[key];
    const r = tableBase(t, key, catalog, memo);
    if (typeof r === 'string') {
      record(tableId(t.table), 'table', qn(t.table), r);
      continue;
    }
    base[key] = r;
    anyEnum ||= r.isEnum;
  }
  // Columns referencing enum tables become enum-typed.
  const resolved = anyEnum ? withEnumReferences(keys, base, memo) : base;

  // Note [Objects of a missing table]
  // As the original: the relationships, computed fields, permissions and event triggers of a tracked table that is
  // not there (dropped outside the engine) or not usable are each inconsistent, with the reason
  // `table "<t>" does not exist`.
  const missing = (t: TableMeta): string => `table ${qt(t.table)} does not exist`;

  // Pass 2: relationships and computed fields.
  const structures: Record<string, TableInfo> = {};
  for (const key of keys) {
    const t = metadata.tables[key];
    const info = resolved[key];
    if (!info) {
      const errors: InconsistentObject[] = [];
      const add = (id: string, type: InconsistentObjectType, definition: unknown) => errors.push({ reason: missing(t), type, definition, id });
      for (const rel of Object.values(t.object_relationships)) add(relationshipId(t.table, rel.name), 'object_relation', relationshipDefinition(t.table, rel));
      for (const rel of Object.values(t.array_relationships)) add(relationshipId(t.table, rel.name), 'array_relation', relationshipDefinition(t.table, rel));
      for (const cf of Object.values(t.computed_fields)) add(computedFieldId(t.table, cf.name), 'computed_field', computedFieldDefinition(t.table, cf));
      if (errors.length) p2.set(key, errors);
      continue;
    }
    const e = tableStructure(t, info, resolved, catalog, memo);
    structures[key] = e.out;
    if (e.errors.length) p2.set(key, e.errors);
  }

  // Pass 3: permissions (they may use relationships and computed fields of any table).
  const tables: Record<string, TableInfo> = {};
  const p3 = new Map<string, InconsistentObject[]>();
  const p3Deps = new Set<string>();
  for (const key of keys) {
    const t = metadata.tables[key];
    const s = structures[key];
    if (!s) {
      const errors: InconsistentObject[] = [];
      for (const kind of PERM_KINDS) {
        for (const p of Object.values(permissionsOf(t, kind))) {
          errors.push({ reason: missing(t), type: `${kind}_permission` as InconsistentObjectType,
            definition: { role: p.role, comment: p.comment, permission: p.permission, table: qn(t.table) }, id: permissionId(t.table, p.role, kind) });
        }
      }
      for (const et of t.event_triggers as Array<{ name: string }>) {
        errors.push({ reason: missing(t), type: 'event_trigger', definition: { table: qn(t.table), configuration: et }, id: eventTriggerId(t.table, et.name) });
      }
      if (errors.length) p3.set(key, errors);
      continue;
    }
    const e = tablePermissions(t, s, structures, memo);
    tables[key] = e.out;
    for (const [dep] of e.deps) p3Deps.add(dep);
    if (e.errors.length) p3.set(key, e.errors);
  }
  return { keys, base, resolved, structures, tables, p1, p2, p3, p3Deps, owner: null };
}

/** The tracked tables' keys in name order, kept from the last build while the set of tables is the same. */
function sortedKeys(tables: Record<string, TableMeta>, memo: CacheMemo): string[] {
  const keys = Object.keys(tables);
  const last = memo.sorted;
  const added = keys.filter((k) => !last.set.has(k));
  if (added.length === 0 && keys.length === last.keys.length) return last.keys;
  const cmp = (a: string, b: string) => compareNames(tables[a].table, tables[b].table);
  let sorted: string[];
  if (keys.length === last.keys.length + added.length && added.length <= 8) {
    // A few tables tracked (a bulk tracks them one by one): inserted where they belong.
    sorted = [...last.keys];
    for (const k of added) {
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cmp(sorted[mid], k) < 0) lo = mid + 1;
        else hi = mid;
      }
      sorted.splice(lo, 0, k);
    }
  } else sorted = keys.sort(cmp);
  memo.sorted = { keys: sorted, set: new Set(sorted) };
  return sorted;
}

/** Pass 1 of one table: its info without relationships, computed fields or permissions, or why it is inconsistent. */
function tableBase(t: TableMeta, key: string, catalog: PgCatalog, memo: CacheMemo): TableInfo | string {
  const pg = catalog.tables[key];
  // No space before the colon: the original's schema-cache text (track_table's own error keeps SPEC.md's).
  if (!pg) return `no such table/view exists in postgres: ${qt(t.table)}`;
  const values = catalog.enumValues?.[key];
  const hit = memo.base.get(pg);
  if (hit && hit.key === key && hit.meta.is_enum === t.is_enum && hit.meta.configuration === t.configuration && hit.enumValues === values) return hit.out;
  const out = computeBase(t, pg, values);
  memo.base.set(pg, { key, meta: { is_enum: t.is_enum, configuration: t.configuration }, enumValues: values, out });
  return out;
}

function computeBase(t: TableMeta, pg: PgTable, values: Array<{ value: string; comment: string | null }> | undefined): TableInfo | string {
  let enumValues: TableInfo['enumValues'] = null;
  if (t.is_enum) {
    const r = enumIntegrity(t.table, pg, values);
    if (typeof r === 'string') return r;
    enumValues = r;
  }
  const custom = t.configuration.custom_column_names;
  // (The added fields come before the spread: V8 copies the column's shape far faster that way.)
  const columns: ColumnInfo[] = pg.columns.map((c) => ({ graphqlName: own(custom, c.name) ?? c.name, enumReference: null, ...c }));
  return {
    name: t.table,
    pg,
    columns,
    isEnum: t.is_enum,
    enumValues,
    customRootFields: { ...t.configuration.custom_root_fields },
    relationships: {},
    computedFields: {},
    permissions: {},
    comment: pg.comment,
  };
}

/** The pass-1 tables with each column that references a tracked enum table (through its first foreign key) enum-typed. */
function withEnumReferences(keys: string[], base: Record<string, TableInfo>, memo: CacheMemo): Record<string, TableInfo> {
  const out: Record<string, TableInfo> = {};
  for (const key of keys) {
    const info = base[key];
    if (!info) continue;
    const refs = info.columns.map((col) => {
      const fk = info.pg.foreignKeys.find((k) => k.columns.length === 1 && k.columns[0] === col.name);
      const target = fk && base[qualifiedKey(fk.refTable)];
      return target?.isEnum ? target.name : null;
    });
    const sig = refs.map((r) => (r ? qualifiedKey(r) : '')).join('\u0000');
    if (refs.every((r) => r === null)) {
      out[key] = info;
      continue;
    }
    const hit = memo.enumRefs.get(info);
    if (hit && hit.sig === sig) {
      out[key] = hit.out;
      continue;
    }
    const next = { ...info, columns: info.columns.map((c, i) => (refs[i] ? { ...c, enumReference: refs[i] } : c)) };
    memo.enumRefs.set(info, { sig, out: next });
    out[key] = next;
  }
  return out;
}

/** Pass 2 of one table: its relationships and computed fields, resolved over the pass-1 tables. */
function tableStructure(t: TableMeta, info: TableInfo, tables: Record<string, TableInfo>, catalog: PgCatalog, memo: CacheMemo) {
  // Computed fields read the catalog's functions and types: their tables depend on the catalog as a whole.
  const cat = Object.keys(t.computed_fields).length ? catalog : null;
  const hit = memo.structure.get(info);
  if (hit && hit.objectRels === t.object_relationships && hit.arrayRels === t.array_relationships && hit.computed === t.computed_fields
    && hit.catalog === (cat && cat.functions) && hit.catalogTables === (cat && cat.tables) && depsHold(hit.deps, tables)) return hit;
  const deps: Deps = [];
  const seen = recording(tables, deps);
  const out: TableInfo = { ...info, relationships: {}, computedFields: {}, permissions: {} };
  const errors: InconsistentObject[] = [];
  const record = (id: string, type: InconsistentObjectType, definition: unknown, reason: string) => errors.push({ reason, type, definition, id });
  for (const [kind, key] of [['object', 'object_relationships'], ['array', 'array_relationships']] as const) {
    for (const rel of Object.values(t[key])) {
      try {
        out.relationships[rel.name] = resolveRelationship(out, kind, rel, seen, catalog);
      } catch (e) {
        if (!(e instanceof Failure)) throw e;
        record(relationshipId(t.table, rel.name), kind === 'object' ? 'object_relation' : 'array_relation', relationshipDefinition(t.table, rel), e.message);
      }
    }
  }
  for (const cf of Object.values(t.computed_fields)) {
    try {
      out.computedFields[cf.name] = resolveComputedField(out, cf, seen, catalog);
    } catch (e) {
      if (!(e instanceof Failure)) throw e;
      record(computedFieldId(t.table, cf.name), 'computed_field', computedFieldDefinition(t.table, cf), e.message);
    }
  }
  const entry = {
    objectRels: t.object_relationships, arrayRels: t.array_relationships, computed: t.computed_fields,
    catalog: cat && cat.functions, catalogTables: cat && cat.tables, deps, out, errors,
  };
  memo.structure.set(info, entry);
  return entry;
}

/** Pass 3 of one table: its permissions resolved (each remembered on its own) and the final info. */
function tablePermissions(t: TableMeta, s: TableInfo, tables: Record<string, TableInfo>, memo: CacheMemo) {
  const sources = PERM_KINDS.map((kind) => permissionsOf(t, kind));
  const hit = memo.tables.get(t);
  if (hit && hit.structure === s && hit.perms.every((p, i) => p === sources[i]) && depsHold(hit.deps, tables)) return hit;
  const deps: Deps = [];
  const errors: InconsistentObject[] = [];
  const permissions: Record<string, RolePermissions> = {};
  PERM_KINDS.forEach((kind, i) => {
    for (const p of Object.values(sources[i])) {
      const r = permission(p, kind, s, tables, memo);
      deps.push(...r.deps);
      if (r.out.ok) {
        const rp: RolePermissions = own(permissions, p.role) ?? (permissions[p.role] = {});
        (rp as Record<string, unknown>)[kind] = r.out.value;
      } else {
        errors.push({
          reason: `in table ${qt(t.table)}: in permission for role ${q(p.role)}: ${r.out.reason}`,
          type: `${kind}_permission` as InconsistentObjectType,
          definition: { role: p.role, comment: p.comment, permission: p.permission, table: qn(t.table) },
          id: permissionId(t.table, p.role, kind),
        });
      }
    }
  });
  // A role whose permissions resolve to the same objects keeps its object (role schemas compare identities).
  const previous = memo.lastFinal.get(s)?.permissions ?? {};
  for (const [role, rp] of Object.entries(permissions)) {
    const old = own(previous, role);
    if (old && sameRolePermissions(old, rp)) permissions[role] = old;
  }
  const out: TableInfo = { ...s, permissions };
  setStructure(out, s);
  memo.lastFinal.set(s, out);
  const entry = { meta: t, structure: s, perms: sources, deps, out, errors };
  memo.tables.set(t, entry);
  return entry;
}

function sameRolePermissions(a: RolePermissions, b: RolePermissions): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k as PermKind] === b[k as PermKind]);
}

/** One permission against its table's pass-2 info, remembered until its definition or what it read changes. */
function permission(p: PermissionMeta, kind: PermKind, s: TableInfo, tables: Record<string, TableInfo>, memo: CacheMemo): PermEntry {
  const hit = memo.perms.get(p);
  if (hit && hit.info === s && hit.kind === kind && hit.role === p.role && hit.permission === p.permission && depsHold(hit.deps, tables)) return hit;
  const deps: Deps = [];
  let out: PermEntry['out'];
  try {
    out = { ok: true, value: resolvePermission(s, kind, p.permission, recording(tables, deps)) };
  } catch (e) {
    if (!(e instanceof Failure)) throw e;
    out = { ok: false, reason: e.message };
  }
  const entry = { info: s, kind, role: p.role, permission: p.permission, deps, out };
  memo.perms.set(p, entry);
  return entry;
}

/** `{{VAR}}` in a webhook URL replaced by the environment's value (the original's URL templates). */
export function resolveUrlTemplate(url: string, env: NodeJS.ProcessEnv = process.env): string | { missing: string[] } {
  const missing: string[] = [];
  const out = url.replace(/\{\{([^{}]+)\}\}/g, (_m, name: string) => {
    const v = env[name.trim()];
    if (v === undefined) missing.push(name.trim());
    return v ?? '';
  });
  return missing.length ? { missing } : out;
}

/** What is wrong with an action's types, if anything (arguments first, then the output type). */
function actionProblem(a: ActionMeta, ct: CustomTypes): string | null {
  const names = (xs: Array<{ name: string }> | null | undefined) => new Set((xs ?? []).map((x) => x.name));
  const objects = names(ct.objects);
  const inputLike = new Set([...names(ct.scalars), ...names(ct.enums), ...names(ct.input_objects), ...BUILTIN_SCALARS, ...PG_SCALARS]);
  for (const arg of a.definition.arguments) {
    const base = baseTypeName(arg.type);
    if (objects.has(base)) return `the argument's base type: ${base} should be a scalar/enum/input_object`;
    if (!inputLike.has(base)) return `the type: ${base} is not defined in custom types`;
  }
  const out = baseTypeName(a.definition.output_type);
  if (!objects.has(out)) return `the type: ${out} is not an object type defined in custom types`;
  return null;
}


export type { TableMeta };
