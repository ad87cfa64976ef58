// Shared pieces of mutation statements: the CTE collector, column value expressions, permission check expressions
// that abort the statement (engine_catalog.check_violation raises SQLSTATE 23514), and the engine error raiser.
import { qualifiedKey, type QualifiedName } from '../core/names.js';
import type { BoolExpIR, ValueIR } from '../ir/types.js';
import { ident, join, literal, param, raw, sql, type SQL } from './builder.js';
import type { CompileContext } from './context.js';
import { compileBoolExp, relationshipJoin, typedParam, typeName } from './boolexp.js';
import { slotOf } from './params.js';

/** The data-modifying and helper CTEs of one statement, and the row CTEs whose sizes sum to affected_rows. */
export class MutationStatement {
  readonly ctes: SQL[] = [];
  /** Row CTEs counted in affected_rows (every table touched, nested inserts included). */
  readonly counted: string[] = [];

  /** Row CTEs written so far, by qualifiedKey of their table (checks read them, Note [Checks see nested rows]). */
  readonly rowsByTable = new Map<string, string[]>();

  constructor(readonly ctx: CompileContext) {}

  /** Registers a CTE holding rows of `table` (columns as the table's): counted in affected_rows, visible to checks. */
  addRows(table: QualifiedName, cte: string): void {
    this.counted.push(cte);
    const key = qualifiedKey(table);
    this.rowsByTable.set(key, [...(this.rowsByTable.get(key) ?? []), cte]);
  }

  cte(hint: string, body: SQL): string {
    const name = this.ctx.alias(hint);
    this.ctes.push(sql`${ident(name)} AS (${body})`);
    return name;
  }

  withClause(): SQL {
    return this.ctes.length === 0 ? raw('') : sql`WITH ${join(this.ctes, ', ')} `;
  }
}

export const tableSql = (q: QualifiedName): SQL => ident(q.schema, q.name);

/**
 * `$n::text::type`: equal constants and session variables share one parameter (builder.compile), whose type Postgres
 * infers from its first use; going through text keeps every use castable (a float4 `-1.1` also feeds a money column).
 */
export function valueParam(v: ValueIR): SQL {
  if (v.kind === 'session_object') return typedParam(v);
  return sql`${param(slotOf(v))}::text::${typeName(v.pgType)}`;
}

/** A column value as written to the table (GeoJSON for geometry/geography). */
export function columnValue(v: ValueIR): SQL {
  if (v.kind === 'literal' && v.value === null) return raw('NULL');
  const t = v.kind === 'session_object' ? null : v.pgType;
  if (t && !t.array && (t.type === 'geometry' || t.type === 'geography')) {
    const text = sql`${param(slotOf(v))}::text`;
    return t.type === 'geography' ? sql`ST_GeomFromGeoJSON(${text})::geography` : sql`ST_GeomFromGeoJSON(${text})`;
  }
  return valueParam(v);
}

/**
 * Note [Checks see nested rows]: the parts of one statement share a snapshot, so a check on a nested row that looks
 * at its parent through a relationship (or `_exists`) would not find a parent inserted by the same statement. Checks
 * therefore read each table as the table plus the rows this statement has written to it so far (the original ran
 * one statement per row and saw them).
 */
function rowsSource(st: MutationStatement, t: QualifiedName): SQL {
  const ctes = st.rowsByTable.get(qualifiedKey(t));
  if (!ctes || ctes.length === 0) return tableSql(t);
  return sql`(SELECT * FROM ${tableSql(t)} UNION ALL ${join(ctes.map((c) => sql`SELECT * FROM ${ident(c)}`), ' UNION ALL ')})`;
}

export function compileCheck(e: BoolExpIR, alias: string, st: MutationStatement): SQL {
  const ctx = st.ctx;
  switch (e.kind) {
    case 'and':
    case 'or':
      if (e.items.length === 0) return raw(e.kind === 'and' ? 'true' : 'false');
      return sql`(${join(e.items.map((i) => compileCheck(i, alias, st)), e.kind === 'and' ? ' AND ' : ' OR ')})`;
    case 'not':
      return sql`(NOT ${compileCheck(e.item, alias, st)})`;
    case 'relationship': {
      const a = ctx.alias(e.relationship.name);
      const cond = relationshipJoin(e.relationship, alias, a);
      return sql`EXISTS (SELECT 1 FROM ${rowsSource(st, e.relationship.remoteTable)} AS ${ident(a)} WHERE ${cond} AND ${compileCheck(e.where, a, st)})`;
    }
    case 'exists': {
      const a = ctx.alias(e.table.name);
      return sql`EXISTS (SELECT 1 FROM ${rowsSource(st, e.table)} AS ${ident(a)} WHERE ${compileCheck(e.where, a, st)})`;
    }
    default:
      return compileBoolExp(e, alias, ctx);
  }
}

/** `CASE WHEN <check> THEN true ELSE engine_catalog.check_violation('<message>') END` over `alias`. */
export function checkExpr(check: BoolExpIR, alias: string, message: string, st: MutationStatement): SQL {
  return sql`CASE WHEN ${compileCheck(check, alias, st)} THEN true ELSE engine_catalog.check_violation(${literal(message)}) END`;
}

/** An expression that aborts the statement with an engine error (code, message) when evaluated. */
export const raiseError = (code: string, message: string): SQL => sql`engine_catalog.raise_error(${literal(code)}, ${literal(message)})`;

/** The row CTE projected to the table's columns (dropping the check column of RETURNING). */
export const projectColumns = (columns: readonly string[], from: string): SQL =>
  sql`SELECT ${join(columns.map((c) => ident(c)), ', ')} FROM ${ident(from)}`;
