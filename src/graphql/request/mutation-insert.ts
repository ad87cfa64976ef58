// insert_<t> / insert_<t>_one arguments → InsertIR: columns, presets, nested object relationships (inserted first)
// and array relationships (inserted after), on_conflict, and the insert (and, for upserts, update) checks. The
// original's validation messages and paths for columns already determined by a parent or an object relationship.
import { qualifiedKey } from '../../core/names.js';
import { extendPath } from '../../core/json-path.js';
import type { TableInfo } from '../../cache/types.js';
import type { InsertIR, InsertRowIR, OnConflictIR } from '../../ir/mutation.js';
import type { ValueIR } from '../../ir/types.js';
import { insertAccess, updateAccess } from '../schema/mutation-access.js';
import { ve, type Parsed } from './input.js';
import { andIR } from '../../ir/permission.js';
import { whereIR } from './translate.js';
import type { Translator } from '../role-schema.js';
import {
  enumValue, isNullValue, leafValue, listItems, objectFields, permissionIR, pgTypeOf, presetValues, viewOrStub,
} from './mutation-values.js';

const showCols = (cols: string[]): string => cols.map((c) => `"${c}"`).join(', ');

function onConflictIR(t: Translator, table: TableInfo, p: Parsed | undefined, path: string): OnConflictIR | null {
  if (p === undefined || isNullValue(t, p)) return null;
  const fields = new Map(objectFields(t, p));
  const constraint = enumValue(t, fields.get('constraint') as Parsed);
  const updateColumns = listItems(t, fields.get('update_columns')).map((x) => enumValue(t, x)).filter((c) => c !== '');
  const upd = updateAccess(table, t.rs.ctx.role);
  if (updateColumns.length === 0 || !upd) return { constraint, updateColumns: [], where: null, presets: [] };
  const userWhere = whereIR(t, viewOrStub(t, table), fields.get('where'), extendPath(path, 'where'));
  const where = andIR([userWhere, permissionIR(t, table, upd.filter)]);
  return { constraint, updateColumns, where: where && where.kind === 'true' ? null : where, presets: presetValues(table, upd.presets) };
}

/** Rows of one table: `objects` at `paths[i]`; `parentColumns` are the columns an enclosing array relationship fills. */
export function insertIR(
  t: Translator, table: TableInfo, objects: Parsed[], paths: string[], onConflict: Parsed | undefined, onConflictPath: string,
  parentColumns: string[] = [],
): InsertIR {
  const role = t.rs.ctx.role;
  const access = insertAccess(table, role);
  if (!access) throw ve(`insert is not allowed on table "${table.name.name}"`, onConflictPath);
  const conflict = onConflictIR(t, table, onConflict, onConflictPath);
  const rows = objects.map((o, i) => insertRowIR(t, table, o, paths[i], parentColumns));
  const upd = conflict ? updateAccess(table, role) : null;
  return {
    table: table.name,
    columns: table.columns.map((c) => c.name),
    rows,
    onConflict: conflict,
    check: permissionIR(t, table, access.check),
    updateCheck: conflict && conflict.updateColumns.length > 0 && upd ? permissionIR(t, table, upd.check) : null,
  };
}

function insertRowIR(t: Translator, table: TableInfo, obj: Parsed, path: string, parentColumns: string[]): InsertRowIR {
  const access = insertAccess(table, t.rs.ctx.role)!;
  const byField = new Map(access.columns.map((c) => [c.graphqlName, c]));
  const values: Array<[string, ValueIR]> = [];
  const relFields: Array<[string, Parsed]> = [];
  for (const [k, v] of objectFields(t, obj)) {
    const col = byField.get(k);
    if (col) values.push([col.name, leafValue(t, v, pgTypeOf(col))]);
    else if (table.relationships[k]) relFields.push([k, v]);
  }
  const given = values.map(([c]) => c);
  const fromParent = given.filter((c) => parentColumns.includes(c));
  if (fromParent.length > 0) {
    throw ve(`cannot insert ${showCols(fromParent)} columns as their values are already being determined by parent insert`, path);
  }
  const row: InsertRowIR = { values: [...presetValues(table, access.presets), ...values], objectRelationships: [], arrayRelationships: [] };
  const nonNullRels = relFields.filter(([, v]) => !isNullValue(t, v));
  for (const [name] of nonNullRels) {
    const rel = table.relationships[name];
    if (rel.kind !== 'object') continue;
    const determined = rel.mapping.map(([l]) => l).filter((l) => parentColumns.includes(l) || given.includes(l));
    if (determined.length > 0) {
      throw ve(`cannot insert object relation ship "${name}" as ${showCols(determined)} column values are already determined`, extendPath(path, name));
    }
  }
  for (const [name, v] of nonNullRels) {
    const rel = table.relationships[name];
    const remote = t.rs.ctx.cache.tables[qualifiedKey(rel.remoteTable)];
    const fields = new Map(objectFields(t, v));
    const relPath = extendPath(path, name);
    if (rel.kind === 'object') {
      const dataPath = extendPath(relPath, 'data');
      const insert = insertIR(t, remote, [fields.get('data') as Parsed], [dataPath], fields.get('on_conflict'), extendPath(relPath, 'on_conflict'));
      row.objectRelationships.push({ relationship: rel, insert });
    } else {
      const items = listItems(t, fields.get('data'));
      if (items.length === 0) continue; // the original ignores an empty array relationship insert
      const paths = items.map((_, i) => extendPath(relPath, 'data', i));
      const childColumns = rel.mapping.map(([, r]) => r);
      const insert = insertIR(t, remote, items, paths, fields.get('on_conflict'), extendPath(relPath, 'on_conflict'), childColumns);
      row.arrayRelationships.push({ relationship: rel, insert });
    }
  }
  return row;
}
