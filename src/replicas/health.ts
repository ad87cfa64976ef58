// The health poll: every --replica-poll-interval ms, the primary's WAL position (pg_current_wal_lsn(), on a
// connection of its own) and each replica's replayed one (pg_last_wal_replay_lsn()). A replica that cannot be read
// is down; one lagging more than --replica-max-lag-ms is lagging; both leave the rotation, and come back at the
// first poll that finds them reachable and caught up (within the lag allowed).
import pg from 'pg';
import { log } from '../core/log.js';
import type { Replica } from './replica.js';
import type { ReplicaSet } from './replica-set.js';

export interface HealthOptions {
  primaryUrl: string;
  applicationName: string;
  intervalMs: number;
  maxLagMs: number;
}

export class HealthPoll {
  private readonly probe: pg.Pool;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private closed = false;
  private primaryFailing = false;

  constructor(private readonly set: ReplicaSet, private readonly o: HealthOptions) {
    this.probe = new pg.Pool({ connectionString: o.primaryUrl, application_name: o.applicationName, max: 1, connectionTimeoutMillis: 5000 });
    this.probe.on('error', (e) => log.debug('read-replica-pool-error', { replica: 'primary', error: e }));
  }

  /** Polls once (so that the replicas are known before the first request), then every interval. */
  async start(): Promise<void> {
    await this.pollOnce();
    this.schedule();
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      void this.pollOnce().finally(() => this.schedule());
    }, this.o.intervalMs);
  }

  pollOnce(): Promise<void> {
    return (this.running ??= this.poll().finally(() => (this.running = null)));
  }

  private async poll(): Promise<void> {
    try {
      await this.set.readPrimary(this.probe);
      if (this.primaryFailing) log.info('read-replica', { message: 'the primary\'s WAL position can be read again' });
      this.primaryFailing = false;
    } catch (e) {
      if (!this.primaryFailing) log.warn('read-replica', { message: 'cannot read the primary\'s WAL position', error: e });
      this.primaryFailing = true;
    }
    await Promise.all(this.set.replicas.map((r) => this.check(r)));
    // A replica that left the rotation may leave reads waiting for nothing.
    this.set.settle();
  }

  private async check(r: Replica): Promise<void> {
    try {
      const pos = await r.position();
      r.lagMs = this.set.history.lagMs(pos, Date.now());
      r.setState(r.lagMs > this.o.maxLagMs ? 'lagging' : 'up');
    } catch (e) {
      r.wentAway(e);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    await this.running;
    await this.probe.end().catch(() => undefined);
  }
}
