// Folding a write's events without copying the whole tables record each time (Note [Folding a bulk]).
import { qualifiedKey } from '../core/names.js';
import type { Event, EventType } from '../../events/types.js';
import type { Metadata, TableMeta } from '../../projections/metadata.js';
import { evolveAll } from '../../projections/evolve.js';

// Note [Folding a bulk]
// immer copies the tables record (one key per tracked table) on every fold that changes a table: at 1,000 tables
// about a millisecond, which a 40,000-element bulk pays 40,000 times. Events that change one table and read no
// other are folded into a metadata holding just that table, and the result is written into a tables record the run
// owns (copied once, at its first such write) and changes in place. Nothing outside the run sees that record until
// the run ends, when it is frozen and becomes the state's; the schema cache is told which tables changed, since
// identities cannot tell in place.

/** Event types that change only the table named in their data (evolve.ts): `table` is where they act. */
const ONE_TABLE = new Set<EventType>([
  'table_tracked', 'table_custom_fields_set', 'table_enum_set',
  'relationship_created', 'relationship_dropped', 'relationship_comment_set',
  'computed_field_added', 'computed_field_dropped',
  'permission_created', 'permission_dropped', 'permission_updated', 'permission_comment_set',
]);

/** Event types after which the tables tracked as enums are the same (their rows need not be looked at). */
export const ENUM_NEUTRAL = new Set<EventType>([
  'table_custom_fields_set',
  'relationship_created', 'relationship_dropped', 'relationship_comment_set',
  'computed_field_added', 'computed_field_dropped',
  'permission_created', 'permission_dropped', 'permission_updated', 'permission_comment_set',
]);

/** The keys of the tables the events change, when each changes one table only; null otherwise. */
export function oneTableEach(events: readonly Event[]): string[] | null {
  if (events.length === 0) return null;
  const keys = new Set<string>();
  for (const e of events) {
    if (!ONE_TABLE.has(e.type)) return null;
    keys.add(qualifiedKey((e.data as { table: { schema: string; name: string } }).table));
  }
  return [...keys];
}

/** `metadata` after `events` (which change only the tables `keys`), with `working` changed in place as its tables. */
export function foldInPlace(metadata: Metadata, events: readonly Event[], keys: readonly string[], working: Record<string, TableMeta>): Metadata {
  const some: Record<string, TableMeta> = {};
  for (const k of keys) if (Object.hasOwn(working, k)) some[k] = working[k];
  const out = evolveAll({ ...metadata, tables: some }, events);
  for (const k of keys) {
    if (Object.hasOwn(out.tables, k)) working[k] = out.tables[k];
    else delete working[k];
  }
  return { ...out, tables: working };
}
