// Permission boolean expressions (metadata JSON, Postgres column names, `$op` or `_op` spellings, session variables
// as `X-Engine-*` strings) → BoolExpIR. Computed once per table and role, reused by every request.
import { qualifiedKey, toQualifiedName } from '../core/names.js';
import type { BoolExpJson, ColumnInfo, SchemaCache, TableInfo } from '../cache/types.js';
import type { BoolExpIR, ComparisonOp, PgTypeRef, SpatialValueIR, ValueIR } from './types.js';

const OPS = new Set<string>([
  '_eq', '_neq', '_gt', '_lt', '_gte', '_lte', '_in', '_nin', '_like', '_nlike', '_ilike', '_nilike', '_similar', '_nsimilar',
  '_is_null', '_contains', '_contained_in', '_has_key', '_has_keys_any', '_has_keys_all', '_ceq', '_cneq', '_cgt', '_clt', '_cgte', '_clte',
  '_st_contains', '_st_crosses', '_st_equals', '_st_intersects', '_st_overlaps', '_st_touches', '_st_within', '_st_d_within',
  '_st_intersects_rast', '_st_intersects_nband_geom', '_st_intersects_geom_nband',
]);
const ALIASES: Record<string, string> = { _ne: '_neq', _cne: '_cneq' };

const norm = (k: string): string => {
  const n = k.startsWith('$') ? `_${k.slice(1)}` : k;
  return ALIASES[n] ?? n;
};

const isSessionVar = (v: unknown): v is string => typeof v === 'string' && /^x-engine-/i.test(v);

export const andIR = (items: Array<BoolExpIR | null>): BoolExpIR | null => {
  const xs = items.filter((x): x is BoolExpIR => x !== null && x.kind !== 'true');
  if (xs.length === 0) return items.some((x) => x !== null) ? { kind: 'true' } : null;
  return xs.length === 1 ? xs[0] : { kind: 'and', items: xs };
};

const colType = (c: ColumnInfo, array = c.isArray): PgTypeRef => ({ type: c.type, typeSchema: c.typeSchema, array });
const TEXT: PgTypeRef = { type: 'text', typeSchema: 'pg_catalog', array: false };

/** Literal values travel as Postgres text (json/jsonb keep their JSON value); arrays element-wise. */
function pgText(v: unknown, json: boolean): unknown {
  if (v === null || v === undefined) return null;
  if (json) return v;
  if (Array.isArray(v)) return v.map((x) => pgText(x, false));
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function literalOrSession(v: unknown, pgType: PgTypeRef): ValueIR {
  if (isSessionVar(v)) return { kind: 'session', name: v.toLowerCase(), pgType };
  return { kind: 'literal', value: pgText(v, pgType.type === 'json' || pgType.type === 'jsonb'), pgType };
}

function opValueType(op: string, c: ColumnInfo, type: PgTypeRef): PgTypeRef {
  switch (op) {
    case '_in': case '_nin': return { ...type, array: true };
    case '_st_intersects_rast': return { type: 'raster', typeSchema: c.typeSchema, array: false };
    case '_has_key': return TEXT;
    case '_has_keys_any': case '_has_keys_all': return { ...TEXT, array: true };
    case '_is_null': return { type: 'bool', typeSchema: 'pg_catalog', array: false };
    default: return type;
  }
}

const FLOAT8: PgTypeRef = { type: 'float8', typeSchema: 'pg_catalog', array: false };
const INT4: PgTypeRef = { type: 'int4', typeSchema: 'pg_catalog', array: false };
const BOOL: PgTypeRef = { type: 'bool', typeSchema: 'pg_catalog', array: false };

function spatialValue(op: string, v: unknown, type: PgTypeRef): SpatialValueIR | null {
  const o = (v ?? {}) as Record<string, unknown>;
  const geometry: PgTypeRef = { type: 'geometry', typeSchema: type.typeSchema, array: false };
  const opt = (k: string, t: PgTypeRef): ValueIR | null => (o[k] === undefined || o[k] === null ? null : literalOrSession(o[k], t));
  switch (op) {
    case '_st_d_within':
      return {
        kind: 'st_d_within', distance: literalOrSession(o.distance, FLOAT8), from: literalOrSession(o.from, type),
        useSpheroid: type.type === 'geography' ? (opt('use_spheroid', BOOL) ?? { kind: 'literal', value: true, pgType: BOOL }) : null,
      };
    case '_st_intersects_nband_geom':
      return { kind: 'st_intersects_nband_geom', nband: literalOrSession(o.nband, INT4), geommin: literalOrSession(o.geommin, geometry) };
    case '_st_intersects_geom_nband':
      return { kind: 'st_intersects_geom_nband', geommin: literalOrSession(o.geommin, geometry), nband: opt('nband', INT4) };
    default:
      return null;
  }
}

function columnExp(c: ColumnInfo, spec: unknown, cast: PgTypeRef | null = null): BoolExpIR | null {
  const type = cast ?? colType(c);
  const castField = cast ? { cast } : {};
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
    return { kind: 'column', column: c.name, op: '_eq', value: literalOrSession(spec, type), ...castField };
  }
  const items: BoolExpIR[] = [];
  for (const [k, v] of Object.entries(spec as Record<string, unknown>)) {
    const op = norm(k);
    if (op === '_cast') {
      for (const [tname, sub] of Object.entries((v ?? {}) as Record<string, unknown>)) {
        const e = columnExp(c, sub, { type: tname, typeSchema: c.typeSchema, array: false });
        if (e) items.push(e);
      }
      continue;
    }
    const sv = spatialValue(op, v, type);
    if (sv) {
      items.push({ kind: 'column', column: c.name, op: op as ComparisonOp, value: sv, ...castField });
      continue;
    }
    if (!OPS.has(op)) continue; // operators this engine does not support (PostGIS) are inconsistent metadata
    if (op.startsWith('_c')) {
      items.push({ kind: 'column', column: c.name, op: op as ComparisonOp, value: { kind: 'column', column: String(v) } });
      continue;
    }
    items.push({ kind: 'column', column: c.name, op: op as ComparisonOp, value: literalOrSession(v, opValueType(op, c, type)), ...castField });
  }
  return andIR(items) ?? { kind: 'true' };
}

