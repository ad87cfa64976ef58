// What every v1 DML operation (select/count/insert/update/delete on /v1/query) works with: the schema cache, the
// caller's role and session, table and permission look-ups worded as the original, and running one statement.
import type pg from 'pg';
import { EngineError } from '../../core/errors.js';
import { JsonText } from '../../core/json-text.js';
import { formatPath, type PathSegment } from '../../core/json-path.js';
import { displayName, qualifiedKey, quote as q, type QualifiedName } from '../../core/names.js';
import type { SchemaCache, TableInfo } from '../../cache/types.js';
import type { BoolExpIR, FieldIR, ValueIR } from '../../ir/types.js';
import { compile, sql, type SQL } from '../../sql/builder.js';
import { resolveParams } from '../../sql/params.js';
import { permissionToIR } from '../../ir/permission.js';
import { isStringifiedType } from '../../ir/types.js';
import { mapExecutionError } from '../../core/pg-errors.js';
import type { EngineState } from '../../cache/state.js';
import { systemTable } from '../../triggers/system-tables.js';
import { scheduledSystemTable } from '../../scheduled/system-tables.js';

export const ADMIN = 'admin';

/** What a DML operation runs with: the request's transaction, the state, and the caller. */
export interface DmlContext {
  client: pg.ClientBase;
  state: EngineState;
  role: string;
  /** The caller's session (role and x-engine-* variables), when the request has one (DML runs as that role). */
  session?: { role: string; variables: Record<string, string> };
  /** The server's stringify-numeric-types setting (select output). */
  stringifyNumeric?: boolean;
}

/** A role's select access to one table (admin: every column, no filter). */
export interface SelectAccess {
  columns: Set<string>;
  filter: BoolExpIR | null;
  limit: number | null;
}

export type PermKind = 'select' | 'insert' | 'update' | 'delete';

/** Errors of DML operations are reported under `$.args` (the operation's args), as the original's. */
export const argsPath = (...segments: PathSegment[]): string => formatPath(['args', ...segments]);

export const dmlError = (code: ConstructorParameters<typeof EngineError>[0], message: string, ...segments: PathSegment[]): EngineError =>
  new EngineError(code, message, { path: argsPath(...segments) });


export class Dml {
  readonly cache: SchemaCache;
  readonly role: string;
  readonly admin: boolean;
  readonly sessionVariables: Record<string, string>;
  readonly stringifyNumeric: boolean;
  private readonly client: pg.ClientBase;
  private readonly selectMemo = new Map<string, SelectAccess | null>();

  constructor(ctx: DmlContext) {
    this.cache = ctx.state.cache;
    this.role = ctx.session?.role ?? ctx.role;
    this.admin = this.role === ADMIN;
    this.sessionVariables = { ...(ctx.session?.variables ?? {}), 'x-engine-role': this.role };
    this.stringifyNumeric = ctx.stringifyNumeric ?? false;
    this.client = ctx.client;
  }

  /** The tracked table, or not-exists at `$.args.table`. */
  table(name: QualifiedName, path: PathSegment[] = ['table']): TableInfo {
    // The admin also reads the event-trigger tables of engine_catalog, as users of the original read hdb_catalog's.
    const t = this.cache.tables[qualifiedKey(name)] ?? (this.admin ? systemTable(name) ?? scheduledSystemTable(name) : undefined);
    if (!t) throw dmlError('not-exists', `table ${q(displayName(name))} does not exist`, ...path);
    return t;
  }

  tableByName(name: QualifiedName): TableInfo | undefined {
    return this.cache.tables[qualifiedKey(name)];
  }

  /** The message of a missing permission ("select on "t" for role "r" is not allowed. "). */
  notAllowed(kind: PermKind, table: TableInfo): string {
    return `${kind} on ${q(displayName(table.name))} for role ${q(this.role)} is not allowed. `;
  }

  selectAccess(table: TableInfo): SelectAccess | null {
    const key = qualifiedKey(table.name);
    if (!this.selectMemo.has(key)) {
      let access: SelectAccess | null = null;
      if (this.admin) access = { columns: new Set(table.columns.map((c) => c.name)), filter: null, limit: null };
      else {
        const p = table.permissions[this.role]?.select;
        if (p) access = { columns: new Set(p.columns), filter: this.permission(table, p.filter), limit: p.limit };
      }
      this.selectMemo.set(key, access);
    }
    return this.selectMemo.get(key) ?? null;
  }

