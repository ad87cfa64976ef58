// Folding a sequence of events into metadata: from zero, or from a snapshot.
import { emptyMetadata, type Metadata, type NewEvent } from '../events/types.js';
import { evolve } from './evolve.js';

export function fold(metadata: Metadata, events: Iterable<NewEvent>): Metadata {
  let m = metadata;
  for (const e of events) m = evolve(m, e);
  return m;
}

export const replay = (events: Iterable<NewEvent>): Metadata => fold(emptyMetadata(), events);
