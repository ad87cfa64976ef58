// The `where` of v1 DML queries → BoolExpIR. Operators in `$op` or `_op` spelling; values are literals (never session
// variables). Like the original, columns used must be selectable by the role, and conditions through relationships
// (and _exists) are ANDed with the remote table's select filter.
import { EngineError } from '../../core/errors.js';
import { formatPath, type PathSegment } from '../../core/json-path.js';
import { displayName, toQualifiedName, quote as q } from '../../core/names.js';
import type { ColumnInfo, TableInfo } from '../../cache/types.js';
import type { BoolExpIR, ComparisonOp, PgTypeRef, SpatialValueIR, ValueIR } from '../../ir/types.js';
import { andIR } from '../../ir/permission.js';
import { Dml, dmlError, type SelectAccess } from './context.js';
import { jsonKind } from '../../core/json-kind.js';

const ALIASES: Record<string, ComparisonOp> = { _ne: '_neq', _cne: '_cneq' };
const OPS = new Set<string>([
  '_eq', '_neq', '_gt', '_lt', '_gte', '_lte', '_in', '_nin', '_like', '_nlike', '_ilike', '_nilike', '_similar', '_nsimilar',
  '_is_null', '_contains', '_contained_in', '_has_key', '_has_keys_any', '_has_keys_all', '_ceq', '_cneq', '_cgt', '_clt', '_cgte', '_clte',
  '_st_contains', '_st_crosses', '_st_equals', '_st_intersects', '_st_overlaps', '_st_touches', '_st_within', '_st_d_within',
]);
const TEXT_OPS = new Set(['_like', '_nlike', '_ilike', '_nilike', '_similar', '_nsimilar']);
const JSONB_OPS = new Set(['_contains', '_contained_in', '_has_key', '_has_keys_any', '_has_keys_all']);
const TEXT_TYPES = new Set(['text', 'varchar', 'bpchar', 'citext', 'name']);

const TEXT: PgTypeRef = { type: 'text', typeSchema: 'pg_catalog', array: false };
const FLOAT8: PgTypeRef = { type: 'float8', typeSchema: 'pg_catalog', array: false };
const BOOL: PgTypeRef = { type: 'bool', typeSchema: 'pg_catalog', array: false };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const norm = (k: string): string => (k.startsWith('$') ? `_${k.slice(1)}` : k);

const parseFailed = (message: string, path: PathSegment[]): EngineError => new EngineError('parse-failed', message, { path: formatPath(['args', ...path]) });

const colType = (c: ColumnInfo): PgTypeRef => ({ type: c.type, typeSchema: c.typeSchema, array: c.isArray });
const literal = (value: unknown, pgType: PgTypeRef): ValueIR => ({ kind: 'literal', value, pgType });

/** Parses the user `where` of a table the role reads with `access`. */
export class WhereParser {
  /** Permission problems are reported after the whole expression parsed (the original checks an annotated tree). */
  private denied: EngineError | null = null;

  constructor(private readonly d: Dml, private readonly whereAt: PathSegment[]) {}

  parse(table: TableInfo, access: SelectAccess, exp: unknown): BoolExpIR | null {
    const ir = this.exp(table, access, exp, this.whereAt);
    if (this.denied) throw this.denied;
    return ir.kind === 'true' ? null : ir;
  }

  private deny(e: EngineError): void {
    this.denied ??= e;
  }

  private exp(table: TableInfo, access: SelectAccess, exp: unknown, path: PathSegment[]): BoolExpIR {
    if (!isObj(exp)) throw parseFailed(`expected Object, but encountered ${jsonKind(exp)}`, path);
    const items: Array<BoolExpIR | null> = [];
    for (const [key, v] of Object.entries(exp)) {
      const at = [...path, key];
      const k = norm(key);
      if (k === '_and' || k === '_or') {
        if (!Array.isArray(v)) throw parseFailed(`parsing [BoolExp] failed, expected Array, but encountered ${jsonKind(v)}`, at);
        const parts = v.map((x, i) => this.exp(table, access, x, [...at, i]));
        items.push(k === '_and' ? (andIR(parts) ?? { kind: 'true' }) : { kind: 'or', items: parts });
      } else if (k === '_not') {
        items.push({ kind: 'not', item: this.exp(table, access, v, at) });
      } else if (k === '_exists') {
        items.push(this.exists(v, at));
      } else items.push(this.field(table, access, key, v, at));
    }
    return andIR(items) ?? { kind: 'true' };
  }

