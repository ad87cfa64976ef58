// The one place where the sync side meets the write side's pure functions: fold events into metadata, refresh
// the catalog when the events changed Postgres (or enum rows must be read), build the EngineState.
import type pg from 'pg';
import type { PgCatalog } from '../catalog/types.js';
import { buildState, type EngineState } from '../cache/state.js';
import { qualifiedKey, type QualifiedName } from '../core/names.js';
import { introspectForMetadata, withEnumValues } from '../metadata/enum-values.js';
import type { LoggedEvent } from '../../events/log.js';
import { emptyMetadata, type Metadata } from '../../projections/metadata.js';
import { fold } from '../../projections/replay.js';

export interface Projector {
  emptyMetadata(): Metadata;
  fold(metadata: Metadata, events: readonly LoggedEvent[]): Metadata;
  /** The catalog for `metadata` after `events`: re-read when needed (or when there is none yet), else `previous`. */
  catalogFor(client: pg.ClientBase, metadata: Metadata, events: readonly LoggedEvent[], previous: PgCatalog | null): Promise<PgCatalog>;
  buildState(seq: number, metadata: Metadata, catalog: PgCatalog): EngineState;
}

// Note [Catch-up without introspection]
// Reading the whole catalog costs tens of ms on a few hundred tables, and is most of a catch-up. Postgres only
// changes through run_sql (sql_ran) as far as the log knows, so other events reuse the catalog this instance
// already has, unless they name an object it does not know. Enum rows are read for enum tables that changed.
const CATALOG_EVENTS = new Set(['sql_ran', 'metadata_reloaded', 'metadata_replaced', 'metadata_cleared', 'table_renamed', 'column_renamed']);

type Data = { table?: QualifiedName; function?: QualifiedName; is_enum?: boolean };

function needsCatalog(events: readonly LoggedEvent[], previous: PgCatalog): boolean {
  return events.some((e) => {
    if (CATALOG_EVENTS.has(e.type)) return true;
    const d = (e.data ?? {}) as Data;
    if (e.type === 'table_tracked' && d.table) return previous.tables[qualifiedKey(d.table)] === undefined;
    if (e.type === 'function_tracked' && d.function) return previous.functions[qualifiedKey(d.function)] === undefined;
    return false;
  });
}

/** Enum tables whose rows must be (re-)read after these events. */
function changedEnums(events: readonly LoggedEvent[]): string[] {
  const keys: string[] = [];
  for (const e of events) {
    const d = (e.data ?? {}) as Data;
    if ((e.type === 'table_tracked' || e.type === 'table_enum_set') && d.table && d.is_enum) keys.push(qualifiedKey(d.table));
  }
  return keys;
}

export const projector: Projector = {
  emptyMetadata,
  fold: (metadata, events) => fold(metadata, events),
  async catalogFor(client, metadata, events, previous) {
    if (previous === null || needsCatalog(events, previous)) return introspectForMetadata(client, metadata);
    return withEnumValues(client, metadata, previous, changedEnums(events), previous);
  },
  buildState,
};
