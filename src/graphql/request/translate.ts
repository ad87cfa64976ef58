// Selections of query_root → IR: select / by-pk / aggregate / function root fields, nested relationships,
// computed fields and aggregates. Permission filters and limits of the role are baked in here.
import { extendPath } from '../../core/json-path.js';
import type { ColumnInfo } from '../../cache/types.js';
import type { AggregateFieldIR, AggregateIR, AggregateOp, AggregateOpFieldIR, BoolExpIR, FieldIR, SelectArgsIR, SelectIR, SelectSource } from '../../ir/types.js';
import type { RootFieldIR } from '../../ir/operation.js';
import type { RootFieldMeta, Translator } from '../role-schema.js';
import type { ComputedView, FunctionView, TableView } from '../schema/context.js';
import { isStringifiedType } from '../schema/scalars.js';
import { NUMERIC_OPS } from '../schema/names.js';
import { collectFields, fieldArgs, type CollectedField } from './collect.js';
import { concrete, ve, type Parsed } from './input.js';
import { parseJsonPath } from './jsonpath.js';
import { andIR } from '../../ir/permission.js';
import { functionArgs, selectArgsIR } from './args.js';
import { colPgType, objectType, permFilter, plain, valueIR } from './values.js';

// The modules other features build on import these from here.
export { colPgType, selectArgsIR };
export { whereIR } from './where.js';

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

