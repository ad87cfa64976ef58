// Snapshots of the metadata written after the write that crosses an interval has committed (Note [Snapshots after
// commit]), and waited for when the engine stops.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type pg from 'pg';
import { log } from '../core/log.js';
import { writeSnapshot } from '../../events/log.js';

// Note [Snapshots after commit]
// A snapshot is the whole metadata as JSON: at 1,000 tables and 40,000 permissions Postgres takes 200-300 ms to
// store it, which the write that crossed the interval used to wait for inside its transaction (every 500th change
// answered in 0.3 s rather than 0.05). A snapshot only saves start-up the folding of the events before it: one
// written a moment after its seq committed is as good, and one that fails to be written costs the next start-up
// some folding, not any correctness. So it is written on a connection of its own once the write has committed, the
// state it holds being immutable; stopping the engine waits for those in flight.
export class SnapshotWriter {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly pool: pg.Pool) {}

  /**
   * Writes the metadata as of `seq` (committed) in the background, from the next turn of the event loop: its JSON
   * (7 MB at 1,000 tables, tens of ms to make) is then made after the write that crossed the interval has answered.
   */
  write(seq: number, metadata: unknown): void {
    const p = nextTurn().then(() => this.store(seq, metadata)).finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  /** Waits for the snapshots in flight. */
  async settled(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  private async store(seq: number, metadata: unknown): Promise<void> {
    try {
      const client = await this.pool.connect();
      try {
        await writeSnapshot(client, seq, metadata);
      } finally {
        client.release();
      }
    } catch (e) {
      log.warn('metadata-snapshot-failed', { seq, error: e as Error });
    }
  }
}
