// BoolExpIR → an SQL condition over a row alias. Relationship and _exists conditions become EXISTS subqueries.
import type { BoolExpIR, ComparisonOp, PgTypeRef, SpatialValueIR, ValueIR } from '../ir/types.js';
import type { RelationshipInfo } from '../cache/types.js';
import { ident, join, param, raw, sql, type SQL } from './builder.js';
import type { CompileContext } from './context.js';
import { slotOf } from './params.js';

/** `$n::type` (a user enum or other type outside pg_catalog is schema-qualified). */
export function typedParam(v: ValueIR): SQL {
  const p = param(slotOf(v));
  if (v.kind === 'session_object') return sql`${p}::json`;
  // PostGIS values arrive as GeoJSON (the types' own input syntax is WKT/WKB).
  if (!v.pgType.array && v.pgType.type === 'geometry') return sql`ST_GeomFromGeoJSON(${p}::text)`;
  if (!v.pgType.array && v.pgType.type === 'geography') return sql`ST_GeomFromGeoJSON(${p}::text)::geography`;
  return sql`${p}::${typeName(v.pgType)}`;
}

export function typeName(t: PgTypeRef): SQL {
  const base = t.typeSchema === 'pg_catalog' || t.typeSchema === '' ? ident(t.type) : ident(t.typeSchema, t.type);
  return t.array ? sql`${base}[]` : base;
}

const BINARY: Partial<Record<ComparisonOp, string>> = {
  _eq: '=', _neq: '<>', _gt: '>', _lt: '<', _gte: '>=', _lte: '<=',
  _like: 'LIKE', _nlike: 'NOT LIKE', _ilike: 'ILIKE', _nilike: 'NOT ILIKE', _similar: 'SIMILAR TO', _nsimilar: 'NOT SIMILAR TO',
  _contains: '@>', _contained_in: '<@', _has_key: '?', _has_keys_any: '?|', _has_keys_all: '?&',
  _ceq: '=', _cneq: '<>', _cgt: '>', _clt: '<', _cgte: '>=', _clte: '<=',
};

/** Join condition of a relationship: remote.col = local.col for each mapping pair. */
export function relationshipJoin(rel: RelationshipInfo, localAlias: string, remoteAlias: string): SQL {
  if (rel.mapping.length === 0) return raw('true');
  return join(rel.mapping.map(([l, r]) => sql`${ident(remoteAlias, r)} = ${ident(localAlias, l)}`), ' AND ');
}

export function compileBoolExp(e: BoolExpIR, alias: string, ctx: CompileContext): SQL {
  switch (e.kind) {
    case 'true':
      return raw('true');
    case 'and':
      if (e.items.length === 0) return raw('true');
      if (e.items.length === 1) return compileBoolExp(e.items[0], alias, ctx);
      return sql`(${join(e.items.map((i) => compileBoolExp(i, alias, ctx)), ' AND ')})`;
    case 'or':
      if (e.items.length === 0) return raw('false');
      if (e.items.length === 1) return compileBoolExp(e.items[0], alias, ctx);
      return sql`(${join(e.items.map((i) => compileBoolExp(i, alias, ctx)), ' OR ')})`;
    case 'not':
      return sql`(NOT ${compileBoolExp(e.item, alias, ctx)})`;
    case 'column': {
      const col = e.cast ? sql`${ident(alias, e.column)}::${typeName(e.cast)}` : ident(alias, e.column);
      return compileComparison(col, e.op, e.value, alias);
    }
    case 'relationship': {
      const a = ctx.alias(e.relationship.name);
      const t = e.relationship.remoteTable;
      const cond = relationshipJoin(e.relationship, alias, a);
      return sql`EXISTS (SELECT 1 FROM ${ident(t.schema, t.name)} AS ${ident(a)} WHERE ${cond} AND ${compileBoolExp(e.where, a, ctx)})`;
    }
    case 'exists': {
      const a = ctx.alias(e.table.name);
      return sql`EXISTS (SELECT 1 FROM ${ident(e.table.schema, e.table.name)} AS ${ident(a)} WHERE ${compileBoolExp(e.where, a, ctx)})`;
    }
  }
}

const SPATIAL: Partial<Record<ComparisonOp, string>> = {
  _st_contains: 'ST_Contains', _st_crosses: 'ST_Crosses', _st_equals: 'ST_Equals', _st_intersects: 'ST_Intersects',
  _st_overlaps: 'ST_Overlaps', _st_touches: 'ST_Touches', _st_within: 'ST_Within', _st_intersects_rast: 'ST_Intersects',
};

const nullOr = (v: ValueIR | null): SQL => (v === null ? raw('NULL') : typedParam(v));

function spatial(col: SQL, v: SpatialValueIR): SQL {
  switch (v.kind) {
    case 'st_d_within':
      return v.useSpheroid === null
        ? sql`ST_DWithin(${col}, ${typedParam(v.from)}, ${typedParam(v.distance)})`
        : sql`ST_DWithin(${col}, ${typedParam(v.from)}, ${typedParam(v.distance)}, ${typedParam(v.useSpheroid)})`;
    case 'st_intersects_nband_geom':
      return sql`ST_Intersects(${col}, ${typedParam(v.nband)}, ${typedParam(v.geommin)})`;
    case 'st_intersects_geom_nband':
      return sql`ST_Intersects(${col}, ${typedParam(v.geommin)}, ${nullOr(v.nband)})`;
  }
}

const isSpatialValue = (v: { kind: string }): v is SpatialValueIR => v.kind.startsWith('st_');

function compileComparison(col: SQL, op: ComparisonOp, v: ValueIR | { kind: 'column'; column: string } | SpatialValueIR, alias: string): SQL {
  if (isSpatialValue(v)) return spatial(col, v);
  if (v.kind === 'column') return sql`(${col} ${raw(BINARY[op] ?? '=')} ${ident(alias, v.column)})`;
  const fn = SPATIAL[op];
  if (fn !== undefined) return sql`${raw(fn)}(${col}, ${typedParam(v)})`;
  switch (op) {
    case '_is_null':
      if (v.kind === 'literal') return v.value === true ? sql`(${col} IS NULL)` : v.value === false ? sql`(${col} IS NOT NULL)` : raw('true');
      return sql`((${col} IS NULL) = ${typedParam(v)})`;
    case '_in':
      return sql`(${col} = ANY(${typedParam(v)}))`;
    case '_nin':
      return sql`(${col} <> ALL(${typedParam(v)}))`;
    default: {
      const o = BINARY[op];
      if (o === undefined) throw new Error(`unknown comparison operator ${op}`);
      return sql`(${col} ${raw(o)} ${typedParam(v)})`;
    }
  }
}
