// A mutation root field → its statement: data-modifying CTEs (insert / update / delete), then one SELECT building
// the field's JSON (affected_rows, returning through the select compiler, or the single row) from the affected rows.
// Note [Nested returning]: rows written by one statement are invisible to its other parts (one snapshot), so when a
// nested insert's output reads relationships or computed fields, the first statement returns the root rows as JSON
// and a second one (same transaction) selects from them; the executor passes the first result as PREVIOUS_RESULT.
import type { QualifiedName } from '../core/names.js';
import type { DeleteIR, MutationIR, MutationOutputIR, UpdateIR, UpdateOpKind } from '../ir/mutation.js';
import type { FieldIR, PgTypeRef, SelectIR, ValueIR } from '../ir/types.js';
import { ident, join, literal, param, raw, sql, type SQL } from './builder.js';
import { compileBoolExp } from './boolexp.js';
import type { CompileContext } from './context.js';
import { selectQuery } from './select.js';
import { jsonObject } from './json.js';
import { checkExpr, columnValue, MutationStatement, projectColumns, tableSql, valueParam } from './mutation-common.js';
import { compileInsert, hasNestedInserts } from './mutation-insert.js';

/** The variable name under which the executor passes the previous statement's result (not a valid GraphQL name). */
export const PREVIOUS_RESULT = '$previous';

const TEXT: PgTypeRef = { type: 'text', typeSchema: 'pg_catalog', array: false };
const NO_ARGS = { where: null, orderBy: [], limit: null, permissionLimit: null, offset: null, distinctOn: null };

function opExpr(op: UpdateOpKind, column: string, v: ValueIR): SQL {
  const col = sql`"_t".${ident(column)}`;
  switch (op) {
    case 'set': return columnValue(v);
    case 'inc': return sql`${col} + ${valueParam(v)}`;
    case 'mul': return sql`${col} * ${valueParam(v)}`;
    case 'default': return raw('DEFAULT');
    case 'append': return sql`${col} || ${valueParam(v)}`;
    case 'prepend': return sql`${valueParam(v)} || ${col}`;
    case 'delete_key': case 'delete_elem': return sql`${col} - ${valueParam(v)}`;
    case 'delete_at_path': return sql`${col} #- ${valueParam(v)}`;
  }
}

const whereSql = (where: UpdateIR['where'], st: MutationStatement): SQL =>
  where && where.kind !== 'true' ? sql` WHERE ${compileBoolExp(where, '_t', st.ctx)}` : raw('');

/** No statement to run: a relation of the table's shape with no rows. */
const noRows = (st: MutationStatement, table: QualifiedName): string => st.cte('none', sql`SELECT * FROM ${tableSql(table)} WHERE false`);

function updateRows(st: MutationStatement, u: UpdateIR): string {
  if (u.ops.length === 0) return noRows(st, u.table);
  const sets = u.ops.map((o) => sql`${ident(o.column)} = ${opExpr(o.op, o.column, o.value)}`);
  const check = u.check ? sql`, ${checkExpr(u.check, '_t', 'update check constraint failed', st)} AS "__check"` : raw('');
  const updated = st.cte(`upd_${u.table.name}`, sql`UPDATE ${tableSql(u.table)} AS "_t" SET ${join(sets, ', ')}${whereSql(u.where, st)} RETURNING "_t".*${check}`);
  const rows = u.check ? st.cte(`rows_${u.table.name}`, projectColumns(u.columns, updated)) : updated;
  st.addRows(u.table, rows);
  return rows;
}

function deleteRows(st: MutationStatement, d: DeleteIR): string {
  const rows = st.cte(`del_${d.table.name}`, sql`DELETE FROM ${tableSql(d.table)} AS "_t"${whereSql(d.where, st)} RETURNING "_t".*`);
  st.counted.push(rows);
  return rows;
}

