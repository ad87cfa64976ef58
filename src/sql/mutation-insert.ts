// InsertIR → data-modifying CTEs. Rows without array relationships go in one INSERT; a row with array relationships
// gets an INSERT of its own so that its children can take its keys (`(SELECT "x"."id" FROM "<row cte>" AS "x")`).
// Object relationships are inserted first and the parent row reads the remote row's keys the same way. Inserts that
// may affect zero rows (upserts) guard the reads with the original's error. Checks run in RETURNING, per row.
// Note [Visibility]: CTEs of one statement share a snapshot; nested rows are visible to the parent only through
// these reads, and the returning selection of a nested insert runs as a second statement (mutation-statement.ts).
import { quoteName, type QualifiedName } from '../core/names.js';
import type { InsertIR, InsertRowIR } from '../ir/mutation.js';
import { ident, join, raw, sql, type SQL } from './builder.js';
import { compileBoolExp } from './boolexp.js';
import { checkExpr, columnValue, MutationStatement, projectColumns, raiseError, tableSql } from './mutation-common.js';

/** Where an array relationship's rows take their keys: the parent row's CTE and [parent column, child column] pairs. */
interface Link {
  parent: string;
  mapping: Array<[string, string]>;
  /** The parent insert may affect zero rows (upsert): reading its keys must then fail. */
  mayBeEmpty: boolean;
  parentTable: QualifiedName;
}

/** The value of `column` of the single row of `cte`, failing with `message` when the CTE may be empty and is. */
function keyOf(cte: string, column: string, mayBeEmpty: boolean, message: string): SQL {
  const read = sql`SELECT "x".${ident(column)} FROM ${ident(cte)} AS "x"`;
  if (!mayBeEmpty) return sql`(${read})`;
  return sql`(SELECT "x".${ident(column)} FROM ${ident(cte)} AS "x" RIGHT JOIN (SELECT 1) AS "_one" ON true WHERE CASE WHEN EXISTS (SELECT 1 FROM ${ident(cte)}) THEN true ELSE ${raiseError('not-supported', message)} END)`;
}

function onConflictSql(ins: InsertIR, st: MutationStatement): SQL {
  const oc = ins.onConflict;
  if (!oc) return raw('');
  const target = oc.constraint === '' ? raw(' ON CONFLICT') : sql` ON CONFLICT ON CONSTRAINT ${ident(oc.constraint)}`;
  if (oc.updateColumns.length === 0) return sql`${target} DO NOTHING`;
  const sets = [
    ...oc.updateColumns.filter((c) => !oc.presets.some(([p]) => p === c)).map((c) => sql`${ident(c)} = EXCLUDED.${ident(c)}`),
    ...oc.presets.map(([c, v]) => sql`${ident(c)} = ${columnValue(v)}`),
  ];
  const where = oc.where ? sql` WHERE ${compileBoolExp(oc.where, '_t', st.ctx)}` : raw('');
  return sql`${target} DO UPDATE SET ${join(sets, ', ')}${where}`;
}

function returningSql(ins: InsertIR, st: MutationStatement): { sql: SQL; checked: boolean } {
  const upsertUpdates = !!ins.onConflict && ins.onConflict.updateColumns.length > 0;
  const insCheck = ins.check ? checkExpr(ins.check, '_t', 'insert check constraint failed', st) : null;
  const updCheck = upsertUpdates && ins.updateCheck ? checkExpr(ins.updateCheck, '_t', 'update check constraint failed', st) : null;
  if (!insCheck && !updCheck) return { sql: sql` RETURNING "_t".*`, checked: false };
  const e = updCheck
    ? sql`CASE WHEN "_t"."xmax"::text = '0' THEN ${insCheck ?? raw('true')} ELSE ${updCheck} END`
    : (insCheck as SQL);
  return { sql: sql` RETURNING "_t".*, ${e} AS "__check"`, checked: true };
}

