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

import { fold } from '../../projections/replay.js';
import { buildState, needsIntrospection } from '../cache/state.js';

export const projector: Projector = {
  emptyMetadata,
  fold: (metadata, events) => fold(metadata, events),
  needsIntrospection: (events) => needsIntrospection(events),
  buildState,
};
