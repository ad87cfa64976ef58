// decide for run_sql's metadata check: compares the catalog before and after the SQL and turns what changed
// under tracked objects into events (renames followed, dropped objects untracked) or the original's errors.
import { EngineError } from '../../src/core/errors.js';
import { displayName, qualifiedKey, sameName, quote as q, quoteName as qt, type QualifiedName } from '../../src/core/names.js';
import type { PgCatalog, PgTable } from '../../src/catalog/types.js';
import { ev, type Event, type Metadata, type MigrationRef } from '../types.js';
import { columnTypeDependents, dependencyError, dependentsOf, dropEvents, objKey, permissionRenames, reportObj, type ObjId } from './dependencies.js';
import { applyPermissionUpdates as foldLocal } from './local-fold.js';

export interface SqlRan {
  sql: string;
  cascade: boolean;
  check_metadata_consistency: boolean | null;
  read_only: boolean;
  /** Set when the SQL is a schema migration's (engine_apply_migration). */
  migration?: MigrationRef;
}

/** The keyword heuristic the original applies when check_metadata_consistency is absent. */
export function shouldCheckMetadata(a: { sql: string; check_metadata_consistency: boolean | null; read_only: boolean }): boolean {
  if (a.read_only) return false;
  if (a.check_metadata_consistency !== null) return a.check_metadata_consistency;
  return /\b(alter|drop|replace|create\s+function|comment\s+on)\b/i.test(a.sql);
}

const byOid = (catalog: PgCatalog): Map<number, PgTable> => new Map(Object.values(catalog.tables).map((t) => [t.oid, t]));

/**
 * Events for a run_sql whose SQL has already run, from the catalog before it and after it: renames followed,
 * dropped objects untracked (with `cascade`), or the original's dependency errors. Without the metadata check
 * only `sql_ran` is emitted.
 */
