// The health poll's connection to one server (a replica, or the primary): one client kept open between polls and
// opened again after a failure, as a one-connection pool would, without a pool's checkout per query. The poll reads
// every server ten times a second by default; through pg.Pool each read also cost a promise, a tick, a connection
// timer set and cleared, an idle timer set and cleared and an error listener added and removed, code that runs too
// seldom to be optimized: a router's poll cost about as much CPU as its reads.
import pg from 'pg';

export interface ProbeSettings {
  url: string;
  applicationName: string;
  connectionTimeoutMillis: number;
}

export class Probe {
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private closed = false;
  /** Reads in flight: an error then is theirs (as a pool reports only its idle clients' errors). */
  private active = 0;

  /** `onError`: the connection failed while idle (a pool's 'error' event). */
  constructor(private readonly s: ProbeSettings, private readonly onError: (e: Error) => void) {}

  /** The rows of `text` (no parameters); a failed read closes the connection (the next one opens a new one). */
  async query<R>(text: string): Promise<R[]> {
    const c = this.client ?? (await this.connect());
    this.active++;
    try {
      return (await c.query<R & pg.QueryResultRow>(text)).rows;
    } catch (e) {
      this.drop(c);
      throw e;
    } finally {
      this.active--;
    }
  }

  private connect(): Promise<pg.Client> {
    if (this.closed) return Promise.reject(new Error('Cannot use a pool after calling end on the pool'));
    return (this.connecting ??= this.open().finally(() => (this.connecting = null)));
  }

  private async open(): Promise<pg.Client> {
    const c = new pg.Client({ connectionString: this.s.url, application_name: this.s.applicationName, connectionTimeoutMillis: this.s.connectionTimeoutMillis });
    // An error of the connection between reads (a server shut down): it is dropped, the next read opens another.
    c.on('error', (e) => {
      if (this.drop(c) && this.active === 0) this.onError(e);
    });
    try {
      await c.connect();
    } catch (e) {
      void c.end().catch(() => undefined);
      throw e;
    }
    if (this.closed) {
      void c.end().catch(() => undefined);
      throw new Error('Cannot use a pool after calling end on the pool');
    }
    this.client = c;
    return c;
  }

  /** Forgets and closes `c` if it is the current client; true if it was. */
  private drop(c: pg.Client): boolean {
    if (this.client !== c) return false;
    this.client = null;
    void c.end().catch(() => undefined);
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.connecting?.catch(() => undefined);
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => undefined);
  }
}
