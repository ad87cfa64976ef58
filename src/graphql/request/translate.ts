// Selections of query_root → IR: select / by-pk / aggregate / function root fields, nested relationships,
// computed fields and aggregates. Permission filters and limits of the role are baked in here.
import { EngineError } from '../../core/errors.js';
import { extendPath } from '../../core/json-path.js';
import type { ColumnInfo } from '../../cache/types.js';
import type { PgFunctionArg } from '../../catalog/types.js';
import type {
  AggregateFieldIR, AggregateIR, AggregateOp, AggregateOpFieldIR, BoolExpIR, ComparisonOp, FieldIR, FunctionArgIR, OrderByIR,
  OrderByTarget, PgTypeRef, RootFieldIR, SelectArgsIR, SelectIR, SelectSource, SpatialValueIR, ValueIR,
} from '../../ir/types.js';
import type { GraphQLObjectType } from 'graphql';
import type { RoleSchema } from '../schema/build.js';
import type { ComputedView, FunctionView, TableView } from '../schema/context.js';
import type { RootFieldMeta } from '../schema/root.js';
import { isStringifiedType } from '../schema/scalars.js';
import { ORDER_BY_VALUES } from '../schema/types.js';
import { NUMERIC_OPS } from '../schema/names.js';
import { collectFields, fieldArgs, type CollectContext, type CollectedField } from './collect.js';
import { concrete, ve, type Parsed } from './input.js';
import { parseJsonPath } from './jsonpath.js';
import { andIR, permissionToIR } from './permission.js';

export interface Translator {
  rs: RoleSchema;
  cc: CollectContext;
  stringifyNumeric: boolean;
  perm: Map<string, BoolExpIR | null>;
}

const INT8: PgTypeRef = { type: 'int8', typeSchema: 'pg_catalog', array: false };
const BOOL: PgTypeRef = { type: 'bool', typeSchema: 'pg_catalog', array: false };

function permFilter(t: Translator, view: TableView): BoolExpIR | null {
  if (!t.perm.has(view.key)) {
    const f = view.access.filter === null ? null : permissionToIR(t.rs.ctx.cache, view.info, view.access.filter);
    t.perm.set(view.key, f && f.kind === 'true' ? null : f);
  }
  return t.perm.get(view.key) ?? null;
}

const objectType = (t: Translator, name: string): GraphQLObjectType => t.rs.schema.getType(name) as GraphQLObjectType;

// ---------------------------------------------------------------------------------------------------------------
// values

export const colPgType = (c: ColumnInfo, array = c.isArray): PgTypeRef => ({ type: c.type, typeSchema: c.typeSchema, array });

/** A leaf input as a ValueIR: variables stay variables; lists with variables inside are resolved. */
function valueIR(t: Translator, p: Parsed, pgType: PgTypeRef): ValueIR {
  if (p.kind === 'variable') return { kind: 'variable', name: p.name, path: [], pgType };
  const c = concrete(p, t.cc.lc);
  return { kind: 'literal', value: plain(t, c), pgType };
}

function plain(t: Translator, p: Parsed): unknown {
  const c = concrete(p, t.cc.lc);
  switch (c.kind) {
    case 'null': return null;
    case 'scalar': return c.value;
    case 'enum': return c.value;
    case 'list': return c.items.map((x) => plain(t, x));
    case 'object': return Object.fromEntries(c.fields.map(([k, v]) => [k, plain(t, v)]));
  }
}

const isNull = (p: Parsed | undefined): boolean => p === undefined || p.kind === 'null';

// ---------------------------------------------------------------------------------------------------------------
// where

const FLOAT8: PgTypeRef = { type: 'float8', typeSchema: 'pg_catalog', array: false };
const INT4: PgTypeRef = { type: 'int4', typeSchema: 'pg_catalog', array: false };

function fieldsOf(t: Translator, p: Parsed): Map<string, Parsed> {
  const o = concrete(p, t.cc.lc);
  return new Map(o.kind === 'object' ? o.fields : []);
}

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

// ---------------------------------------------------------------------------------------------------------------
// order_by

