// Read routing over the database's own streaming replication. The set knows every replica's replayed position and
// state (health.ts polls them) and the positions a read must see:
//   - the read's own (x-engine-min-lsn),
//   - with consistency `instance`, every write this instance committed (its WAL position after each commit),
//   - always, the position of the metadata this instance serves (Note [Schema floor]).
// A read goes to the replica in rotation with the fewest reads in flight among those that have replayed that far;
// when none has, it waits up to --replica-wait-ms for one (reading the replicas' positions meanwhile), then the
// primary serves it. A read whose replica went away under it is retried once elsewhere (ReadRouting.retry).
import type pg from 'pg';
import { EngineError } from '../core/errors.js';
import { log } from '../core/log.js';
import type { ReplicaConsistency } from '../config/config.js';
import type { ReadRouting, ReadSource } from '../execute/features.js';
import { PrimaryHistory } from './lag.js';
import { parseLsn } from './lsn.js';
import type { Replica } from './replica.js';

// Note [Schema floor]
// Metadata can name a table that a replica has not created yet (run_sql then track_table, on this instance or
// another one whose change this instance followed): a read of it there would fail. Every new state this instance
// swaps in raises a floor: reads go to the primary until the primary's position has been read after the swap,
// and from then on only to replicas that replayed that far (which holds everything the new metadata relies on).
// This holds for every consistency setting, `none` included: it prevents errors, not staleness.

export interface ReplicaSetOptions {
  primary: pg.Pool;
  replicas: Replica[];
  consistency: ReplicaConsistency;
  waitMs: number;
}

/** Reads sent to the primary, by why. */
export type FallbackReason = 'no-replica' | 'behind' | 'waited' | 'schema' | 'retry';

/** The primary as a read source: never retried elsewhere. */
class PrimarySource implements ReadSource {
  outstanding = 0;
  routed = 0;
  constructor(readonly pool: pg.Pool) {}
  done(): boolean {
    this.outstanding--;
    return false;
  }
}

interface Waiter {
  need: number;
  prefer: ReadSource | undefined;
  resolve(s: ReadSource): void;
  timer: NodeJS.Timeout;
}

const CURRENT = 'SELECT pg_current_wal_lsn()::text AS lsn';
/** Pause between two reads of the replicas' positions while reads wait for them. */
const CHASE_PAUSE_MS = 2;

export class ReplicaSet implements ReadRouting {
  readonly primary: PrimarySource;
  readonly replicas: readonly Replica[];
  readonly history = new PrimaryHistory();
  /** The newest WAL position after a write this instance committed. */
  instanceLsn = 0;
  readonly fallbacks: Record<FallbackReason, number> = { 'no-replica': 0, behind: 0, waited: 0, schema: 0, retry: 0 };
  /** Reads retried on another source after theirs went away. */
  retries = 0;
  private swaps = 0;
  private floorFor = -1;
  private floor = 0;
  private waiters = new Set<Waiter>();
  private chasing = false;
  private closed = false;
  private turn = 0;

  constructor(private readonly o: ReplicaSetOptions) {
    this.primary = new PrimarySource(o.primary);
    this.replicas = o.replicas;
  }

  /** The state changed (Note [Schema floor]): the primary serves reads until its position is read again. */
  stateSwapped(): void {
    this.swaps++;
    void this.readPrimary(this.o.primary).catch((e: unknown) => log.warn('read-replica', { message: 'cannot read the primary\'s WAL position', error: e }));
  }

  /** Reads the primary's position on `pool`; it counts for the floor of every swap made before it started. */
  async readPrimary(pool: pg.Pool): Promise<{ text: string; pos: number }> {
    const swaps = this.swaps;
    const text = (await pool.query<{ lsn: string }>(CURRENT)).rows[0].lsn;
    const pos = parseLsn(text) ?? 0;
    this.history.record(Date.now(), pos);
    if (swaps > this.floorFor) {
      this.floorFor = swaps;
      this.floor = Math.max(this.floor, pos);
    }
    return { text, pos };
  }

  minLsn(value: string | undefined): number {
    if (value === undefined || value === '') return 0;
    const pos = parseLsn(value);
    if (pos === null) throw new EngineError('invalid-headers', `invalid x-engine-min-lsn: expected a WAL position such as 0/16B3748, got ${JSON.stringify(value)}`);
    return pos;
  }