function outputJson(out: MutationOutputIR, rows: string, table: QualifiedName, affected: SQL, ctx: CompileContext): SQL {
  const select = (fields: Array<[string, FieldIR]>): SelectIR => ({ source: { kind: 'relation', name: rows, table }, args: NO_ARGS, fields });
  const nest = { parentAlias: null, joinCond: null };
  if (out.kind === 'single') return sql`(${selectQuery(select(out.fields), '_root', true, nest, ctx)})`;
  return jsonObject(out.fields.map(([key, f]): [string, SQL] => {
    switch (f.kind) {
      case 'typename': return [key, sql`${literal(f.name)}::text`];
      case 'affected_rows': return [key, affected];
      case 'returning': return [key, sql`(${selectQuery(select(f.fields), '_root', false, nest, ctx)})`];
    }
  }));
}

const readsTables = (fields: Array<[string, FieldIR]>): boolean => fields.some(([, f]) => f.kind !== 'column' && f.kind !== 'typename');

function outputReadsTables(out: MutationOutputIR): boolean {
  if (out.kind === 'single') return readsTables(out.fields);
  return out.fields.some(([, f]) => f.kind === 'returning' && readsTables(f.fields));
}

/** The statement(s) of a mutation root field; the last one's single text column is the field's JSON. */
export function compileMutation(m: MutationIR, ctx: CompileContext): SQL[] {
  const st = new MutationStatement(ctx);
  let table: QualifiedName;
  let rows: string;
  switch (m.kind) {
    case 'insert': {
      table = m.insert.table;
      const names = compileInsert(st, m.insert, null);
      rows = names.length === 0 ? noRows(st, table)
        : names.length === 1 ? names[0]
          : st.cte('rows', join(names.map((n) => sql`SELECT * FROM ${ident(n)}`), ' UNION ALL '));
      break;
    }
    case 'update':
      table = m.update.table;
      // The original answers an update without assignments with an empty object (by pk) or no rows, running nothing.
      if (m.update.ops.length === 0 && m.output.kind === 'single') return [sql`SELECT '{}'::text`];
      rows = updateRows(st, m.update);
      break;
    case 'delete':
      table = m.delete.table;
      rows = deleteRows(st, m.delete);
      break;
  }
  // Every data-modifying CTE is counted in the FROM item, so each one is read (and its checks run) even when the
  // output does not ask for affected_rows; the sum is evaluated left to right, which runs the CTEs in the order they
  // were written (rows get their serial ids in input order, as when the original inserted them one by one).
  // The first term puts the session into `engine.user` (transaction-local) before any CTE writes: a statement that
  // runs alone needs no BEGIN / set_config round trips (CompiledSql.standalone).
  const setUser = sql`(set_config('engine.user', ${param({ kind: 'session_object' })}, true) IS NULL)::int`;
  const counts = [setUser, ...st.counted.map((c) => sql`(SELECT count(*) FROM ${ident(c)})`)];
  const from = st.counted.length === 0 ? raw('') : sql` FROM (SELECT ${join(counts, ' + ')} AS "n") AS "_c"`;
  const affected = st.counted.length === 0 ? raw('0') : raw('"_c"."n"');

  if (m.kind === 'insert' && hasNestedInserts(m.insert) && outputReadsTables(m.output)) {
    const first = sql`${st.withClause()}SELECT json_build_object('affected_rows', ${affected}, 'rows', (SELECT coalesce(json_agg("_x"), '[]') FROM ${ident(rows)} AS "_x"))::text${from}`;
    const prev = sql`${param({ kind: 'variable', name: PREVIOUS_RESULT, path: [], pgType: TEXT })}::json`;
    const prevRows = ctx.alias('rows');
    const source = sql`SELECT * FROM json_populate_recordset(NULL::${tableSql(table)}, ${prev}->'rows')`;
    const second = sql`WITH ${ident(prevRows)} AS (${source}) SELECT (${outputJson(m.output, prevRows, table, sql`((${prev}->>'affected_rows')::int)`, ctx)})::text`;
    return [first, second];
  }
  return [sql`${st.withClause()}SELECT (${outputJson(m.output, rows, table, affected, ctx)})::text${from}`];
}
