// One read replica: its pool for reads, a one-connection pool for its health reads, what is known of it (state,
// replayed position, lag) and what it is doing (reads in flight, reads routed). It is a read source: the router
// hands it to the executor, which tells it when the read is over.
import pg from 'pg';
import { log } from '../core/log.js';
import type { ReadSource } from '../execute/features.js';
import { failureOf } from './gone.js';
import { parseLsn } from './lsn.js';

/** starting: not read yet; up: in the rotation; lagging: too far behind; down: unreachable, or not a standby. */
export type ReplicaState = 'starting' | 'up' | 'lagging' | 'down';
export const REPLICA_STATES: readonly ReplicaState[] = ['starting', 'up', 'lagging', 'down'];

export interface ReplicaSettings {
  url: string;
  /** A name without secrets (logs, metrics): host:port/database. */
  name: string;
  poolSize: number;
  applicationName: string;
  /** The read pool's connections' idle time and lifetime, as the primary's (--timeout, --conn-lifetime). */
  poolTimes?: { idleTimeoutMillis: number; maxLifetimeSeconds: number };
}

/** host:port/database of a URL, for logs and metrics (no user, no password). */
export function replicaName(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return '<unparseable URL>';
  }
}

const POSITION = 'SELECT pg_last_wal_replay_lsn()::text AS lsn';

export class Replica implements ReadSource {
  readonly pool: pg.Pool;
  private readonly probe: pg.Pool;
  state: ReplicaState = 'starting';
  /** The last replayed position read (0: none yet). */
  replayed = 0;
  lagMs = 0;
  /** Reads in flight on it (the router sends a read to the replica with the fewest). */
  outstanding = 0;
  /** Reads routed to it, retries that left it. */
  routed = 0;
  lastError: string | null = null;

  constructor(readonly settings: ReplicaSettings) {
    const common = { connectionString: settings.url, application_name: settings.applicationName, connectionTimeoutMillis: 5000 };
    this.pool = new pg.Pool({ ...common, ...settings.poolTimes, max: settings.poolSize });
    this.probe = new pg.Pool({ ...common, max: 1 });
    // Idle connections die with the server: it has gone (the health poll brings it back).
    const onError = (e: Error): void => {
      if (failureOf(e) === 'gone') this.wentAway(e);
      log.debug('read-replica-pool-error', { replica: settings.name, error: e });
    };
    this.pool.on('error', onError);
    this.probe.on('error', onError);
  }

  get name(): string {
    return this.settings.name;
  }

  get inRotation(): boolean {
    return this.state === 'up';
  }

  done(error?: unknown): boolean {
    this.outstanding--;
    if (error === undefined || error === null) return false;
    const failure = failureOf(error);
    if (failure === 'gone') this.wentAway(error);
    return failure !== 'other';
  }

  /** A read or a connection failed because the server is not there: out of the rotation until a health read succeeds. */
  wentAway(e: unknown): void {
    this.lastError = e instanceof Error ? e.message : String(e);
    if (this.state !== 'down') this.setState('down');
  }

  /** Its replayed position now (throws when unreachable, or when the server is not a standby). */
  async position(): Promise<number> {
    const r = await this.probe.query<{ lsn: string | null }>(POSITION);
    const lsn = r.rows[0]?.lsn ?? null;
    const pos = lsn === null ? null : parseLsn(lsn);
    // NULL: the server is not in recovery (promoted, or not a replica at all): reading from it could go back in time.
    if (pos === null) throw new Error('not a standby (pg_last_wal_replay_lsn() is NULL)');
    this.replayed = pos;
    return pos;
  }

  setState(next: ReplicaState): void {
    if (next === this.state) return;
    const from = this.state;
    this.state = next;
    const detail = { replica: this.name, from, to: next, lag_ms: Math.round(this.lagMs), error: next === 'down' ? this.lastError : undefined };
    (next === 'up' ? log.info : log.warn)('read-replica', detail);
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.end().catch(() => undefined), this.probe.end().catch(() => undefined)]);
  }
}
