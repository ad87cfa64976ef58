// Holds this instance's current EngineState and swaps it atomically; lets requests wait for a minimum seq.
import type { EngineState } from '../cache/state.js';

export class StateStore {
  private current: EngineState | null = null;
  private waiters: Array<{ seq: number; resolve: () => void }> = [];
  private listeners = new Set<(state: EngineState) => void>();
  private turn: Promise<unknown> = Promise.resolve();
  /** Why the state is not available (start-up failure, ...), for /healthz. */
  problem: string | null = 'metadata not loaded yet';

  get ready(): boolean {
    return this.current !== null;
  }

  get(): EngineState {
    if (this.current === null) throw new Error(this.problem ?? 'metadata not loaded yet');
    return this.current;
  }

  get seq(): number {
    return this.current?.seq ?? -1;
  }

  /**
   * Installs `next` when it is newer; with `force`, also when it is as new (a write that re-read the catalog
   * without appending). Never goes back in seq.
   */
  swap(next: EngineState, force = false): boolean {
    const cur = this.current;
    if (cur !== null && (next.seq < cur.seq || (next.seq === cur.seq && !force))) return false;
    this.current = next;
    this.problem = null;
    const still: typeof this.waiters = [];
    for (const w of this.waiters) (w.seq <= next.seq ? w.resolve() : still.push(w));
    this.waiters = still;
    for (const l of this.listeners) l(next);
    return true;
  }

  /**
   * Runs `fn` after every earlier `exclusive` call of this instance has settled. The write path and the sync
   * catch-up take turns through it: a catch-up that began while this instance's write was committing would fold
   * the write's own events again (and introspect its remote schemas again) only to have its state refused.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.turn.then(fn, fn);
    this.turn = run.catch(() => undefined);
    return run;
  }

  /** Calls `listener` after every swap (live queries re-validate); returns the unsubscribe function. */
  onSwap(listener: (state: EngineState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves true once seq >= `seq`, false after `timeoutMs`. */
  waitFor(seq: number, timeoutMs: number): Promise<boolean> {
    if (this.seq >= seq) return Promise.resolve(true);
    return new Promise((resolve) => {
      const entry = { seq, resolve: () => (clearTimeout(timer), resolve(true)) };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== entry);
        resolve(false);
      }, timeoutMs);
      this.waiters.push(entry);
    });
  }
}