  private exists(v: unknown, at: PathSegment[]): BoolExpIR {
    if (!isObj(v)) throw parseFailed(`expected Object, but encountered ${jsonKind(v)}`, at);
    if (v._table === undefined) throw parseFailed('key "_table" not found', at);
    if (v._where === undefined) throw parseFailed('key "_where" not found', at);
    const name = toQualifiedName(v._table as string | { schema?: string; name: string });
    const remote = this.d.tableByName(name);
    if (!remote) throw dmlError('not-exists', `table ${q(displayName(name))} does not exist`, ...at, '_table');
    const access = this.remoteAccess(remote, () => `role ${q(this.d.role)} does not have permission to read table ${q(displayName(name))}`);
    const where = this.exp(remote, access, v._where, [...at, '_where']);
    return { kind: 'exists', table: remote.name, where: andIR([where, access.filter]) ?? { kind: 'true' } };
  }

  /** The select access on a table reached through the expression; a denial is deferred, parsing continues. */
  private remoteAccess(remote: TableInfo, message: () => string): SelectAccess {
    const a = this.d.selectAccess(remote);
    if (a) return a;
    this.deny(dmlError('permission-denied', message(), ...this.whereAt));
    return { columns: new Set(remote.columns.map((c) => c.name)), filter: null, limit: null };
  }

  private field(table: TableInfo, access: SelectAccess, name: string, v: unknown, at: PathSegment[]): BoolExpIR {
    const col = table.columns.find((c) => c.name === name);
    if (col) {
      if (!access.columns.has(col.name)) this.deny(this.d.columnDenied('select', col.name, ...this.whereAt));
      return this.column(table, col, v, at);
    }
    const rel = table.relationships[name];
    if (rel) {
      const remote = this.d.tableByName(rel.remoteTable);
      if (!remote) throw dmlError('unexpected', `table ${q(displayName(rel.remoteTable))} does not exist`, ...at);
      const ra = this.remoteAccess(remote, () =>
        `role ${q(this.d.role)} does not have permission to read relationship ${q(rel.name)}; no permission on table ${q(displayName(remote.name))}`);
      const where = this.exp(remote, ra, v, at);
      return { kind: 'relationship', relationship: rel, where: andIR([where, ra.filter]) ?? { kind: 'true' } };
    }
    throw dmlError('not-exists', `${q(name)} does not exist`, ...at);
  }

  private column(table: TableInfo, c: ColumnInfo, spec: unknown, at: PathSegment[], cast: PgTypeRef | null = null): BoolExpIR {
    const type = cast ?? colType(c);
    const castField = cast ? { cast } : {};
    // Like the original, an object is always a set of operators (also for json columns).
    if (!isObj(spec)) return eq(c.name, spec, type, castField);
    const items: BoolExpIR[] = [];
    for (const [key, v] of Object.entries(spec)) {
      const opAt = [...at, key];
      const n = norm(key);
      if (n === '_cast') {
        items.push(...this.cast(table, c, type, v, opAt));
        continue;
      }
      const op = (ALIASES[n] ?? n) as ComparisonOp;
      if (!OPS.has(op)) throw dmlError('unexpected-payload', `Unknown operator : ${key}`, ...opAt);
      checkOperandType(c.name, type, op, opAt);
      items.push(this.comparison(table, c, type, op, v, opAt, castField));
    }
    return andIR(items) ?? { kind: 'true' };
  }

  private cast(table: TableInfo, c: ColumnInfo, from: PgTypeRef, v: unknown, at: PathSegment[]): BoolExpIR[] {
    if (!isObj(v)) throw parseFailed(`expected Object, but encountered ${jsonKind(v)}`, at);
    const out: BoolExpIR[] = [];
    for (const [target, sub] of Object.entries(v)) {
      const ok = (from.type === 'geometry' && target === 'geography') || (from.type === 'geography' && target === 'geometry');
      if (!ok) throw dmlError('unexpected-payload', `cannot cast column of type ${q(from.type)} to type ${q(target)}`, ...at);
      const to: PgTypeRef = { type: target, typeSchema: from.typeSchema, array: false };
      if (!isObj(sub)) throw parseFailed(`expected Object, but encountered ${jsonKind(sub)}`, [...at, target]);
      out.push(this.column(table, c, sub, [...at, target], to));
    }
    return out;
  }

