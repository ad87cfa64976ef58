// Multiplexed live-query pollers (SPEC-NOTES-runtime §2.4). One poller per multiplexed SQL text (src/sql/live.ts):
// literals and variables are per-subscriber parameters, so queries that differ only in values share it. Inside a
// poller, subscribers with the same parameter values form a cohort (one row of the batched statement); every
// refetch interval the cohorts go to Postgres `batchSize` rows per statement, and a subscriber is sent a result
// only when its hash differs from the hash of the last result it was sent (results themselves are never kept).
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { EngineError } from '../core/errors.js';
import { log } from '../core/log.js';
import type { LiveQueryPlan } from '../sql/live.js';
import { mapExecutionError } from '../core/pg-errors.js';
import { withRetries } from '../core/connection-retry.js';
import type { ReadRouting } from '../execute/features.js';
import { routeRead, type Sticky } from '../execute/read.js';

/** Where a subscriber's results go. */
export interface LiveSink {
  /** A result: the response JSON text, `{"data":...}`. */
  data(text: string): void;
  /** An execution error (Postgres said no): sent as a result with `data: null` by the transports. */
  error(err: EngineError): void;
}

export interface LiveHandle {
  stop(): void;
  /** Hash of the last thing sent (carried over when a metadata change moves the subscriber to another poller). */
  readonly lastHash: string | null;
}

export interface PollerOptions {
  /** The primary's pool (every poll's, without read replicas). */
  pool: pg.Pool;
  /** Read replicas (src/replicas): where each poll runs. */
  reads?: ReadRouting;
  /** Named prepared statements (false: unnamed, for a transaction-mode pooler). */
  preparedStatements?: boolean;
  batchSize: number;
  intervalMs: number;
  /** A poll whose connection failed is run again on a new one this often (--retries). */
  connectionRetries?: number;
}

/** A subscriber is its own handle: no closures per subscriber (20,000 of them on a busy engine). */
class Subscriber implements LiveHandle {
  stopped = false;

  constructor(
    readonly sink: LiveSink,
    /** Hash of the last result sent. */
    public hash: string | null,
    private readonly cohort: Cohort,
    private readonly poller: Poller,
  ) {}

  get lastHash(): string | null {
    return this.hash;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.poller.remove(this, this.cohort);
  }
}

interface Cohort {
  id: string;
  params: string;
  subs: Set<Subscriber>;
}

const hashOf = (text: string): string => createHash('sha1').update(text).digest('base64');

/** Counters (tests and the bench read them). */
export interface LiveStats {
  pollers: number;
  cohorts: number;
  subscribers: number;
  /** Batched statements run since start. */
  statements: number;
  /** Refetch rounds (one per poller per interval) since start. */
  polls: number;
}

export class LiveQueries {
  private readonly pollers = new Map<string, Poller>();
  statements = 0;
  polls = 0;

  constructor(readonly options: PollerOptions) {}

  /**
   * Adds a subscriber: `params` is the JSON array of its parameter values (resolveParams of the plan's slots);
   * `minLsn` the WAL position its results must reflect (x-engine-min-lsn: from its first result on).
   */
  add(plan: LiveQueryPlan, params: string, sink: LiveSink, lastHash: string | null = null, minLsn = 0): LiveHandle {
    let p = this.pollers.get(plan.text);
    if (p === undefined) {
      p = new Poller(this, plan);
      this.pollers.set(plan.text, p);
    }
    return p.add(params, sink, lastHash, minLsn);
  }

  /** Called by a poller that has no subscribers left. */
  removePoller(text: string, p: Poller): void {
    if (this.pollers.get(text) === p) this.pollers.delete(text);
  }

  stats(): LiveStats {
    let cohorts = 0;
    let subscribers = 0;
    for (const p of this.pollers.values()) {
      cohorts += p.cohorts.size;
      for (const c of p.cohorts.values()) subscribers += c.subs.size;
    }
    return { pollers: this.pollers.size, cohorts, subscribers, statements: this.statements, polls: this.polls };
  }

  /** Stops every poller (server shutdown). */
  close(): void {
    for (const p of [...this.pollers.values()]) p.close();
    this.pollers.clear();
  }
}

class Poller {
  readonly cohorts = new Map<string, Cohort>();
  private nextId = 1;
  private timer: NodeJS.Timeout | null = null;
  /** Cohorts with subscribers that have not had their first result yet. */
  private fresh = new Set<Cohort>();
  private freshScheduled = false;
  /** Runs never overlap: an older result must never overtake a newer one. */
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly name: string | undefined;
  /**
   * With read replicas: the position every poll must reflect (the highest x-engine-min-lsn of its subscribers: no
   * result older than one a subscriber asked for), and the source it polls while that one qualifies.
   */
  private minLsn = 0;
  private readonly sticky: Sticky = {};