  /** Select access or permission-denied at `$.args` (with an optional suffix explaining why it is needed). */
  requireSelect(table: TableInfo, suffix = ''): SelectAccess {
    const a = this.selectAccess(table);
    if (!a) throw dmlError('permission-denied', this.notAllowed('select', table) + suffix);
    return a;
  }

  /** A permission expression as IR; null when always true. */
  permission(table: TableInfo, exp: Record<string, unknown> | null | undefined): BoolExpIR | null {
    if (!exp) return null;
    const ir = permissionToIR(this.cache, table, exp);
    return ir.kind === 'true' ? null : ir;
  }

  /** The column-permission error: admin reads "no such column exists", other roles a denial naming the operation. */
  columnDenied(kind: PermKind, column: string, ...path: PathSegment[]): EngineError {
    return dmlError(
      'permission-denied',
      this.admin ? `no such column exists : ${q(column)}` : `role ${q(this.role)} does not have permission to ${kind} column ${q(column)}`,
      ...path,
    );
  }

  /** A column output field (numeric types stringified when the server says so). */
  columnField(table: TableInfo, column: string): FieldIR {
    const c = table.columns.find((x) => x.name === column)!;
    return { kind: 'column', column: c.name, type: c.type, isArray: c.isArray, stringify: this.stringifyNumeric && !c.isArray && isStringifiedType(c.type) };
  }

  /** Session variables the statement needs must have been sent (the original checks a permission's headers first). */
  checkSessionVariables(values: Iterable<ValueIR>): void {
    for (const v of values) {
      if (v.kind === 'session' && this.sessionVariables[v.name.toLowerCase()] === undefined) {
        throw dmlError('not-found', `${q(v.name.toLowerCase())} header is expected but not found`);
      }
    }
  }

  /** Runs a query returning one row with one json column; answers its text as it is (`null` for no row). */
  async json(query: SQL): Promise<JsonText> {
    return this.runCompiled(compile(sql`SELECT (${query})::text`));
  }

  /** The same, parsed (for an answer built in Node). */
  async jsonValue(query: SQL): Promise<unknown> {
    return JSON.parse((await this.json(query)).text);
  }

  /** Runs a complete statement whose single row has one text column of JSON; answers that text as it is. */
  async statementJson(statement: SQL): Promise<JsonText> {
    return this.runCompiled(compile(statement));
  }

  private async runCompiled(c: ReturnType<typeof compile>): Promise<JsonText> {
    const values = resolveParams(c.slots, { variables: {}, sessionVariables: this.sessionVariables });
    let res: pg.QueryArrayResult;
    try {
      res = await this.client.query({ text: c.text, values, rowMode: 'array' });
    } catch (e) {
      throw mapExecutionError(e, { text: c.text, values });
    }
    const cell = res.rows[0]?.[0];
    return new JsonText(typeof cell === 'string' ? cell : 'null');
  }
}

/** Every ValueIR inside a boolean expression (to check the session variables it needs). */
export function* boolExpValues(e: BoolExpIR | null): Generator<ValueIR> {
  if (!e) return;
  switch (e.kind) {
    case 'true':
      return;
    case 'and':
    case 'or':
      for (const i of e.items) yield* boolExpValues(i);
      return;
    case 'not':
      yield* boolExpValues(e.item);
      return;
    case 'relationship':
    case 'exists':
      yield* boolExpValues(e.where);
      return;
    case 'column': {
      const v = e.value;
      switch (v.kind) {
        case 'column': return;
        case 'st_d_within':
          yield v.distance;
          yield v.from;
          if (v.useSpheroid) yield v.useSpheroid;
          return;
        case 'st_intersects_nband_geom':
          yield v.nband;
          yield v.geommin;
          return;
        case 'st_intersects_geom_nband':
          yield v.geommin;
          if (v.nband) yield v.nband;
          return;
        default:
          yield v;
      }
    }
  }
}
