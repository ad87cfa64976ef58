// Folding a sequence of events into metadata: from zero, or from a snapshot.
import { emptyMetadata, type Event, type Metadata } from '../events/types.js';
import { evolveAll, evolveOwned } from './evolve.js';

export function fold(metadata: Metadata, events: Iterable<Event>): Metadata {
  return evolveAll(metadata, events);
}

/** fold for metadata the caller owns and nothing else has seen (evolveOwned): start-up's snapshot or empty metadata. */
export function foldOwned(metadata: Metadata, events: Iterable<Event>): Metadata {
  return evolveOwned(metadata, events);
}

export const replay = (events: Iterable<Event>): Metadata => fold(emptyMetadata(), events);
