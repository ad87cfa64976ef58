// The query plan cache: per state (so a metadata change starts afresh), an LRU map from
// (role, operationName, query text) to the compiled statement and the variable coercer; plus plans per variable shape.
import type { EngineState } from '../cache/state.js';

/** Hits and misses of every plan cache of the process (monotonic across metadata changes: the metrics' counters). */
export const planCacheTotals = { hits: 0, misses: 0 };

export class Lru<V> {
  private readonly map = new Map<string, V>();
  /** The key got or set last (the map's last key). */
  private last: string | null = null;
  hits = 0;
  misses = 0;

  /** `totals`: the process-wide counters this cache adds to (null: none, for caches that are not plan caches). */
  constructor(readonly capacity: number, private readonly totals: { hits: number; misses: number } | null = planCacheTotals) {}

  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v === undefined) {
      this.misses++;
      if (this.totals) this.totals.misses++;
      return undefined;
    }
    this.hits++;
    if (this.totals) this.totals.hits++;
    // Re-insert: Map iteration order is insertion order, so the first key is the least recently used. The key used
    // last is already last (a busy query asked again and again costs no re-insertion).
    if (key !== this.last) {
      this.map.delete(key);
      this.map.set(key, v);
      this.last = key;
    }
    return v;
  }

  set(key: string, v: V): void {
    if (this.capacity <= 0) return;
    this.map.delete(key);
    this.map.set(key, v);
    this.last = key;
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as string);
  }

  get size(): number {
    return this.map.size;
  }
}

const byState = new WeakMap<EngineState, Lru<unknown>>();

/** The cache of one state; states are immutable, so a new seq means a new (empty) cache. */
export function cacheFor<V>(state: EngineState, capacity: number): Lru<V> {
  let c = byState.get(state);
  if (c === undefined) {
    c = new Lru<unknown>(capacity);
    byState.set(state, c);
  }
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
    c = new Lru<unknown>(capacity);
    shapesByState.set(state, c);
  }
  return c as Lru<V>;
}

/** Plans cached for a state (plan cache and shape cache). */
export const planCacheSizes = (state: EngineState): number => (byState.get(state)?.size ?? 0) + (shapesByState.get(state)?.size ?? 0);

export const planKey = (role: string, operationName: string | null, query: string): string =>
  `${role}\u0000${operationName ?? ''}\u0000${query}`;
