// Select arguments (where AND permission filter, order_by, limit, offset, distinct_on) and function arguments.
import { EngineError } from '../../core/errors.js';
import { extendPath } from '../../core/json-path.js';
import type { PgFunctionArg } from '../../catalog/types.js';
import type { BoolExpIR, FunctionArgIR, SelectArgsIR, ValueIR } from '../../ir/types.js';
import type { TableView } from '../schema/context.js';
import { concrete, ve, type Parsed } from './input.js';
import { andIR } from '../../ir/permission.js';
import { orderByIR } from './orderby.js';
import { whereIR } from './where.js';
import { INT8, permFilter, plain, valueIR } from './values.js';
import type { Translator } from '../role-schema.js';

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
    return { kind: 'variable', name: p.name, path: p.path ?? [], pgType: INT8 };
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


/**
 * A function's arguments as the original passes them: positionally while every argument is known (the row, the
 * session) or given, then by name; an omitted argument needs a default, and only named ones can follow a gap.
 */
export function functionArgs(
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

