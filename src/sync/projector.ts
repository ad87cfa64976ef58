// The one place where the sync side meets the write side's pure functions: fold events into metadata,
// decide whether the catalog must be re-read, and build the EngineState (schema cache) from both.
import type { PgCatalog } from '../catalog/types.js';
import type { EngineState } from '../cache/state.js';
import type { LoggedEvent } from '../../events/log.js';
import { emptyMetadata, type Metadata } from '../../projections/metadata.js';

export interface Projector {
  emptyMetadata(): Metadata;
  fold(metadata: Metadata, events: readonly LoggedEvent[]): Metadata;
  needsIntrospection(events: readonly LoggedEvent[]): boolean;
  buildState(seq: number, metadata: Metadata, catalog: PgCatalog): EngineState;
}

// Fallback until projections/replay.ts and src/cache/build.ts land: metadata stays empty, the cache has no tables.
export const projector: Projector = {
  emptyMetadata,
  fold: (metadata) => metadata,
  needsIntrospection: (events) => events.length > 0,
  buildState: (seq, metadata, catalog) => ({
    seq,
    metadata,
    catalog,
    cache: { tables: {}, functions: {}, roles: [], inconsistent: [] },
  }),
};
