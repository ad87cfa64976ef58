// The one place where the sync side meets the write side's pure functions: fold events into metadata, refresh
// the catalog when the events changed Postgres (or enum rows must be read), build the EngineState.
import type pg from 'pg';
import type { PgCatalog } from '../catalog/types.js';
import { buildState, type EngineState } from '../cache/state.js';
import type { CacheCheck } from '../cache/build.js';
import { qualifiedKey } from '../core/names.js';
import { introspectWithEnums, withEnumValues } from '../catalog/enum-values.js';
import type { LoggedEvent } from '../../events/log.js';
import { CATALOG_EFFECT, own } from '../../events/types.js';
import { emptyMetadata, enumTables, type Metadata } from '../../projections/metadata.js';
import { fold } from '../../projections/replay.js';
import { ensureIntrospected } from '../remote/introspections.js';

export interface Projector {
  emptyMetadata(): Metadata;
  fold(metadata: Metadata, events: readonly LoggedEvent[]): Metadata;
  /** The catalog for `metadata` after `events`: re-read when needed (or when there is none yet), else `previous`. */
  catalogFor(client: pg.ClientBase, metadata: Metadata, events: readonly LoggedEvent[], previous: PgCatalog | null): Promise<PgCatalog>;
  buildState(seq: number, metadata: Metadata, catalog: PgCatalog): EngineState;
  /** The features' checks that every schema cache of this engine runs (the write path rebuilds caches with them). */
  readonly cacheChecks: readonly CacheCheck[];
}

// Note [Catch-up without introspection]
// Reading the whole catalog costs tens of ms on a few hundred tables, and is most of a catch-up. Postgres only
// changes through run_sql (sql_ran) as far as the log knows, so other events reuse the catalog this instance
// already has, unless they name an object it does not know. Enum rows are read for enum tables that changed.
// What each event type means for the catalog is CATALOG_EFFECT, beside the Event union (events/types.ts).

function needsCatalog(events: readonly LoggedEvent[], previous: PgCatalog): boolean {
  return events.some((e) => {
    const effect = own(CATALOG_EFFECT, e.type) ?? 'none';
    if (effect === 'reread') return true;
    if (e.type === 'table_tracked') return previous.tables[qualifiedKey(e.data.table)] === undefined;
    if (e.type === 'function_tracked') return previous.functions[qualifiedKey(e.data.function)] === undefined;
    return false;
  });
}

/** Enum tables whose rows must be (re-)read after these events. */
function changedEnums(events: readonly LoggedEvent[]): string[] {
  const keys: string[] = [];
  for (const e of events) {
    if ((e.type === 'table_tracked' || e.type === 'table_enum_set') && e.data.is_enum) keys.push(qualifiedKey(e.data.table));
  }
  return keys;
}

/** The projector of an engine whose schema caches run `cacheChecks` (the composition root's: src/features.ts). */
export const createProjector = (cacheChecks: readonly CacheCheck[]): Projector => ({
  emptyMetadata,
  fold: (metadata, events) => fold(metadata, events),
  async catalogFor(client, metadata, events, previous) {
    // Remote schemas are introspected at start-up, on reload_metadata with reload_remote_schemas and on
    // reload_remote_schema (then kept), whichever instance ran it.
    const all = previous === null || events.some((e) => e.type === 'metadata_reloaded' && e.data.reload_remote_schemas);
    const named = new Set(events.flatMap((e) => (e.type === 'remote_schema_reloaded' ? [e.data.name] : [])));
    await ensureIntrospected(metadata.remote_schemas, all || named);
    if (previous === null || needsCatalog(events, previous)) return introspectWithEnums(client, enumTables(metadata));
    return withEnumValues(client, enumTables(metadata), previous, changedEnums(events), previous);
  },
  buildState: (seq, metadata, catalog) => buildState(seq, metadata, catalog, cacheChecks),
  cacheChecks,
});
