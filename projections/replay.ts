// Folding a sequence of events into metadata: from zero, or from a snapshot.
import { emptyMetadata, type Metadata, type NewEvent } from '../events/types.js';
import { evolveAll } from './evolve.js';

export function fold(metadata: Metadata, events: Iterable<NewEvent>): Metadata {
  return evolveAll(metadata, events);
}

export const replay = (events: Iterable<NewEvent>): Metadata => fold(emptyMetadata(), events);
