// Which columns of a select's rows the levels above its base subquery read, so the base can select just those
// instead of `*` (narrower rows through sorts and limits). null means the whole row is needed: a computed field
// takes the row itself as an argument, and a row of the table type has to keep every column in order.
import type { AggregateFieldIR, FieldIR, FunctionArgIR, OrderByIR } from '../ir/types.js';

const takesRow = (args: readonly FunctionArgIR[]): boolean => args.some((a) => a.kind === 'row');

/** Adds what a field reads from the row; false when it needs the whole row. */
function addField(f: FieldIR, out: Set<string>): boolean {
  switch (f.kind) {
    case 'typename':
      return true;
    case 'column':
      out.add(f.column);
      return true;
    case 'object_relationship':
    case 'array_relationship':
    case 'array_aggregate':
    case 'array_connection':
      for (const [local] of f.relationship.mapping) out.add(local);
      return true;
    case 'node_id':
      for (const c of f.columns) out.add(c.column);
      return true;
    case 'remote_join':
      for (const c of f.join.columns) out.add(c);
      return true;
    case 'computed_scalar':
      return !takesRow(f.args);
    case 'computed_table':
      return !(f.select.source.kind === 'function' && takesRow(f.select.source.args));
  }
}

function addOrderBy(items: readonly OrderByIR[], out: Set<string>): void {
  for (const o of items) {
    // Relationship targets are subqueries joined on the mapping; only its local columns belong to this row.
    if (o.target.kind === 'column') out.add(o.target.column);
    else for (const [local] of o.target.relationship.mapping) out.add(local);
  }
}

export function selectColumns(fields: ReadonlyArray<readonly [string, FieldIR]>, orderBy: readonly OrderByIR[]): string[] | null {
  const out = new Set<string>();
  for (const [, f] of fields) if (!addField(f, out)) return null;
  addOrderBy(orderBy, out);
  return out.size === 0 ? null : [...out];
}

export function aggregateColumns(fields: ReadonlyArray<readonly [string, AggregateFieldIR]>, orderBy: readonly OrderByIR[]): string[] | null {
  const out = new Set<string>();
  for (const [, f] of fields) {
    if (f.kind === 'nodes') {
      for (const [, n] of f.fields) if (!addField(n, out)) return null;
    } else if (f.kind === 'aggregate') {
      for (const [, op] of f.fields) {
        if (op.kind === 'count') for (const c of op.columns ?? []) out.add(c);
        else if (op.kind === 'op') for (const [, c] of op.fields) if (c.kind === 'column') out.add(c.column);
      }
    }
  }
  addOrderBy(orderBy, out);
  return out.size === 0 ? null : [...out];
}
