// The dependency graph of metadata objects (what would break if a table, column, ... went away), and what follows
// from it: dependency errors, drop events for dependents, permissions rewritten by renames, column types that
// rules depend on.
import { EngineError } from '../../src/core/errors.js';
import { displayName, qualifiedKey, sameName, type QualifiedName } from '../../src/core/names.js';
import type { PgCatalog, PgTable } from '../../src/catalog/types.js';
import { boolExpFields, boolExpRelationshipParts } from '../boolexp.js';
import { relationshipOf } from './context.js';
import {
  ev,
  own,
  PERM_KINDS,
  permissionsOf,
  type Event,
  type Metadata,
  type PermKind,
  type RelationshipMeta,
  type TableMeta,
  type Permission,
} from '../types.js';

// ---------------------------------------------------------------------------------------------------------------
// Dependency graph

export type ObjId =
  | { kind: 'table'; table: QualifiedName }
  | { kind: 'column'; table: QualifiedName; column: string }
  | { kind: 'constraint'; table: QualifiedName; name: string }
  | { kind: 'relationship'; table: QualifiedName; name: string }
  | { kind: 'computed_field'; table: QualifiedName; name: string }
  | { kind: 'event_trigger'; table: QualifiedName; name: string }
  | { kind: 'remote_relationship'; table: QualifiedName; name: string }
  | { kind: 'permission'; table: QualifiedName; role: string; perm: PermKind }
  | { kind: 'function'; fn: QualifiedName };

export function reportObj(o: ObjId): string {
  switch (o.kind) {
    case 'table': return `table ${displayName(o.table)}`;
    case 'column': return `column ${displayName(o.table)}.${o.column}`;
    case 'constraint': return `constraint ${displayName(o.table)}.${o.name}`;
    case 'relationship': return `relationship ${displayName(o.table)}.${o.name}`;
    case 'computed_field': return `computed field ${displayName(o.table)}.${o.name}`;
    case 'event_trigger': return `event-trigger ${displayName(o.table)}.${o.name}`;
    case 'remote_relationship': return `remote relationship ${displayName(o.table)}.${o.name}`;
    case 'permission': return `permission ${displayName(o.table)}.${o.role}.${o.perm}`;
    case 'function': return `function ${displayName(o.fn)}`;
  }
}

export const objKey = (o: ObjId): string => `${o.kind}:${reportObj(o)}`;

const tableOfObj = (o: ObjId): QualifiedName | null => ('table' in o ? o.table : null);

/** Whether `dep` (something an object uses) is `target` or part of it (a table contains its columns, ...). */
function within(dep: ObjId, target: ObjId): boolean {
  if (target.kind === 'table') {
    const t = tableOfObj(dep);
    return t !== null && sameName(t, target.table) && (dep.kind === 'table' || dep.kind === 'column' || dep.kind === 'constraint');
  }
  return objKey(dep) === objKey(target);
}

/** Where a relationship points and which columns/constraint it uses, resolved against the catalog. */
export function relationshipDeps(table: QualifiedName, kind: 'object' | 'array', rel: RelationshipMeta, catalog: PgCatalog): ObjId[] {
  const deps: ObjId[] = [{ kind: 'table', table }];
  const using = rel.using as Record<string, unknown>;
  if ('manual_configuration' in using) {
    const m = using.manual_configuration as { remote_table: QualifiedName; column_mapping: Record<string, string> };
    deps.push({ kind: 'table', table: m.remote_table });
    for (const [l, r] of Object.entries(m.column_mapping)) {
      deps.push({ kind: 'column', table, column: l }, { kind: 'column', table: m.remote_table, column: r });
    }
    return deps;
  }
  const fk = using.foreign_key_constraint_on;
  if (kind === 'object' && typeof fk === 'string') {
    deps.push({ kind: 'column', table, column: fk });
    const pg = catalog.tables[qualifiedKey(table)];
    const c = pg?.foreignKeys.filter((k) => k.columns.length === 1 && k.columns[0] === fk) ?? [];
    if (c.length === 1) {
      deps.push({ kind: 'constraint', table, name: c[0].name }, { kind: 'table', table: c[0].refTable });
      for (const col of c[0].refColumns) deps.push({ kind: 'column', table: c[0].refTable, column: col });
    }
  } else if (fk && typeof fk === 'object') {
    const f = fk as { table: QualifiedName; column: string };
    deps.push({ kind: 'table', table: f.table }, { kind: 'column', table: f.table, column: f.column });
    const pg = catalog.tables[qualifiedKey(f.table)];
    const c = pg?.foreignKeys.filter((k) => k.columns.length === 1 && k.columns[0] === f.column && sameName(k.refTable, table)) ?? [];
    if (c.length === 1) {
      deps.push({ kind: 'constraint', table: f.table, name: c[0].name });
      for (const col of c[0].refColumns) deps.push({ kind: 'column', table, column: col });
    }
  }
  return deps;
}

