// A delivery worker's outcomes on their way to the database: what arrives while a store runs goes in the next one
// (natural batching: one statement per batch), and a store that fails is tried again for a while. Meanwhile the
// events stay claimed; if the instance dies they are delivered again (at least once).
import { log } from '../core/log.js';

export class BatchedStore<T> {
  private readonly pending: T[] = [];
  private flushing: Promise<void> | null = null;

  /** `logType`: the type of the line written when a store fails (`events-store`, ...). */
  constructor(private readonly store: (batch: T[]) => Promise<void>, private readonly logType: string) {}

  push(outcome: T): void {
    this.pending.push(outcome);
  }

  /** Resolves once everything pushed so far is stored (or given up on). */
  async flush(): Promise<void> {
    while (this.pending.length > 0 || this.flushing) {
      if (this.flushing) {
        await this.flushing;
        continue;
      }
      const batch = this.pending.splice(0, this.pending.length);
      this.flushing = this.storeWithRetry(batch).finally(() => (this.flushing = null));
      await this.flushing;
    }
  }

  private async storeWithRetry(batch: T[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.store(batch);
        return;
      } catch (err) {
        log.warn(this.logType, { message: 'cannot store delivery outcomes, retrying', attempt, error: err });
        if (attempt >= 20) return;
        await new Promise((r) => setTimeout(r, Math.min(100 * attempt, 2000)));
      }
    }
  }
}
