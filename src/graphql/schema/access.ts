// What a role may select on a table: the admin sees everything; other roles see what their select permission allows.
import type { BoolExpJson, TableInfo } from '../../cache/types.js';

export interface SelectAccess {
  admin: boolean;
  /** Postgres column names the role may select. */
  columns: ReadonlySet<string>;
  computedFields: ReadonlySet<string>;
  /** The permission filter; null for admin (no condition). */
  filter: BoolExpJson | null;
  limit: number | null;
  allowAggregations: boolean;
}

export function selectAccess(table: TableInfo, role: string): SelectAccess | null {
  if (role === 'admin') {
    return {
      admin: true,
      columns: new Set(table.columns.map((c) => c.name)),
      computedFields: new Set(Object.keys(table.computedFields)),
      filter: null,
      limit: null,
      allowAggregations: true,
    };
  }
  const p = table.permissions[role]?.select;
  if (!p) return null;
  return {
    admin: false,
    columns: new Set(p.columns),
    computedFields: new Set(p.computedFields),
    filter: p.filter,
    limit: p.limit,
    allowAggregations: p.allowAggregations,
  };
}