/** The table a relationship leads to (FK form needs the catalog). */
export function relationshipTarget(table: QualifiedName, rel: RelationshipMeta, catalog: PgCatalog): QualifiedName | null {
  const using = rel.using as Record<string, unknown>;
  if ('manual_configuration' in using) return (using.manual_configuration as { remote_table: QualifiedName }).remote_table;
  const fk = using.foreign_key_constraint_on;
  if (typeof fk === 'string') {
    const c = catalog.tables[qualifiedKey(table)]?.foreignKeys.filter((k) => k.columns.length === 1 && k.columns[0] === fk);
    return c && c.length === 1 ? c[0].refTable : null;
  }
  return (fk as { table: QualifiedName }).table;
}

/** Everything a boolean expression on `table` uses: fields of that table and, through relationships, of others. */
export function boolExpDeps(exp: unknown, table: QualifiedName, m: Metadata, catalog: PgCatalog, depth = 0): ObjId[] {
  const deps: ObjId[] = [];
  if (depth > 16) return deps;
  const t = m.tables[qualifiedKey(table)];
  for (const f of boolExpFields(exp)) deps.push(fieldDep(t, table, f));
  if (!t) return deps;
  for (const [field, sub] of boolExpRelationshipParts(exp)) {
    const r = relationshipOf(t, field);
    if (!r) continue;
    const target = relationshipTarget(table, r.rel, catalog);
    if (target) deps.push(...boolExpDeps(sub, target, m, catalog, depth + 1));
  }
  return deps;
}

function fieldDep(t: TableMeta | undefined, table: QualifiedName, f: string): ObjId {
  if (t && relationshipOf(t, f)) return { kind: 'relationship', table, name: f };
  if (t && own(t.computed_fields, f)) return { kind: 'computed_field', table, name: f };
  return { kind: 'column', table, column: f };
}

/** What a permission's rules use: its columns, preset columns, computed fields, and everything its row rules name. */
function permissionDeps(table: QualifiedName, def: Permission, m: Metadata, catalog: PgCatalog): ObjId[] {
  const deps: ObjId[] = [{ kind: 'table', table }];
  if ('columns' in def && Array.isArray(def.columns)) for (const c of def.columns) deps.push({ kind: 'column', table, column: c });
  if ('set' in def && def.set && typeof def.set === 'object') for (const c of Object.keys(def.set)) deps.push({ kind: 'column', table, column: c });
  if ('computed_fields' in def) for (const c of def.computed_fields) deps.push({ kind: 'computed_field', table, name: c });
  if ('filter' in def && def.filter) deps.push(...boolExpDeps(def.filter, table, m, catalog));
  if ('check' in def && def.check) deps.push(...boolExpDeps(def.check, table, m, catalog));
  return deps;
}

export interface MetaObject {
  id: ObjId;
  deps: ObjId[];
}

/** Every metadata object with what it directly depends on. */
export function metadataObjects(m: Metadata, catalog: PgCatalog): MetaObject[] {
  const out: MetaObject[] = [];
  for (const t of Object.values(m.tables)) {
    const table = t.table;
    for (const [kind, key] of [['object', 'object_relationships'], ['array', 'array_relationships']] as const) {
      for (const rel of Object.values(t[key])) {
        out.push({ id: { kind: 'relationship', table, name: rel.name }, deps: relationshipDeps(table, kind, rel, catalog) });
      }
    }
    for (const cf of Object.values(t.computed_fields)) {
      out.push({ id: { kind: 'computed_field', table, name: cf.name }, deps: [{ kind: 'table', table }, { kind: 'function', fn: cf.definition.function }] });
    }
    for (const perm of PERM_KINDS) {
      for (const p of Object.values(permissionsOf(t, perm))) {
        out.push({
          id: { kind: 'permission', table, role: p.role, perm },
          deps: permissionDeps(table, p.permission, m, catalog),
        });
      }
    }
    // An event trigger uses its table and the columns (and payload columns) its operations list.
    for (const et of t.event_triggers) {
      const specs = [et.definition.insert, et.definition.update, et.definition.delete];
      const cols = new Set(specs.flatMap((s) => [s?.columns, s?.payload]).flatMap((c) => (Array.isArray(c) ? c : [])));
      out.push({ id: { kind: 'event_trigger', table, name: et.name }, deps: [{ kind: 'table', table }, ...[...cols].map((column): ObjId => ({ kind: 'column', table, column }))] });
    }
    // A remote relationship uses its table and its join columns (its remote schema: events/decide/remote-schemas.ts).
    for (const r of t.remote_relationships) {
      const cols = r.definition.engine_fields.map((column): ObjId => ({ kind: 'column', table, column }));
      out.push({ id: { kind: 'remote_relationship', table, name: r.name }, deps: [{ kind: 'table', table }, ...cols] });
    }
  }
  for (const f of Object.values(m.functions)) {
    const pgf = catalog.functions[qualifiedKey(f.function)];
    const deps: ObjId[] = [];
    if (pgf && pgf.length === 1 && pgf[0].returnsTable) deps.push({ kind: 'table', table: pgf[0].returnsTable });
    out.push({ id: { kind: 'function', fn: f.function }, deps });
  }
  return out;
}

