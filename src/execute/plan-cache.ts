// The query plan cache: per state (so a metadata change starts afresh), an LRU map from
// (role, operationName, query text) to the compiled statement and the variable coercer; plus plans per variable shape.
import type { EngineState } from '../cache/state.js';
import { Lru } from '../core/lru.js';

/** Hits and misses of every plan cache of the process (monotonic across metadata changes: the metrics' counters). */
export const planCacheTotals = { hits: 0, misses: 0 };

const byState = new WeakMap<EngineState, Lru<unknown>>();
/** The cache asked for last (every request asks, nearly always for the current state's): no WeakMap lookup then (it keeps that one state alive until another is asked for). */
let last: { state: EngineState; cache: Lru<unknown> } | null = null;

/** The cache of one state; states are immutable, so a new seq means a new (empty) cache. */
export function cacheFor<V>(state: EngineState, capacity: number): Lru<V> {
  if (last !== null && last.state === state) return last.cache as Lru<V>;
  let c = byState.get(state);
  if (c === undefined) {
    c = new Lru<unknown>(capacity, planCacheTotals);
    byState.set(state, c);
  }
  last = { state, cache: c };
  return c as Lru<V>;
}

const shapesByState = new WeakMap<EngineState, Lru<unknown>>();

/**
 * Plans keyed by (plan key, variables' shape) for operations whose structural variables shape the statement
 * (Note [Shape-keyed plans], src/graphql/request/input.ts); bounded like the plan cache, kept apart from it.
 */
export function shapeCacheFor<V>(state: EngineState, capacity: number): Lru<V> {
  let c = shapesByState.get(state);
  if (c === undefined) {
    c = new Lru<unknown>(capacity, planCacheTotals);
    shapesByState.set(state, c);
  }
  return c as Lru<V>;
}

/** Plans cached for a state (plan cache and shape cache). */
export const planCacheSizes = (state: EngineState): number => (byState.get(state)?.size ?? 0) + (shapesByState.get(state)?.size ?? 0);

export const planKey = (role: string, operationName: string | null, query: string): string =>
  `${role}\u0000${operationName ?? ''}\u0000${query}`;
