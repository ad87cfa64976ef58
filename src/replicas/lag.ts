// How far behind a replica is, in time: the primary's WAL position is sampled at every poll, and a replica whose
// replayed position is P lags by the time since the primary was first seen past P (it lacks WAL that existed
// then). A replica at or past the newest sample does not lag. Bytes behind say little (a bulk load writes gigabytes
// in seconds, an idle primary nothing for minutes); time is what a reader's staleness is measured in.

interface Sample {
  at: number;
  lsn: number;
}

/** The primary's positions of the last `keepMs` ms (at least the newest one). */
export class PrimaryHistory {
  private readonly samples: Sample[] = [];

  constructor(private readonly keepMs = 10 * 60_000) {}

  /** A sample; positions never go back (a lower one, from a slower concurrent read, is ignored). */
  record(at: number, lsn: number): void {
    const last = this.samples[this.samples.length - 1];
    if (last !== undefined && lsn <= last.lsn) return;
    this.samples.push({ at, lsn });
    let drop = 0;
    while (drop < this.samples.length - 1 && this.samples[drop + 1].at < at - this.keepMs) drop++;
    if (drop > 0) this.samples.splice(0, drop);
  }

  /** The newest position seen, 0 before any. */
  get latest(): number {
    return this.samples[this.samples.length - 1]?.lsn ?? 0;
  }

  /**
   * Milliseconds a replica that replayed up to `replayed` lags at `now`: since the first sample past it (past every
   * sample kept: since the oldest one), 0 when no sample is past it.
   */
  lagMs(replayed: number, now: number): number {
    // Samples are in increasing position: find the first one past `replayed`.
    let lo = 0;
    let hi = this.samples.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.samples[mid].lsn > replayed) hi = mid;
      else lo = mid + 1;
    }
    if (lo === this.samples.length) return 0;
    return Math.max(0, now - this.samples[lo].at);
  }
}