/** Transitive dependents of the targets (the targets themselves excluded). */
export function dependentsOf(targets: ObjId[], m: Metadata, catalog: PgCatalog): ObjId[] {
  const objects = metadataObjects(m, catalog);
  // Reverse index: what uses a given object, and what uses anything of a given table.
  const byKey = new Map<string, MetaObject[]>();
  const byTable = new Map<string, MetaObject[]>();
  const push = (map: Map<string, MetaObject[]>, k: string, o: MetaObject) => {
    const list = map.get(k);
    if (list) {
      if (list[list.length - 1] !== o) list.push(o);
    } else map.set(k, [o]);
  };
  for (const o of objects) {
    for (const d of o.deps) {
      push(byKey, objKey(d), o);
      if (d.kind === 'table' || d.kind === 'column' || d.kind === 'constraint') push(byTable, qualifiedKey(d.table), o);
    }
  }
  const found = new Map<string, ObjId>();
  const queue = [...targets];
  const targetKeys = new Set(targets.map(objKey));
  while (queue.length) {
    const target = queue.shift()!;
    const candidates = target.kind === 'table' ? byTable.get(qualifiedKey(target.table)) : byKey.get(objKey(target));
    for (const o of candidates ?? []) {
      const k = objKey(o.id);
      if (found.has(k) || targetKeys.has(k)) continue;
      if (o.deps.some((d) => within(d, target))) {
        found.set(k, o.id);
        queue.push(o.id);
      }
    }
  }
  return [...found.values()];
}

export function dependencyError(objs: ObjId[], path = '$.args'): EngineError {
  const list = objs.map(reportObj).sort();
  return new EngineError('dependency-error', `cannot drop due to the following dependent objects : ${list.join(', ')}`, { path });
}

/** Drop events for objects, dependents first (permissions, then relationships and computed fields, then functions). */
export function dropEvents(objs: ObjId[]): Event[] {
  const rank: Record<ObjId['kind'], number> = { event_trigger: 0, permission: 0, remote_relationship: 1, relationship: 1, computed_field: 1, function: 2, table: 3, column: 9, constraint: 9 };
  const out: Event[] = [];
  for (const o of [...objs].sort((a, b) => rank[a.kind] - rank[b.kind])) {
    if (o.kind === 'permission') out.push(ev('permission_dropped', { table: o.table, kind: o.perm, role: o.role }));
    else if (o.kind === 'relationship') out.push(ev('relationship_dropped', { table: o.table, name: o.name }));
    else if (o.kind === 'computed_field') out.push(ev('computed_field_dropped', { table: o.table, name: o.name }));
    else if (o.kind === 'event_trigger') out.push(ev('event_trigger_deleted', { name: o.name }));
    else if (o.kind === 'remote_relationship') out.push(ev('remote_relationship_deleted', { table: o.table, name: o.name }));
    else if (o.kind === 'function') out.push(ev('function_untracked', { function: o.fn }));
    else if (o.kind === 'table') out.push(ev('table_untracked', { table: o.table }));
  }
  return out;
}

export const pgTableOf = (catalog: PgCatalog, table: QualifiedName): PgTable | undefined => catalog.tables[qualifiedKey(table)];

// ---------------------------------------------------------------------------------------------------------------
// Renames inside permissions

const LOGICAL = new Set(['_and', '_or', '$and', '$or']);
const NOT = new Set(['_not', '$not']);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Renames field `from` of `target` to `to` wherever a boolean expression on `current` reaches `target`, directly
 * or through relationships (resolved against the catalog).
 */
export function renameFieldInBoolExp(
  exp: unknown, current: QualifiedName, target: QualifiedName, from: string, to: string, m: Metadata, catalog: PgCatalog, depth = 0,
): unknown {
  if (!isObj(exp) || depth > 16) return exp;
  const here = sameName(current, target);
  const t = m.tables[qualifiedKey(current)];
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(exp)) {
    if (LOGICAL.has(k)) out[k] = Array.isArray(v) ? v.map((e) => renameFieldInBoolExp(e, current, target, from, to, m, catalog, depth)) : v;
    else if (NOT.has(k)) out[k] = renameFieldInBoolExp(v, current, target, from, to, m, catalog, depth);
    else if (k === '_exists' || k === '$exists') out[k] = v;
    else {
      const rel = t ? relationshipOf(t, k) : null;
      const key = here && k === from ? to : k;
      if (rel) {
        const remote = relationshipTarget(current, rel.rel, catalog);
        out[key] = remote ? renameFieldInBoolExp(v, remote, target, from, to, m, catalog, depth + 1) : v;
      } else if (here && isObj(v)) {
        // Column-comparison operators name a column of the same table.
        out[key] = Object.fromEntries(Object.entries(v).map(([op, o]) => [op, /^[$_]c/.test(op) && o === from ? to : o]));
      } else out[key] = v;
    }
  }
  return out;
}

