// decide cannot import the projections (layering), but a multi-rename decision must see its own earlier renames:
// this applies just the events a rename emits (column_renamed is reflected in permissions via permission_updated).
import { qualifiedKey } from '../../src/core/names.js';
import { permKey, type Event, type Metadata } from '../types.js';

export function applyPermissionUpdates(m: Metadata, events: Event[]): Metadata {
  let out = m;
  for (const e of events) {
    if (e.type !== 'permission_updated') continue;
    const key = qualifiedKey(e.data.table);
    const t = out.tables[key];
    const perms = t?.[permKey(e.data.kind)] as Record<string, { role: string; permission: unknown; comment: string | null }> | undefined;
    const p = perms?.[e.data.role];
    if (!t || !p) continue;
    out = {
      ...out,
      tables: { ...out.tables, [key]: { ...t, [permKey(e.data.kind)]: { ...perms, [e.data.role]: { ...p, permission: e.data.permission } } } },
    };
  }
  return out;
}
