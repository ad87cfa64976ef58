// Building state from the log: start-up (latest snapshot + the events after it) and catching up on new events.
import type pg from 'pg';
import type { EngineState } from '../cache/state.js';
import { latestSnapshot, readFrom } from '../../events/log.js';
import type { Metadata } from '../../projections/metadata.js';
import type { Projector } from './projector.js';

/** Full load: snapshot, events after it, one catalog read, the remote schemas introspected, one cache build. */
export async function loadState(client: pg.ClientBase, projector: Projector): Promise<EngineState> {
  const snapshot = await latestSnapshot(client);
  const base = snapshot ? (snapshot.metadata as Metadata) : projector.emptyMetadata();
  const baseSeq = snapshot?.seq ?? 0;
  const events = await readFrom(client, baseSeq);
  const metadata = events.length ? projector.fold(base, events) : base;
  const seq = events.length ? events[events.length - 1].seq : baseSeq;
  const catalog = await projector.catalogFor(client, metadata, events, null);
  return projector.buildState(seq, metadata, catalog, await projector.remoteSchemasFor(metadata, events, null));
}

/** State after the events that follow `state.seq` (the same state object when there are none). */
export async function catchUp(client: pg.ClientBase, state: EngineState, projector: Projector): Promise<EngineState> {
  const events = await readFrom(client, state.seq);
  if (events.length === 0) return state;
  const metadata = projector.fold(state.metadata, events);
  const catalog = await projector.catalogFor(client, metadata, events, state.catalog);
  const remoteSchemas = await projector.remoteSchemasFor(metadata, events, state.remoteSchemas);
  return projector.buildState(events[events.length - 1].seq, metadata, catalog, remoteSchemas, state);
}
