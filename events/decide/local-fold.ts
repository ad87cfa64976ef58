// decide cannot import the projections (layering), but a multi-rename decision must see its own earlier renames:
// this applies just the events a rename emits that its later steps read (column_renamed is reflected in permissions
// through permission_updated), with evolve's own step for it (updatePermissionRules, events/types.ts).
import { produce } from 'immer';
import { updatePermissionRules, type Event, type Metadata } from '../types.js';

export function applyPermissionUpdates(m: Metadata, events: readonly Event[]): Metadata {
  return produce(m, (draft) => {
    for (const e of events) if (e.type === 'permission_updated') updatePermissionRules(draft, e.data);
  });
}