  async committed(): Promise<string | null> {
    try {
      const { text, pos } = await this.readPrimary(this.o.primary);
      if (pos > this.instanceLsn) this.instanceLsn = pos;
      return text;
    } catch (e) {
      log.warn('read-replica', { message: 'cannot read the WAL position after a write', error: e });
      return null;
    }
  }

  /** The position a read must see, given its own. */
  private need(minLsn: number): number {
    return Math.max(minLsn, this.o.consistency === 'instance' ? this.instanceLsn : 0, this.floor);
  }

  source(minLsn: number, prefer?: ReadSource): ReadSource | Promise<ReadSource> {
    if (this.floorFor < this.swaps) return this.toPrimary('schema');
    const need = this.need(minLsn);
    const r = this.pick(need, prefer, undefined);
    if (r !== null) return this.take(r);
    let up = 0;
    let close = 0;
    for (const x of this.replicas) {
      if (!x.inRotation) continue;
      up++;
      if (x.lagMs <= this.o.waitMs) close++;
    }
    if (up === 0) return this.toPrimary('no-replica');
    // Every replica in rotation is further behind than the wait allows: waiting would only delay the primary.
    if (close === 0 || this.o.waitMs === 0 || this.closed) return this.toPrimary('behind');
    return new Promise((resolve) => {
      const w: Waiter = {
        need, prefer, resolve,
        timer: setTimeout(() => {
          this.waiters.delete(w);
          resolve(this.toPrimary('waited'));
        }, this.o.waitMs),
      };
      this.waiters.add(w);
      void this.chase();
    });
  }

  retry(failed: ReadSource, minLsn: number): ReadSource {
    this.retries++;
    const r = this.floorFor < this.swaps ? null : this.pick(this.need(minLsn), undefined, failed);
    return r !== null ? this.take(r) : this.toPrimary('retry');
  }

  /** The replica in rotation that has replayed `need`: `prefer` if it qualifies, else the one with the fewest reads in flight. */
  private pick(need: number, prefer: ReadSource | undefined, not: ReadSource | undefined): Replica | null {
    const rs = this.replicas;
    if (prefer !== undefined && prefer !== not) {
      const p = rs.find((x) => x === prefer);
      if (p !== undefined && p.inRotation && p.replayed >= need) return p;
    }
    let best: Replica | null = null;
    // Ties go round: equal replicas share the reads.
    const start = this.turn++ % Math.max(1, rs.length);
    for (let i = 0; i < rs.length; i++) {
      const x = rs[(start + i) % rs.length];
      if (x === not || !x.inRotation || x.replayed < need) continue;
      if (best === null || x.outstanding < best.outstanding) best = x;
    }
    return best;
  }

  private take(r: Replica): Replica {
    r.outstanding++;
    r.routed++;
    return r;
  }

  private toPrimary(reason: FallbackReason): PrimarySource {
    this.fallbacks[reason]++;
    this.primary.outstanding++;
    this.primary.routed++;
    return this.primary;
  }

  /** While reads wait, reads the replicas' positions back to back and hands each waiter a replica once one qualifies. */
  private async chase(): Promise<void> {
    if (this.chasing) return;
    this.chasing = true;
    try {
      while (this.waiters.size > 0 && !this.closed) {
        await Promise.all(this.replicas.filter((x) => x.inRotation).map((x) => x.position().catch((e: unknown) => x.wentAway(e))));
        this.settle();
        if (this.waiters.size > 0) await new Promise((r) => setTimeout(r, CHASE_PAUSE_MS));
      }
    } finally {
      this.chasing = false;
    }
  }

  /** Hands waiting reads their replica (or the primary, when none is left in rotation). */
  settle(): void {
    const anyUp = this.replicas.some((x) => x.inRotation);
    for (const w of this.waiters) {
      const r = anyUp && !this.closed ? this.pick(w.need, w.prefer, undefined) : null;
      if (r === null && anyUp && !this.closed) continue;
      clearTimeout(w.timer);
      this.waiters.delete(w);
      w.resolve(r !== null ? this.take(r) : this.toPrimary('no-replica'));
    }
  }

  close(): void {
    this.closed = true;
    this.settle();
  }
}
