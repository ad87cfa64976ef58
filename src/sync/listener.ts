// Keeps this instance's state in step with the log: LISTEN engine_metadata (pg-listen reconnects), a poll as
// safety net, and a catch-up after every reconnect. Catch-ups are coalesced: one runs at a time.
import type pg from 'pg';
import pgListen, { type Subscriber } from 'pg-listen';
import { log } from '../core/log.js';
import { ConnectionWatch } from '../core/connection-watch.js';
import { NOTIFY_CHANNEL } from '../../events/log.js';
import { catchUp } from './catchup.js';
import type { Projector } from './projector.js';
import type { StateStore } from './state-store.js';

// pg-listen is CommonJS with exports.default: under ESM the default import is the module object.
type CreateSubscriber = typeof import('pg-listen').default;
const createSubscriber: CreateSubscriber =
  (pgListen as unknown as { default?: CreateSubscriber }).default ?? (pgListen as unknown as CreateSubscriber);

export interface SyncOptions {
  pool: pg.Pool;
  connectionString: string;
  store: StateStore;
  projector: Projector;
  pollInterval: number;
  instanceId: string;
}

export class MetadataSync {
  private subscriber: Subscriber | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  /** Backend pid of the LISTEN connection (tests terminate it). */
  listenerPid: number | null = null;
  /** Since when (ms) the LISTEN connection is down; null while it is up (readiness: /healthz?strict=true). */
  disconnectedSince: number | null = Date.now();
  private readonly watch = new ConnectionWatch('sync-listener-reconnect', 'metadata listener connection');

  constructor(private readonly o: SyncOptions) {}

  get listenerName(): string {
    return `engine-listen-${this.o.instanceId}`.slice(0, 63);
  }

  async start(): Promise<void> {
    await this.connectListener();
    this.timer = setInterval(() => this.trigger(), this.o.pollInterval);
    this.timer.unref();
  }

  private async connectListener(): Promise<void> {
    const sub = createSubscriber(
      { connectionString: this.o.connectionString, application_name: this.listenerName },
      // retryTimeout 0 = keep retrying; the paranoid check notices a silently dead connection.
      { retryInterval: (n: number) => Math.min(100 * n, 2000), retryTimeout: 0, paranoidChecking: 5000, parse: (s: string) => s },
    );
    sub.notifications.on(NOTIFY_CHANNEL, (payload: string) => this.onNotify(payload));
    sub.events.on('error', (e) => {
      log.warn('sync-listener-error', { error: e });
      this.disconnectedSince ??= Date.now();
      this.watch.lost();
      // pg-listen gave up: start a fresh subscriber (the poll covers the gap).
      if (!this.closed && this.subscriber === sub) {
        this.subscriber = null;
        sub.close().catch(() => undefined);
        setTimeout(() => void this.connectListener().catch((err) => log.warn('sync-listener-error', { error: err })), 1000).unref();
      }
    });
    sub.events.on('reconnect', (attempt) => {
      this.disconnectedSince ??= Date.now();
      this.watch.lost();
      log.info('sync-listener-reconnect', { attempt });
    });
    sub.events.on('connected', () => {
      this.disconnectedSince = null;
      this.watch.back();
      void this.rememberPid(sub);
      // Notifications sent while we were away are lost: read the log.
      this.trigger();
    });
    this.subscriber = sub;
    await sub.connect();
    await sub.listenTo(NOTIFY_CHANNEL);
    this.disconnectedSince = null;
    this.watch.back();
    await this.rememberPid(sub);
  }

  private async rememberPid(sub: Subscriber): Promise<void> {
    // pg-listen does not expose its client; the connection is found by its application_name.
    void sub;
    try {
      const r = await this.o.pool.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE application_name = $1 ORDER BY backend_start DESC',
        [this.listenerName],
      );
      this.listenerPid = r.rows[0]?.pid ?? null;
    } catch {
      this.listenerPid = null;
    }
  }

  private onNotify(payload: string): void {
    let seq = NaN;
    try {
      seq = Number((JSON.parse(payload) as { seq?: unknown }).seq);
    } catch {
      /* a foreign payload: just catch up */
    }
    if (Number.isFinite(seq) && seq <= this.o.store.seq) return;
    this.trigger();
  }

  get connected(): boolean {
    return this.disconnectedSince === null;
  }

  /** Schedules a catch-up; if one is running, one more runs after it. */
  trigger(): void {
    if (this.closed || !this.o.store.ready) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.o.store.exclusive(() => this.runCatchUp()).finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.trigger();
      }
    });
  }

  /** Catches up now and resolves when done (tests, min-version waits). */
  async syncNow(): Promise<void> {
    this.trigger();
    while (this.running) await this.running;
  }

  private async runCatchUp(): Promise<void> {
    const client = await this.o.pool.connect().catch((e: unknown) => {
      log.warn('sync-catch-up-failed', { error: e });
      return null;
    });
    if (client === null) return;
    try {
      const before = this.o.store.get();
      const next = await catchUp(client, before, this.o.projector);
      if (next !== before && this.o.store.swap(next)) log.debug('metadata-synced', { from: before.seq, to: next.seq });
      client.release();
    } catch (e) {
      client.release(e as Error);
      log.warn('sync-catch-up-failed', { error: e });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    const sub = this.subscriber;
    this.subscriber = null;
    if (sub) await sub.close().catch(() => undefined);
    while (this.running) await this.running;
  }
}