export function permissionToIR(cache: SchemaCache, table: TableInfo, exp: BoolExpJson): BoolExpIR {
  const items: BoolExpIR[] = [];
  for (const [rawKey, v] of Object.entries(exp)) {
    const key = norm(rawKey);
    if (key === '_and' || key === '_or') {
      const list = Array.isArray(v) ? v : [v];
      items.push({ kind: key === '_and' ? 'and' : 'or', items: list.map((x) => permissionToIR(cache, table, (x ?? {}) as BoolExpJson)) });
    } else if (key === '_not') {
      items.push({ kind: 'not', item: permissionToIR(cache, table, (v ?? {}) as BoolExpJson) });
    } else if (key === '_exists') {
      const spec = (v ?? {}) as { _table?: unknown; _where?: BoolExpJson };
      const q = toQualifiedName(spec._table as string);
      const remote = cache.tables[qualifiedKey(q)];
      if (!remote) continue;
      items.push({ kind: 'exists', table: q, where: permissionToIR(cache, remote, spec._where ?? {}) });
    } else {
      const col = table.columns.find((c) => c.name === rawKey);
      if (col) {
        const e = columnExp(col, v);
        if (e) items.push(e);
        continue;
      }
      const rel = Object.prototype.hasOwnProperty.call(table.relationships, rawKey) ? table.relationships[rawKey] : undefined;
      if (rel) {
        const remote = cache.tables[qualifiedKey(rel.remoteTable)];
        if (!remote) continue;
        items.push({ kind: 'relationship', relationship: rel, where: permissionToIR(cache, remote, (v ?? {}) as BoolExpJson) });
      }
    }
  }
  return andIR(items) ?? { kind: 'true' };
}

// Column presets (insert/update permissions' `set`): a session variable or a literal, typed as the column.
export const pgTypeOf = (c: ColumnInfo): PgTypeRef => ({ type: c.type, typeSchema: c.typeSchema, array: c.isArray });

export function presetValue(v: unknown, c: ColumnInfo): ValueIR {
  const pgType = pgTypeOf(c);
  if (isSessionVar(v)) return { kind: 'session', name: v.toLowerCase(), pgType };
  const json = c.type === 'json' || c.type === 'jsonb';
  const text = v === null || v === undefined ? null : json || typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return { kind: 'literal', value: text, pgType };
}