function direction(t: Translator, p: Parsed): { direction: 'asc' | 'desc'; nulls: 'first' | 'last' } | null {
  const c = concrete(p, t.cc.lc);
  if (c.kind !== 'enum') return null;
  const d = ORDER_BY_VALUES[String(c.value)];
  return d ? { direction: d.direction, nulls: d.nulls } : null;
}

function orderObject(t: Translator, view: TableView, p: Parsed): Array<{ target: OrderByTarget; dir: NonNullable<ReturnType<typeof direction>> }> {
  const obj = concrete(p, t.cc.lc);
  if (obj.kind !== 'object') return [];
  const out: Array<{ target: OrderByTarget; dir: NonNullable<ReturnType<typeof direction>> }> = [];
  for (const [k, v] of obj.fields) {
    const col = view.columnByField.get(k);
    if (col) {
      const dir = direction(t, v);
      if (dir) out.push({ target: { kind: 'column', column: col.name }, dir });
      continue;
    }
    const orel = view.objectRels.get(k);
    if (orel) {
      const filter = permFilter(t, orel.remote) ?? { kind: 'true' };
      for (const sub of orderObject(t, orel.remote, v)) {
        out.push({ target: { kind: 'object_relationship', relationship: orel.rel, filter, target: sub.target }, dir: sub.dir });
      }
      continue;
    }
    if (k.endsWith('_aggregate')) {
      const arel = view.arrayRels.get(k.slice(0, -'_aggregate'.length));
      if (!arel) continue;
      const filter = permFilter(t, arel.remote) ?? { kind: 'true' };
      const agg = concrete(v, t.cc.lc);
      if (agg.kind !== 'object') continue;
      for (const [op, ov] of agg.fields) {
        if (op === 'count') {
          const dir = direction(t, ov);
          if (dir) out.push({ target: { kind: 'array_aggregate', relationship: arel.rel, filter, op: 'count' }, dir });
          continue;
        }
        const cols = concrete(ov, t.cc.lc);
        if (cols.kind !== 'object') continue;
        for (const [cn, cv] of cols.fields) {
          const c = arel.remote.columnByField.get(cn);
          const dir = direction(t, cv);
          if (c && dir) {
            out.push({ target: { kind: 'array_aggregate', relationship: arel.rel, filter, op: op as AggregateOp, column: c.name }, dir });
          }
        }
      }
    }
  }
  return out;
}

function orderByIR(t: Translator, view: TableView, p: Parsed | undefined): OrderByIR[] {
  if (p === undefined) return [];
  const list = concrete(p, t.cc.lc);
  if (list.kind === 'null') return [];
  const items = list.kind === 'list' ? list.items : [list];
  return items.flatMap((it) => orderObject(t, view, it)).map(({ target, dir }) => ({ target, direction: dir.direction, nulls: dir.nulls }));
}

// ---------------------------------------------------------------------------------------------------------------
// select arguments

function limitIR(t: Translator, p: Parsed | undefined, path: string): ValueIR | null {
  if (p === undefined || p.kind === 'null') return null;
  const check = (v: Parsed): void => {
    if (v.kind !== 'scalar') return;
    if (typeof v.json !== 'number' || !Number.isInteger(v.json)) throw ve('expecting Integer value for "limit"', path);
    if (v.json < 0) throw new EngineError('not-supported', 'unexpected negative value', { path });
  };
  if (p.kind === 'variable') {
    check(p.value);
    // LIMIT NULL / OFFSET NULL mean no limit, so a null value needs no other plan
    return { kind: 'variable', name: p.name, path: [], pgType: INT8 };
  }
  check(p);
  return { kind: 'literal', value: (p as { value: unknown }).value, pgType: INT8 };
}

/** The original passes offset through as given (no integer check; Postgres rejects what it cannot use). */
function offsetIR(t: Translator, p: Parsed | undefined): ValueIR | null {
  if (p === undefined || p.kind === 'null') return null;
  return valueIR(t, p, INT8);
}

