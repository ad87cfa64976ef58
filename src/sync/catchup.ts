// Building state from the log: start-up (latest snapshot + the events after it) and catching up on new events.
import type pg from 'pg';
import type { EngineState } from '../cache/state.js';
import { latestSnapshot, readAllFrom } from '../../events/log.js';
import type { Metadata } from '../../projections/metadata.js';
import type { Projector } from './projector.js';

/**
 * Full load: snapshot, events after it, one catalog read, the remote schemas introspected, one cache build. Given a
 * second connection, the catalog is read on it meanwhile (Note [Start-up in parallel]).
 */
export async function loadState(client: pg.ClientBase, projector: Projector, side?: pg.ClientBase): Promise<EngineState> {
  const reading = side ? projector.readCatalog(side) : null;
  // Awaited below; until then a failure must not count as unhandled.
  reading?.catch(() => undefined);
  const snapshot = await latestSnapshot(client);
  const base = snapshot ? (snapshot.metadata as Metadata) : projector.emptyMetadata();
  const baseSeq = snapshot?.seq ?? 0;
  const events = await readAllFrom(client, baseSeq);
  // The snapshot was parsed here and the empty metadata made here: nothing else holds them yet.
  const metadata = events.length ? projector.foldOwned(base, events) : base;
  const seq = events.length ? events[events.length - 1].seq : baseSeq;
  const catalog = reading ? await projector.withEnumRows(client, metadata, await reading) : await projector.catalogFor(client, metadata, events, null);
  return projector.buildState(seq, metadata, catalog, await projector.remoteSchemasFor(metadata, events, null));
}

// Note [Start-up in parallel]
// At 1,000 tables Postgres takes about 0.3 s to answer the catalog's introspection, and the engine about as long to
// parse a snapshot or 1 s to read and fold 40,000 events: on one connection one waits for the other. With a second
// connection the catalog is read meanwhile; the enum tables' rows, which need the metadata, are read after. The
// catalog is what Postgres had at some point during the load, as it is on one connection (no transaction holds
// the two together there either), and its fingerprint, taken before it, makes the first write read it again if a
// DDL came in between.

/** State after the events that follow `state.seq` (the same state object when there are none). */
export async function catchUp(client: pg.ClientBase, state: EngineState, projector: Projector): Promise<EngineState> {
  const events = await readAllFrom(client, state.seq);
  if (events.length === 0) return state;
  const metadata = projector.fold(state.metadata, events);
  const catalog = await projector.catalogFor(client, metadata, events, state.catalog);
  const remoteSchemas = await projector.remoteSchemasFor(metadata, events, state.remoteSchemas);
  return projector.buildState(events[events.length - 1].seq, metadata, catalog, remoteSchemas, state);
}
