// `order_by` → OrderByIR: columns, object relationships (with the remote permission filter) and array-relationship
// aggregates, in the order given.
import type { AggregateOp, OrderByIR, OrderByTarget } from '../../ir/types.js';
import type { TableView } from '../schema/context.js';
import { ORDER_BY_VALUES } from '../schema/types.js';
import { concrete, type Parsed } from './input.js';
import { permFilter } from './values.js';
import type { Translator } from '../role-schema.js';

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

export function orderByIR(t: Translator, view: TableView, p: Parsed | undefined): OrderByIR[] {
  if (p === undefined) return [];
  const list = concrete(p, t.cc.lc);
  if (list.kind === 'null') return [];
  const items = list.kind === 'list' ? list.items : [list];
  return items.flatMap((it) => orderObject(t, view, it)).map(({ target, dir }) => ({ target, direction: dir.direction, nulls: dir.nulls }));
}