export function selectArgsIR(
  t: Translator, view: TableView, args: Map<string, Parsed>, fieldPath: string, extra: BoolExpIR | null = null,
): SelectArgsIR {
  const argPath = (n: string) => extendPath(fieldPath, 'args', n);
  const where = andIR([extra, whereIR(t, view, args.get('where'), argPath('where')), permFilter(t, view)]);
  const orderBy = orderByIR(t, view, args.get('order_by'));
  let distinctOn: string[] | null = null;
  const d = args.get('distinct_on');
  if (d !== undefined) {
    const dl = concrete(d, t.cc.lc);
    if (dl.kind === 'list') distinctOn = dl.items.map((x) => String(plain(t, x)));
    if (distinctOn && distinctOn.length > 0 && orderBy.length > 0) {
      const initial = orderBy.slice(0, distinctOn.length);
      const ok = initial.length === distinctOn.length
        && initial.every((o) => o.target.kind === 'column' && distinctOn!.includes(o.target.column));
      if (!ok) throw ve('"distinct_on" columns must match initial "order_by" columns', extendPath(fieldPath, 'args'));
    }
    if (distinctOn && distinctOn.length === 0) distinctOn = null;
  }
  return {
    where: where && where.kind === 'true' ? null : where,
    orderBy,
    limit: limitIR(t, args.get('limit'), argPath('limit')),
    permissionLimit: view.access.limit,
    offset: offsetIR(t, args.get('offset')),
    distinctOn,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// function arguments

/**
 * A function's arguments as the original passes them: positionally while every argument is known (the row, the
 * session) or given, then by name; an omitted argument needs a default, and only named ones can follow a gap.
 */
function functionArgs(
  t: Translator, pgArgs: readonly PgFunctionArg[], inputArgs: Array<[string, number]>, p: Parsed | undefined,
  special: { row?: number; session?: number | null }, path: string,
): FunctionArgIR[] {
  const given = new Map<string, Parsed>();
  if (p !== undefined) {
    const obj = concrete(p, t.cc.lc);
    if (obj.kind === 'object') for (const [k, v] of obj.fields) given.set(k, v);
  }
  const byIndex = new Map(inputArgs.map(([n, i]) => [i, n]));
  const out: FunctionArgIR[] = [];
  let positional = true;
  pgArgs.forEach((a, i) => {
    let item: FunctionArgIR | null = null;
    if (i === special.row) item = { kind: 'row', name: a.name };
    else if (i === special.session) item = { kind: 'value', name: a.name, value: { kind: 'session_object' } };
    else {
      const gname = byIndex.get(i);
      if (gname === undefined) return; // not an input argument (OUT, TABLE)
      const v = given.get(gname);
      if (v !== undefined) {
        item = { kind: 'value', name: a.name, value: valueIR(t, v, { type: a.type, typeSchema: a.typeSchema, array: false }) };
      } else if (!a.hasDefault) {
        throw new EngineError('not-supported', 'Non default arguments cannot be omitted', { path });
      }
    }
    if (item === null) {
      positional = false;
      return;
    }
    if (positional) out.push({ ...item, name: null });
    else if (item.name === null) throw new EngineError('not-supported', 'Only last set of positional arguments can be omitted', { path });
    else out.push(item);
  });
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// fields

function columnField(t: Translator, c: ColumnInfo, f: CollectedField): FieldIR {
  const field: FieldIR = {
    kind: 'column', column: c.name, type: c.type, isArray: c.isArray,
    stringify: t.stringifyNumeric && !c.isArray && isStringifiedType(c.type),
  };
  const args = fieldArgs(f, t.cc);
  const pathArg = args.get('path');
  if (pathArg !== undefined) {
    const v = concrete(pathArg, t.cc.lc);
    if (v.kind === 'scalar' && typeof v.value === 'string') field.jsonPath = parseJsonPath(v.value, extendPath(f.path, 'args', 'path'));
  }
  return field;
}

function computedFieldIR(t: Translator, cv: ComputedView, f: CollectedField): FieldIR {
  const args = fieldArgs(f, t.cc);
  const cf = cv.cf;
  const fargs = functionArgs(
    t, cf.pgFunction.args, cv.inputArgs, args.get('args'), { row: cf.tableArgIndex, session: cf.sessionArgIndex }, extendPath(f.path, 'args'),
  );
  if (cf.returns.kind === 'scalar') {
    return {
      kind: 'computed_scalar', function: cf.function, args: fargs, type: cf.returns.type,
      stringify: t.stringifyNumeric && isStringifiedType(cf.returns.type),
    };
  }
  const remote = cv.remote as TableView;
  const source: SelectSource = { kind: 'function', function: cf.function, args: fargs };
  return {
    kind: 'computed_table',
    set: cf.returns.set,
    select: { source, args: selectArgsIR(t, remote, args, f.path), fields: tableFields(t, remote, f) },
  };
}

export function tableFields(t: Translator, view: TableView, f: CollectedField): Array<[string, FieldIR]> {
  const out: Array<[string, FieldIR]> = [];
  for (const cf of collectFields(objectType(t, view.names.object), f.subSelections, t.cc)) {
    if (cf.name === '__typename') {
      out.push([cf.alias, { kind: 'typename', name: view.names.object }]);
      continue;
    }
    const hooked = t.rs.fieldHook?.(t, view, cf); // Relay schemas: `id`, `<rel>_connection`
    if (hooked) {
      out.push([cf.alias, hooked]);
      continue;
    }
    const col = view.columnByField.get(cf.name);
    if (col) {
      out.push([cf.alias, columnField(t, col, cf)]);
      continue;
    }
    const orel = view.objectRels.get(cf.name);
    if (orel) {
      fieldArgs(cf, t.cc);
      const where = permFilter(t, orel.remote);
      out.push([cf.alias, {
        kind: 'object_relationship',
        relationship: orel.rel,
        select: {
          source: { kind: 'table', table: orel.remote.info.name },
          args: { where, orderBy: [], limit: null, permissionLimit: null, offset: null, distinctOn: null },
          fields: tableFields(t, orel.remote, cf),
        },
      }]);
      continue;
    }
    const arel = view.arrayRels.get(cf.name);
    if (arel) {
      const args = fieldArgs(cf, t.cc);
      out.push([cf.alias, {
        kind: 'array_relationship',
        relationship: arel.rel,
        select: { source: { kind: 'table', table: arel.remote.info.name }, args: selectArgsIR(t, arel.remote, args, cf.path), fields: tableFields(t, arel.remote, cf) },
      }]);
      continue;
    }
    const cv = view.computed.get(cf.name);
    if (cv) {
      out.push([cf.alias, computedFieldIR(t, cv, cf)]);
      continue;
    }
    if (cf.name.endsWith('_aggregate')) {
      const ar = view.arrayRels.get(cf.name.slice(0, -'_aggregate'.length));
      if (ar) {
        const args = fieldArgs(cf, t.cc);
        out.push([cf.alias, {
          kind: 'array_aggregate',
          relationship: ar.rel,
          aggregate: aggregateIR(t, ar.remote, { kind: 'table', table: ar.remote.info.name }, selectArgsIR(t, ar.remote, args, cf.path), cf),
        }]);
        continue;
      }
    }
    throw ve(`field "${cf.name}" not found in type: '${view.names.object}'`, cf.path);
  }
  return out;
}

function aggregateOpFields(t: Translator, view: TableView, op: string, f: CollectedField): AggregateOpFieldIR {
  const tn = view.names.opFields(op);
  const fields: Array<[string, { kind: 'typename'; name: string } | { kind: 'column'; column: string; type: string }]> = [];
  for (const cf of collectFields(objectType(t, tn), f.subSelections, t.cc)) {
    if (cf.name === '__typename') {
      fields.push([cf.alias, { kind: 'typename', name: tn }]);
      continue;
    }
    const c = view.columnByField.get(cf.name) as ColumnInfo;
    fields.push([cf.alias, { kind: 'column', column: c.name, type: NUMERIC_OPS.has(op) && op !== 'sum' ? 'float8' : c.type }]);
  }
  return { kind: 'op', op: op as AggregateOp, fields };
}

export function aggregateIR(t: Translator, view: TableView, source: SelectSource, args: SelectArgsIR, f: CollectedField): AggregateIR {
  const fields: Array<[string, AggregateFieldIR]> = [];
  for (const cf of collectFields(objectType(t, view.names.aggregate), f.subSelections, t.cc)) {
    if (cf.name === '__typename') {
      fields.push([cf.alias, { kind: 'typename', name: view.names.aggregate }]);
    } else if (cf.name === 'nodes') {
      fields.push([cf.alias, { kind: 'nodes', fields: tableFields(t, view, cf) }]);
    } else {
      const inner: Array<[string, AggregateOpFieldIR]> = [];
      for (const af of collectFields(objectType(t, view.names.aggregateFields), cf.subSelections, t.cc)) {
        if (af.name === '__typename') {
          inner.push([af.alias, { kind: 'typename', name: view.names.aggregateFields }]);
        } else if (af.name === 'count') {
          const a = fieldArgs(af, t.cc);
          const cols = a.get('columns');
          const cl = cols === undefined ? null : concrete(cols, t.cc.lc);
          const columns = cl && cl.kind === 'list' ? cl.items.map((x) => String(plain(t, x))) : null;
          const dist = a.get('distinct');
          const dv = dist === undefined ? null : concrete(dist, t.cc.lc);
          const distinct = !!dv && dv.kind === 'scalar' && (dv.json === true || dv.value === 'true');
          inner.push([af.alias, { kind: 'count', columns, distinct }]);
        } else {
          inner.push([af.alias, aggregateOpFields(t, view, af.name, af)]);
        }
      }
      fields.push([cf.alias, { kind: 'aggregate', fields: inner }]);
    }
  }
  return { source, args, fields };
}

// ---------------------------------------------------------------------------------------------------------------
// root fields

export function functionSource(t: Translator, fn: FunctionView, args: Map<string, Parsed>, fieldPath: string): SelectSource {
  const pg = fn.info.pg;
  const sessionIdx = fn.info.sessionArgument === null ? null : pg.args.findIndex((a) => a.name === fn.info.sessionArgument);
  const path = extendPath(fieldPath, 'args', 'args');
  return { kind: 'function', function: fn.info.name, args: functionArgs(t, pg.args, fn.inputArgs, args.get('args'), { session: sessionIdx }, path) };
}

export function rootFieldIR(t: Translator, meta: RootFieldMeta, f: CollectedField): RootFieldIR {
  if (meta.kind === 'extension') return meta.translate(t, f);
  const args = fieldArgs(f, t.cc);
  switch (meta.kind) {
    case 'select': {
      const view = meta.view;
      const select: SelectIR = { source: { kind: 'table', table: view.info.name }, args: selectArgsIR(t, view, args, f.path), fields: tableFields(t, view, f) };
      return { kind: 'select', select };
    }
    case 'select_by_pk': {
      const view = meta.view;
      const pkWhere = andIR(meta.pk.map((c): BoolExpIR => ({
        kind: 'column', column: c.name, op: '_eq', value: valueIR(t, args.get(c.graphqlName) as Parsed, colPgType(c)),
      })));
      const where = andIR([pkWhere, permFilter(t, view)]);
      return {
        kind: 'select_one',
        select: {
          source: { kind: 'table', table: view.info.name },
          args: { where, orderBy: [], limit: null, permissionLimit: null, offset: null, distinctOn: null },
          fields: tableFields(t, view, f),
        },
      };
    }
    case 'aggregate': {
      const view = meta.view;
      return { kind: 'aggregate', aggregate: aggregateIR(t, view, { kind: 'table', table: view.info.name }, selectArgsIR(t, view, args, f.path), f) };
    }
    case 'function': {
      const view = meta.fn.returns;
      const select: SelectIR = { source: functionSource(t, meta.fn, args, f.path), args: selectArgsIR(t, view, args, f.path), fields: tableFields(t, view, f) };
      return { kind: 'select', select };
    }
    case 'function_aggregate': {
      const view = meta.fn.returns;
      return { kind: 'aggregate', aggregate: aggregateIR(t, view, functionSource(t, meta.fn, args, f.path), selectArgsIR(t, view, args, f.path), f) };
    }
  }
}

