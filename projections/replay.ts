// Folding a sequence of events into metadata: from zero, or from a snapshot.
import { emptyMetadata, type Event, type Metadata } from '../events/types.js';
import { evolveAll } from './evolve.js';

export function fold(metadata: Metadata, events: Iterable<Event>): Metadata {
  return evolveAll(metadata, events);
}

export const replay = (events: Iterable<Event>): Metadata => fold(emptyMetadata(), events);