/** permission_updated events for every permission that a rename of `table`.`from` changes (columns, set, rules). */
export function permissionRenames(m: Metadata, catalog: PgCatalog, table: QualifiedName, from: string, to: string, column: boolean): Event[] {
  const out: Event[] = [];
  const renamed = (c: string): string => (c === from ? to : c);
  for (const t of Object.values(m.tables)) {
    const own = sameName(t.table, table);
    const inRule = (exp: Record<string, unknown>): Record<string, unknown> => {
      const r = renameFieldInBoolExp(exp, t.table, table, from, to, m, catalog);
      return isObj(r) ? r : exp;
    };
    for (const kind of PERM_KINDS) {
      for (const p of Object.values(permissionsOf(t, kind))) {
        // Spreads keep each key where it was: the rules' key order (and the export's) does not change.
        let def: Permission = p.permission;
        if (own && column) {
          if ('columns' in def && Array.isArray(def.columns)) def = { ...def, columns: def.columns.map(renamed) };
          if ('set' in def && isObj(def.set)) def = { ...def, set: Object.fromEntries(Object.entries(def.set).map(([c, v]) => [renamed(c), v])) };
        }
        if (own && !column && 'computed_fields' in def) def = { ...def, computed_fields: def.computed_fields.map(renamed) };
        if ('filter' in def && isObj(def.filter)) def = { ...def, filter: inRule(def.filter) };
        if ('check' in def && isObj(def.check)) def = { ...def, check: inRule(def.check) };
        if (JSON.stringify(def) !== JSON.stringify(p.permission)) {
          out.push(ev('permission_updated', { table: t.table, kind, role: p.role, permission: def }));
        }
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Column types that rules depend on

const isSessionVariable = (v: unknown): boolean => typeof v === 'string' && /^x-engine-/i.test(v);

/** Whether a column's condition compares it with a literal (so the rule depends on the column's type). */
function comparesWithLiteral(v: unknown): boolean {
  if (!isObj(v)) return !isSessionVariable(v);
  return Object.entries(v).some(([op, operand]) => !/^[$_]c/.test(op) && !isSessionVariable(operand) && !(op.endsWith('is_null')));
}

function usesColumnType(exp: unknown, current: QualifiedName, target: QualifiedName, column: string, m: Metadata, catalog: PgCatalog, depth = 0): boolean {
  if (!isObj(exp) || depth > 16) return false;
  const t = m.tables[qualifiedKey(current)];
  return Object.entries(exp).some(([k, v]) => {
    if (LOGICAL.has(k)) return Array.isArray(v) && v.some((e) => usesColumnType(e, current, target, column, m, catalog, depth));
    if (NOT.has(k)) return usesColumnType(v, current, target, column, m, catalog, depth);
    if (k === '_exists' || k === '$exists') return false;
    const rel = t ? relationshipOf(t, k) : null;
    if (rel) {
      const remote = relationshipTarget(current, rel.rel, catalog);
      return remote !== null && usesColumnType(v, remote, target, column, m, catalog, depth + 1);
    }
    return sameName(current, target) && k === column && comparesWithLiteral(v);
  });
}

/** An insert/update preset giving the column a literal (not a session variable) depends on its type, as in the original. */
function presetsLiteral(set: unknown, current: QualifiedName, target: QualifiedName, column: string): boolean {
  return isObj(set) && sameName(current, target) && Object.hasOwn(set, column) && !isSessionVariable(set[column]);
}

/** Permissions whose rules compare `table`.`column` with literal values (or preset it to one): they stop its type from changing. */
export function columnTypeDependents(m: Metadata, catalog: PgCatalog, table: QualifiedName, column: string): ObjId[] {
  const out: ObjId[] = [];
  for (const t of Object.values(m.tables)) {
    for (const perm of PERM_KINDS) {
      for (const p of Object.values(permissionsOf(t, perm))) {
        const def = p.permission;
        const rules = ['filter' in def ? def.filter : undefined, 'check' in def ? def.check : undefined];
        if (rules.some((r) => usesColumnType(r, t.table, table, column, m, catalog)) || ('set' in def && presetsLiteral(def.set, t.table, table, column))) {
          out.push({ kind: 'permission', table: t.table, role: p.role, perm });
        }
      }
    }
  }
  return out;
}