/** One INSERT of `rows` (their values already resolved to SQL); returns the CTE holding the inserted rows. */
function insertCte(st: MutationStatement, ins: InsertIR, rows: Array<Map<string, SQL>>): string {
  let cols = ins.columns.filter((c) => rows.some((r) => r.has(c)));
  if (cols.length === 0) cols = ins.columns; // all defaults
  const values = rows.map((r) => sql`(${join(cols.map((c) => r.get(c) ?? raw('DEFAULT')), ', ')})`);
  const ret = returningSql(ins, st);
  const body = sql`INSERT INTO ${tableSql(ins.table)} AS "_t" (${join(cols.map((c) => ident(c)), ', ')}) VALUES ${join(values, ', ')}${onConflictSql(ins, st)}${ret.sql}`;
  const inserted = st.cte(`ins_${ins.table.name}`, body);
  const rowsCte = ret.checked ? st.cte(`rows_${ins.table.name}`, projectColumns(ins.columns, inserted)) : inserted;
  st.addRows(ins.table, rowsCte);
  return rowsCte;
}

/** A row's column values: given values and presets, keys of object relationships inserted first, keys from the parent. */
function rowValues(st: MutationStatement, row: InsertRowIR, link: Link | null): Map<string, SQL> {
  const out = new Map<string, SQL>();
  for (const [c, v] of row.values) out.set(c, columnValue(v));
  for (const { relationship, insert } of row.objectRelationships) {
    const [remote] = compileInsert(st, insert, null);
    const message = `cannot proceed to insert object relation "${relationship.name}" since insert to table ${quoteName(insert.table)} affects zero rows`;
    for (const [local, remoteCol] of relationship.mapping) out.set(local, keyOf(remote, remoteCol, insert.onConflict !== null, message));
  }
  if (link) {
    const message = `cannot proceed to insert array relations since insert to table ${quoteName(link.parentTable)} affects zero rows`;
    for (const [parentCol, childCol] of link.mapping) out.set(childCol, keyOf(link.parent, parentCol, link.mayBeEmpty, message));
  }
  return out;
}

/** Compiles an insert (and everything nested in it); returns the CTEs holding its rows, in input order. */
export function compileInsert(st: MutationStatement, ins: InsertIR, link: Link | null): string[] {
  if (ins.rows.length === 0) return [];
  const perRow = ins.rows.some((r) => r.arrayRelationships.length > 0);
  if (!perRow) return [insertCte(st, ins, ins.rows.map((r) => rowValues(st, r, link)))];
  const rowCtes = ins.rows.map((row) => insertCte(st, ins, [rowValues(st, row, link)]));
  // Children of all rows, relationship by relationship: one INSERT per relationship when they can share it (no
  // deeper array relationships, same on_conflict), each child reading its own parent row's keys.
  const groups = new Map<string, Array<{ insert: InsertIR; link: Link }>>();
  ins.rows.forEach((row, i) => {
    for (const { relationship, insert } of row.arrayRelationships) {
      const childLink: Link = { parent: rowCtes[i], mapping: relationship.mapping, mayBeEmpty: ins.onConflict !== null, parentTable: ins.table };
      const flat = insert.rows.every((r) => r.arrayRelationships.length === 0);
      const key = flat ? JSON.stringify([relationship.name, insert.onConflict]) : `${i}:${relationship.name}`;
      groups.set(key, [...(groups.get(key) ?? []), { insert, link: childLink }]);
    }
  });
  for (const items of groups.values()) {
    if (items.length === 1) compileInsert(st, items[0].insert, items[0].link);
    else insertCte(st, items[0].insert, items.flatMap(({ insert, link: l }) => insert.rows.map((r) => rowValues(st, r, l))));
  }
  return rowCtes;
}

/** Whether an insert nests relationship inserts (its returning selection then needs a statement of its own). */
export const hasNestedInserts = (ins: InsertIR): boolean =>
  ins.rows.some((r) => r.objectRelationships.length > 0 || r.arrayRelationships.length > 0);
