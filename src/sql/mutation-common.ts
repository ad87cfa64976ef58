// Shared pieces of mutation statements: the CTE collector, column value expressions, permission check expressions
// that abort the statement (engine_catalog.check_violation raises SQLSTATE 23514), and the engine error raiser.
import type { QualifiedName } from '../core/names.js';
import type { BoolExpIR, ValueIR } from '../ir/types.js';
import { ident, join, literal, param, raw, sql, type SQL } from './builder.js';
import type { CompileContext } from './context.js';
import { compileBoolExp, typedParam, typeName } from './boolexp.js';
import { slotOf } from './params.js';

/** The data-modifying and helper CTEs of one statement, and the row CTEs whose sizes sum to affected_rows. */
export class MutationStatement {
  readonly ctes: SQL[] = [];
  /** Row CTEs counted in affected_rows (every table touched, nested inserts included). */
  readonly counted: string[] = [];

  constructor(readonly ctx: CompileContext) {}

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

/** `CASE WHEN <check> THEN true ELSE engine_catalog.check_violation('<message>') END` over `alias`. */
export function checkExpr(check: BoolExpIR, alias: string, message: string, ctx: CompileContext): SQL {
  return sql`CASE WHEN ${compileBoolExp(check, alias, ctx)} THEN true ELSE engine_catalog.check_violation(${literal(message)}) END`;
}

/** An expression that aborts the statement with an engine error (code, message) when evaluated. */
export const raiseError = (code: string, message: string): SQL => sql`engine_catalog.raise_error(${literal(code)}, ${literal(message)})`;

/** The row CTE projected to the table's columns (dropping the check column of RETURNING). */
export const projectColumns = (columns: readonly string[], from: string): SQL =>
  sql`SELECT ${join(columns.map((c) => ident(c)), ', ')} FROM ${ident(from)}`;