export function decideRunSql(run: SqlRan, before: PgCatalog, after: PgCatalog, m: Metadata): Event[] {
  const events: Event[] = [ev('sql_ran', run)];
  if (!shouldCheckMetadata(run)) return events;

  // Tracked functions may not be overloaded.
  const overloaded = Object.values(m.functions)
    .filter((f) => (after.functions[qualifiedKey(f.function)]?.length ?? 0) > 1)
    .map((f) => displayName(f.function)); // unquoted, as the original
  if (overloaded.length) {
    throw new EngineError('not-supported', `the following tracked function(s) cannot be overloaded: ${overloaded.join(', ')}`, { path: '$.args' });
  }

  const newByOid = byOid(after);
  const retyped: Array<{ table: QualifiedName; column: string }> = [];
  const droppedTables: QualifiedName[] = [];
  const renamedTables: Array<{ from: QualifiedName; to: QualifiedName }> = [];
  const renamedColumns: Array<{ table: QualifiedName; from: string; to: string }> = [];
  const droppedColumns: Array<{ table: QualifiedName; column: string }> = [];
  const gone: ObjId[] = [];

  for (const t of Object.values(m.tables)) {
    const old = before.tables[qualifiedKey(t.table)];
    if (!old) continue; // already inconsistent before the SQL
    const now = newByOid.get(old.oid);
    if (!now) {
      droppedTables.push(t.table);
      gone.push({ kind: 'table', table: t.table });
      continue;
    }
    if (!sameName(now.name, t.table)) renamedTables.push({ from: t.table, to: now.name });
    const newCols = new Map(now.columns.map((c) => [c.position, c]));
    for (const c of old.columns) {
      const nc = newCols.get(c.position);
      if (!nc) {
        droppedColumns.push({ table: t.table, column: c.name });
        gone.push({ kind: 'column', table: t.table, column: c.name });
      } else if (nc.name !== c.name) renamedColumns.push({ table: t.table, from: c.name, to: nc.name });
      else if (nc.formattedType !== c.formattedType) retyped.push({ table: t.table, column: c.name });
    }
    const newFks = new Set(now.foreignKeys.map((k) => k.name));
    for (const k of old.foreignKeys) if (!newFks.has(k.name)) gone.push({ kind: 'constraint', table: t.table, name: k.name });
  }

  // Computed fields whose function was dropped (or renamed away) depend on it.
  const cfErrors: EngineError[] = [];
  for (const t of Object.values(m.tables)) {
    for (const cf of Object.values(t.computed_fields)) {
      const fk = qualifiedKey(cf.definition.function);
      const old = before.functions[fk];
      if (!old || old.length !== 1) continue;
      const now = after.functions[fk] ?? [];
      const same = now.find((f) => f.oid === old[0].oid);
      if (!same) {
        gone.push({ kind: 'computed_field', table: t.table, name: cf.name });
      } else if (now.length > 1) {
        cfErrors.push(new EngineError('not-supported',
          `The function ${qt(cf.definition.function)} associated with computed field${q(cf.name)} of table ${qt(t.table)} is being overloaded`,
          { path: '$.args' }));
      } else if (same.volatility === 'volatile' && old[0].volatility !== 'volatile') {
        cfErrors.push(new EngineError('not-supported',
          `The type of function ${qt(cf.definition.function)} associated with computed field ${q(cf.name)} of table ${qt(t.table)} is being altered to "VOLATILE"`,
          { path: '$.args' }));
      }
    }
  }

  const droppedKeys = new Set(droppedTables.map(qualifiedKey));
  const goneCfs = gone.filter((g) => g.kind === 'computed_field');
  const deps = [...goneCfs, ...dependentsOf(gone, m, before)].filter(
    (o) => !('table' in o && droppedKeys.has(qualifiedKey(o.table))),
  );
  const unique = [...new Map(deps.map((d) => [objKey(d), d])).values()];
  // Tracked functions are removed with their tables silently when only they depend on them.
  const reported = unique.filter((o) => o.kind !== 'function');
  if (reported.length && !run.cascade) throw dependencyError(reported);
  if (cfErrors.length) throw cfErrors[0];
  // A type change under rules that compare the column with literals is refused, cascade or not.
  for (const r of retyped) {
    const deps = columnTypeDependents(m, before, r.table, r.column);
    if (deps.length) {
      throw new EngineError('dependency-error',
        `cannot change type of column ${q(r.column)} in table ${qt(r.table)} because of the following dependencies : ${deps.map(reportObj).sort().join(', ')}`,
        { path: '$.args' });
    }
  }

  events.push(...dropEvents(unique));
  const purged = new Set(unique.filter((o) => o.kind === 'function').map(objKey));
  for (const f of Object.values(m.functions)) {
    const fk = qualifiedKey(f.function);
    const old = before.functions[fk];
    const now = after.functions[fk];
    if (old && !now && !purged.has(objKey({ kind: 'function', fn: f.function }))) {
      events.push(ev('function_untracked', { function: f.function }));
    } else if (old && now && now.length === 1 && old.length === 1 && now[0].volatility === 'volatile' && old[0].volatility !== 'volatile') {
      throw new EngineError('not-supported', `type of function ${qt(f.function)} is altered to "VOLATILE" which is not supported now`, { path: '$.args' });
    }
  }
  for (const t of droppedTables) events.push(ev('table_untracked', { table: t }));

  // Custom names of dropped columns go away with them.
  const byTable = new Map<string, string[]>();
  for (const d of droppedColumns) byTable.set(qualifiedKey(d.table), [...(byTable.get(qualifiedKey(d.table)) ?? []), d.column]);
  for (const [key, cols] of byTable) {
    const t = m.tables[key];
    const names = t.configuration.custom_column_names;
    if (cols.some((c) => c in names)) {
      const custom = Object.fromEntries(Object.entries(names).filter(([c]) => !cols.includes(c)));
      events.push(ev('table_custom_fields_set', { table: t.table, configuration: { ...t.configuration, custom_column_names: custom } }));
    }
  }
  // Column renames, then the permissions that name them (also through relationships of other tables).
  let working = m;
  for (const r of renamedColumns) {
    const renamed = [ev('column_renamed', r), ...permissionRenames(working, before, r.table, r.from, r.to, true)];
    events.push(...renamed);
    working = foldLocal(working, renamed);
  }
  for (const r of renamedTables) events.push(ev('table_renamed', r));
  return events;
}
