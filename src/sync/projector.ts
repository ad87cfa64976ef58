// The one place where the sync side meets the write side's pure functions: fold events into metadata, refresh
// the catalog when the events changed Postgres (or enum rows must be read), build the EngineState.
import type pg from 'pg';
import type { PgCatalog } from '../catalog/types.js';
import { buildState, needsIntrospection, type EngineState } from '../cache/state.js';
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

export const projector: Projector = {
  emptyMetadata,
  fold: (metadata, events) => fold(metadata, events),
  async catalogFor(client, metadata, events, previous) {
    if (previous === null || needsIntrospection(events)) return introspectForMetadata(client, metadata);
    // Enum tables that have no rows read yet get them; the rest keep theirs.
    return withEnumValues(client, metadata, previous, [], previous);
  },
  buildState,
};