  private comparison(
    table: TableInfo, c: ColumnInfo, type: PgTypeRef, op: ComparisonOp, v: unknown, at: PathSegment[], castField: { cast?: PgTypeRef },
  ): BoolExpIR {
    const base = { kind: 'column' as const, column: c.name, op, ...castField };
    switch (op) {
      case '_eq':
      case '_neq':
        return v === null ? eq(c.name, null, type, castField, op === '_neq') : { ...base, value: literal(v, type) };
      case '_in':
      case '_nin':
        if (!Array.isArray(v)) throw parseFailed(`parsing [Value] failed, expected Array, but encountered ${jsonKind(v)}`, at);
        return { ...base, value: literal(v, { ...type, array: true }) };
      case '_is_null':
        if (typeof v !== 'boolean') throw parseFailed(`parsing Bool failed, expected Boolean, but encountered ${jsonKind(v)}`, at);
        return { ...base, value: literal(v, BOOL) };
      case '_has_key':
        return { ...base, value: literal(v, TEXT) };
      case '_has_keys_any':
      case '_has_keys_all':
        if (!Array.isArray(v)) throw parseFailed(`parsing [Text] failed, expected Array, but encountered ${jsonKind(v)}`, at);
        return { ...base, value: literal(v, { ...TEXT, array: true }) };
      case '_ceq': case '_cneq': case '_cgt': case '_clt': case '_cgte': case '_clte': {
        if (typeof v !== 'string') throw dmlError('unexpected-payload', 'expecting a string for column operator', ...at);
        const rhs = table.columns.find((x) => x.name === v);
        if (!rhs) throw dmlError('not-exists', `column ${q(v)} does not exist`, ...at);
        if (rhs.type !== c.type || rhs.isArray !== c.isArray) {
          throw dmlError('unexpected-payload', `incompatible column types : ${q(c.name)}, ${q(rhs.name)}`, ...at);
        }
        return { ...base, value: { kind: 'column', column: rhs.name } };
      }
      case '_st_d_within':
        return { ...base, value: dWithin(v, type, at) };
      default:
        return { ...base, value: literal(v, type) };
    }
  }
}

/** Equality with null meaning IS NULL (the original compares `col = v OR (col IS NULL AND v IS NULL)`). */
function eq(column: string, v: unknown, type: PgTypeRef, castField: { cast?: PgTypeRef }, negate = false): BoolExpIR {
  if (v === null || v === undefined) return { kind: 'column', column, op: '_is_null', value: literal(!negate, BOOL), ...castField };
  return { kind: 'column', column, op: negate ? '_neq' : '_eq', value: literal(v, type), ...castField };
}

function dWithin(v: unknown, type: PgTypeRef, at: PathSegment[]): SpatialValueIR {
  if (!isObj(v)) throw parseFailed(`expected Object, but encountered ${jsonKind(v)}`, at);
  if (v.distance === undefined) throw parseFailed('key "distance" not found', at);
  if (v.from === undefined) throw parseFailed('key "from" not found', at);
  const geography = type.type === 'geography';
  const sph = v.use_spheroid === undefined || v.use_spheroid === null ? true : v.use_spheroid;
  return {
    kind: 'st_d_within',
    distance: literal(v.distance, FLOAT8),
    from: literal(v.from, { type: type.type, typeSchema: type.typeSchema, array: false }),
    useSpheroid: geography ? literal(sph, BOOL) : null,
  };
}

function checkOperandType(column: string, type: PgTypeRef, op: string, at: PathSegment[]): void {
  const t = type.array ? `${type.type}[]` : type.type;
  const fail = (allowed: string[]): never => {
    throw dmlError('unexpected-payload', `${q(column)} is of type ${t}; this operator works only on columns of type ${allowed.map(q).join('/')}`, ...at);
  };
  if (TEXT_OPS.has(op) && (type.array || !TEXT_TYPES.has(type.type))) fail(['varchar', 'text']);
  if (JSONB_OPS.has(op) && (type.array || type.type !== 'jsonb')) fail(['jsonb']);
  if (op.startsWith('_st_') && (type.array || (type.type !== 'geometry' && type.type !== 'geography'))) fail(['geometry', 'geography']);
}
