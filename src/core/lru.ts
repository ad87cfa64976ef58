// A least-recently-used map with hit/miss counters: the plan caches' store, and the remote router's.

export class Lru<V> {
  private readonly map = new Map<string, V>();
  /** The key got or set last (the map's last key). */
  private last: string | null = null;
  hits = 0;
  misses = 0;

  /** `totals`: process-wide counters this cache adds to as well (the plan caches' metrics), or null. */
  constructor(readonly capacity: number, private readonly totals: { hits: number; misses: number } | null) {}

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
