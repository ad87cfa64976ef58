// The user's `where` → BoolExpIR: comparisons per column type (PostGIS and `_cast` included), logical operators, and
// relationship conditions that carry the remote table's permission filter.
import { extendPath } from '../../core/json-path.js';
import type { ColumnInfo } from '../../cache/types.js';
import type { BoolExpIR, ComparisonOp, PgTypeRef, SpatialValueIR, ValueIR } from '../../ir/types.js';
import type { TableView } from '../schema/context.js';
import { concrete, type Parsed } from './input.js';
import { andIR } from '../../ir/permission.js';
import { BOOL, FLOAT8, INT4, colPgType, fieldsOf, isNull, permFilter, valueIR } from './values.js';
import type { Translator } from '../role-schema.js';

/** PostGIS operators whose right-hand side is an object (ST_DWithin, raster/geometry intersections). */
function spatialValue(t: Translator, op: string, v: Parsed, type: PgTypeRef): SpatialValueIR | null {
  if (op !== '_st_d_within' && op !== '_st_intersects_nband_geom' && op !== '_st_intersects_geom_nband') return null;
  const f = fieldsOf(t, v);
  const geometry: PgTypeRef = { type: 'geometry', typeSchema: type.typeSchema, array: false };
  const opt = (k: string, pg: PgTypeRef): ValueIR | null => {
    const x = f.get(k);
    return x === undefined || x.kind === 'null' ? null : valueIR(t, x, pg);
  };
  switch (op) {
    case '_st_d_within':
      return {
        kind: 'st_d_within',
        distance: valueIR(t, f.get('distance') as Parsed, FLOAT8),
        from: valueIR(t, f.get('from') as Parsed, { ...type, array: false }),
        useSpheroid: type.type === 'geography' ? (opt('use_spheroid', BOOL) ?? { kind: 'literal', value: true, pgType: BOOL }) : null,
      };
    case '_st_intersects_nband_geom':
      return { kind: 'st_intersects_nband_geom', nband: valueIR(t, f.get('nband') as Parsed, INT4), geommin: valueIR(t, f.get('geommin') as Parsed, geometry) };
    case '_st_intersects_geom_nband':
      return { kind: 'st_intersects_geom_nband', geommin: valueIR(t, f.get('geommin') as Parsed, geometry), nband: opt('nband', INT4) };
    default:
      return null;
  }
}

/** One column's comparison object; under `_cast` the column is compared as the cast type. */
function comparisonIR(t: Translator, c: ColumnInfo, p: Parsed, cast: PgTypeRef | null = null): BoolExpIR | null {
  const obj = concrete(p, t.cc.lc);
  if (obj.kind !== 'object') return null;
  const type = cast ?? colPgType(c);
  const castField = cast ? { cast } : {};
  const items: Array<BoolExpIR | null> = [];
  for (const [op, v] of obj.fields) {
    if (isNull(v)) continue;
    if (op === '_cast') {
      for (const [tname, sub] of fieldsOf(t, v)) {
        if (!isNull(sub)) items.push(comparisonIR(t, c, sub, { type: tname, typeSchema: c.typeSchema, array: false }));
      }
      continue;
    }
    if (op === '_is_null') {
      if (v.kind === 'variable') {
        items.push({ kind: 'column', column: c.name, op: '_is_null', value: valueIR(t, v, BOOL), ...castField });
        continue;
      }
      const yes = v.kind === 'scalar' && (v.json === true || v.value === 'true');
      items.push({ kind: 'column', column: c.name, op: '_is_null', value: { kind: 'literal', value: yes, pgType: BOOL }, ...castField });
      continue;
    }
    const sv = spatialValue(t, op, v, type);
    if (sv) {
      items.push({ kind: 'column', column: c.name, op: op as ComparisonOp, value: sv, ...castField });
      continue;
    }
    let pgType: PgTypeRef;
    switch (op) {
      case '_in': case '_nin': pgType = { ...type, array: true }; break;
      case '_has_key': pgType = { type: 'text', typeSchema: 'pg_catalog', array: false }; break;
      case '_has_keys_any': case '_has_keys_all': pgType = { type: 'text', typeSchema: 'pg_catalog', array: true }; break;
      case '_st_intersects_rast': pgType = { type: 'raster', typeSchema: type.typeSchema, array: false }; break;
      default: pgType = type;
    }
    items.push({ kind: 'column', column: c.name, op: op as ComparisonOp, value: valueIR(t, v, pgType), ...castField });
  }
  return andIR(items);
}

/** The user's `where` (null when absent or empty). Relationship conditions carry the remote table's filter. */
export function whereIR(t: Translator, view: TableView, p: Parsed | undefined, path: string): BoolExpIR | null {
  if (p === undefined) return null;
  const obj = concrete(p, t.cc.lc);
  if (obj.kind !== 'object') return null;
  const items: Array<BoolExpIR | null> = [];
  for (const [k, v] of obj.fields) {
    const kp = extendPath(path, k);
    if (k === '_and' || k === '_or') {
      const list = concrete(v, t.cc.lc);
      if (list.kind === 'null') continue;
      const subs = (list.kind === 'list' ? list.items : [list])
        .map((x, i) => whereIR(t, view, x, extendPath(kp, i)) ?? ({ kind: 'true' } as BoolExpIR));
      items.push({ kind: k === '_and' ? 'and' : 'or', items: subs });
    } else if (k === '_not') {
      const sub = whereIR(t, view, v, kp);
      if (sub) items.push({ kind: 'not', item: sub });
    } else {
      const col = view.columnByField.get(k);
      if (col) {
        items.push(comparisonIR(t, col, v));
        continue;
      }
      const rel = view.objectRels.get(k) ?? view.arrayRels.get(k);
      if (rel) {
        if (isNull(concrete(v, t.cc.lc))) continue;
        const sub = andIR([whereIR(t, rel.remote, v, kp), permFilter(t, rel.remote)]) ?? { kind: 'true' };
        items.push({ kind: 'relationship', relationship: rel.rel, where: sub });
      }
    }
  }
  const r = andIR(items);
  return r && r.kind === 'true' ? null : r;
}

