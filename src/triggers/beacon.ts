// A delivery worker's LISTEN connection, named after the worker (`application_name` = prefix + worker id): it wakes
// the worker on its channel's NOTIFY and, for as long as the process lives, tells the other instances that the
// worker's claims are held (Note [Event lease], Note [Scheduled event lease]). It reconnects when it drops; while it
// is down the worker claims nothing.
import pg from 'pg';
import { log } from '../core/log.js';
import { ConnectionWatch } from '../core/connection-watch.js';

export interface BeaconOptions {
  connectionString: string;
  /** The connection's application_name. */
  name: string;
  channel: string;
  /** Log type of its connection lines (`events-listen`, ...). */
  logType: string;
  /** The connection, as its lines name it (`event notification connection`). */
  what: string;
  /** A notification arrived, or the connection is back (the worker looks at its table again). */
  onWake: () => void;
}

export class Beacon {
  private client: pg.Client | null = null;
  private closed = false;
  private readonly watch: ConnectionWatch;

  constructor(private readonly o: BeaconOptions) {
    this.watch = new ConnectionWatch(o.logType, o.what);
  }

  /** Whether the connection is up (other instances see the worker alive). */
  get up(): boolean {
    return this.client !== null;
  }

  /** The connection while it is up: the worker may run its own small look-ups on it (never a request's pool). */
  get connection(): pg.Client | null {
    return this.client;
  }

  async connect(): Promise<void> {
    const c = new pg.Client({ connectionString: this.o.connectionString, application_name: this.o.name });
    c.on('error', (e) => {
      if (this.client !== c) return;
      log.warn(this.o.logType, { message: `${this.o.what} lost, reconnecting`, error: e });
      this.watch.lost();
      this.client = null;
      void c.end().catch(() => undefined);
      void this.reconnect();
    });
    c.on('notification', () => this.o.onWake());
    await c.connect();
    await c.query(`LISTEN ${this.o.channel}`);
    this.client = c;
  }

  private async reconnect(): Promise<void> {
    for (let attempt = 1; !this.closed; attempt++) {
      await new Promise((r) => setTimeout(r, Math.min(200 * attempt, 2000)));
      try {
        await this.connect();
        this.watch.back();
        this.o.onWake();
        return;
      } catch (e) {
        log.debug(this.o.logType, { message: 'reconnect failed', error: e });
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.client?.end().catch(() => undefined);
    this.client = null;
  }
}