  constructor(private readonly owner: LiveQueries, private readonly plan: LiveQueryPlan) {
    this.name = owner.options.preparedStatements === false ? undefined : `l_${createHash('sha1').update(plan.text).digest('base64url').slice(0, 27)}`;
  }

  add(params: string, sink: LiveSink, lastHash: string | null, minLsn: number): LiveHandle {
    if (minLsn > this.minLsn) this.minLsn = minLsn;
    let c = this.cohorts.get(params);
    if (c === undefined) {
      c = { id: String(this.nextId++), params, subs: new Set() };
      this.cohorts.set(params, c);
    }
    const sub = new Subscriber(sink, lastHash, c, this);
    c.subs.add(sub);
    // The first result at once: new subscribers arriving together are fetched together (batched, next turn).
    this.fresh.add(c);
    if (!this.freshScheduled) {
      this.freshScheduled = true;
      setImmediate(() => {
        this.freshScheduled = false;
        const batch = [...this.fresh];
        this.fresh.clear();
        this.enqueue(batch);
      });
    }
    if (this.timer === null) this.schedule();
    return sub;
  }

  /** A stopped subscriber leaves its cohort; the last one closes the poller. */
  remove(sub: Subscriber, cohort: Cohort): void {
    cohort.subs.delete(sub);
    if (cohort.subs.size === 0 && this.cohorts.get(cohort.params) === cohort) this.cohorts.delete(cohort.params);
    if (this.cohorts.size === 0) this.close();
  }

  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.owner.removePoller(this.plan.text, this);
  }

  private schedule(delay = this.owner.options.intervalMs): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      const started = Date.now();
      this.enqueue([...this.cohorts.values()], true).then(() => {
        this.schedule(Math.max(0, this.owner.options.intervalMs - (Date.now() - started)));
      }, () => undefined);
    }, delay);
  }

  private enqueue(cohorts: Cohort[], poll = false): Promise<void> {
    this.chain = this.chain.then(() => this.run(cohorts, poll)).catch((e: unknown) => log.error('live-query-poll', { error: e }));
    return this.chain;
  }

  /** Fetches the given cohorts, `batchSize` per statement, the statements concurrently (the pool bounds them). */
  private async run(cohorts: Cohort[], poll: boolean): Promise<void> {
    const live = cohorts.filter((c) => c.subs.size > 0);
    if (live.length === 0 || this.closed) return;
    // Counted in the same synchronous step as the round's statements (tests compare the two counters).
    if (poll) this.owner.polls++;
    const size = this.owner.options.batchSize;
    const batches: Cohort[][] = [];
    for (let i = 0; i < live.length; i += size) batches.push(live.slice(i, i + size));
    await Promise.all(batches.map((b) => this.runBatch(b)));
  }

  /** One batched statement, on the source the read router picks (the primary's pool without one). */
  private query(ids: string[], vars: string[]): Promise<string[][]> {
    const { pool, reads } = this.owner.options;
    const q = { name: this.name, text: this.plan.text, values: [ids, vars], rowMode: 'array' as const };
    return new Promise((resolve, reject) => {
      routeRead<pg.QueryArrayResult<string[]>>(reads, pool, this.minLsn, (p, cb) => void p.query<string[]>(q, cb), (e, r) => (e ? reject(e) : resolve(r.rows)), this.sticky);
    });
  }

  private async runBatch(batch: Cohort[]): Promise<void> {
    const ids = batch.map((c) => c.id);
    const vars = batch.map((c) => c.params);
    this.owner.statements++;
    let rows: string[][];
    try {
      // A poll whose connection was lost or refused runs again on a new one (--retries).
      rows = await withRetries({ retries: this.owner.options.connectionRetries ?? 0 }, () => this.query(ids, vars));
    } catch (e) {
      const err = mapExecutionError(e, { text: this.plan.text, values: [ids, vars] });
      const h = hashOf(`error:${err.code}:${err.message}`);
      for (const c of batch) deliver(c, h, (s) => s.sink.error(err));
      return;
    }
    const byId = new Map(batch.map((c) => [c.id, c]));
    for (const [id, result] of rows) {
      const c = byId.get(id);
      if (c === undefined) continue;
      const text = `{"data":${result ?? 'null'}}`;
      deliver(c, hashOf(text), (s) => s.sink.data(text));
    }
  }
}

function deliver(c: Cohort, hash: string, send: (s: Subscriber) => void): void {
  for (const s of c.subs) {
    if (s.hash === hash || s.stopped) continue;
    s.hash = hash;
    try {
      send(s);
    } catch (e) {
      log.error('live-query-send', { error: e });
    }
  }
}
