// The one place where the sync side meets the write side's pure functions: fold events into metadata, refresh
// the catalog when the events changed Postgres (or enum rows must be read) and the remote schemas' introspections
// when the events ask for it, build the EngineState from them.
import type pg from 'pg';
import type { PgCatalog } from '../catalog/types.js';
import { buildState, type EngineState } from '../cache/state.js';
import type { CacheCheck } from '../cache/build.js';
import type { RemoteIntrospections } from '../cache/types.js';
import { qualifiedKey } from '../core/names.js';
import { introspectWithEnums, withEnumValues } from '../catalog/enum-values.js';
import { shareCatalog } from '../catalog/share.js';
import { catalogFingerprint, fingerprintOf, withFingerprint } from '../catalog/fingerprint.js';
import { introspectCatalog } from '../catalog/introspect.js';
import type { LoggedEvent } from '../../events/log.js';
import { CATALOG_EFFECT, own } from '../../events/types.js';
import { emptyMetadata, enumTables, type Metadata } from '../../projections/metadata.js';
import { fold, foldOwned } from '../../projections/replay.js';

export interface Projector {
  emptyMetadata(): Metadata;
  fold(metadata: Metadata, events: readonly LoggedEvent[]): Metadata;
  /** fold for metadata nothing else holds (start-up's snapshot, or the empty metadata): changed in place. */
  foldOwned(metadata: Metadata, events: readonly LoggedEvent[]): Metadata;
  /** The catalog for `metadata` after `events`: re-read when needed (or when there is none yet), else `previous`. */
  catalogFor(client: pg.ClientBase, metadata: Metadata, events: readonly LoggedEvent[], previous: PgCatalog | null): Promise<PgCatalog>;
  /**
   * catalogFor with no previous catalog in two halves, for start-up to read the catalog while it folds the log
   * (catchup.ts): what Postgres has (with its fingerprint), then the rows of the metadata's enum tables added.
   */
  readCatalog(client: pg.ClientBase): Promise<PgCatalog>;
  withEnumRows(client: pg.ClientBase, metadata: Metadata, catalog: PgCatalog): Promise<PgCatalog>;
  /** The remote schemas' introspections for `metadata` after `events` (none yet at start-up: `previous` null). */
  remoteSchemasFor(metadata: Metadata, events: readonly LoggedEvent[], previous: RemoteIntrospections | null): Promise<RemoteIntrospections>;
  /** `previous`: the state these follow, whose cache the build may start from (src/cache/build.ts Note [Delta build]). */
  buildState(seq: number, metadata: Metadata, catalog: PgCatalog, remoteSchemas: RemoteIntrospections, previous?: EngineState): EngineState;
  /** The features' checks that every schema cache of this engine runs (the write path rebuilds caches with them). */
  readonly cacheChecks: readonly CacheCheck[];
}

/** What the features give the projector (src/features.ts). */
export interface ProjectorFeatures {
  /** Run on every schema cache built. */
  readonly cacheChecks: readonly CacheCheck[];
  /** Introspects the remote schemas a state after these events needs introspected (src/remote); keeps the others. */
  remoteSchemasAfter(metadata: Metadata, events: readonly LoggedEvent[], previous: RemoteIntrospections | null): Promise<RemoteIntrospections>;
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

/** The projector of an engine with these features (the composition root's: src/features.ts). */
export const createProjector = (features: ProjectorFeatures): Projector => ({
  emptyMetadata,
  fold: (metadata, events) => fold(metadata, events),
  foldOwned: (metadata, events) => foldOwned(metadata, events),
  async catalogFor(client, metadata, events, previous) {
    if (previous === null || needsCatalog(events, previous)) {
      // Taken first, for the next write to know whether it must read the catalog again (src/catalog/fingerprint.ts).
      const fingerprint = await catalogFingerprint(client);
      return withFingerprint(shareCatalog(await introspectWithEnums(client, enumTables(metadata)), previous), fingerprint);
    }
    return withEnumValues(client, enumTables(metadata), previous, changedEnums(events), previous);
  },
  async readCatalog(client) {
    const fingerprint = await catalogFingerprint(client);
    return withFingerprint(await introspectCatalog(client), fingerprint);
  },
  async withEnumRows(client, metadata, catalog) {
    const fingerprint = fingerprintOf(catalog);
    const out = await withEnumValues(client, enumTables(metadata), catalog, 'all');
    return fingerprint === undefined ? out : withFingerprint(out, fingerprint);
  },
  remoteSchemasFor: (metadata, events, previous) => features.remoteSchemasAfter(metadata, events, previous),
  buildState: (seq, metadata, catalog, remoteSchemas, previous) => buildState(seq, metadata, catalog, remoteSchemas, features.cacheChecks, previous),
  cacheChecks: features.cacheChecks,
});
