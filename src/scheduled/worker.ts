// The scheduled-delivery worker every instance runs: it sleeps until the next event it may claim is due (on the
// database's clock; a NOTIFY on engine_scheduled wakes it when an event is created or generated, the fetch
// interval is the fallback), claims due cron and one-off events (FOR UPDATE SKIP LOCKED, a lease), POSTs them
// with at most --scheduled-events-http-pool-size in flight, stores each attempt and its outcome, and tops the cron
// triggers up to 100 upcoming events. On shutdown it finishes or gives back what it holds.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { log } from '../core/log.js';
import type { Metadata } from '../../projections/metadata.js';
import type { CronTriggerMeta } from '../../events/cron-triggers.js';
import { cronTriggers } from '../../events/types.js';
import { makeAgents, type Agents } from '../core/http-client.js';
import { deliverWebhook } from '../triggers/webhook.js';
import { Beacon } from '../triggers/beacon.js';
import { BatchedStore } from '../triggers/batched-store.js';
import { Waker } from '../triggers/wake.js';
import { drainInFlight, type InFlightDelivery } from '../triggers/in-flight.js';
import type { Outcome } from '../triggers/payload.js';
import { topUpCronEvents } from './catalog.js';
import { logScheduledDelivery, wantsScheduledLog } from './delivery-log.js';
import type { ScheduledMetrics } from './metrics.js';
import {
  deliveryOf, headerValues, invocationRequest, invocationResponse, isDead, outcomeStatus, settle, webhookUrl,
  type ClaimedRow, type Env, type ScheduledDelivery, type ScheduledKind,
} from './payload.js';
import {
  claimDue, heartbeat, nextDueInMs, recoverClaims, releaseClaims, SCHEDULED_BEACON_PREFIX, SCHEDULED_CHANNEL, storeOutcomes,
  type StoredOutcome,
} from './store.js';

export interface ScheduledWorkerOptions {
  pool: pg.Pool;
  connectionString: string;
  metadata: () => Metadata;
  /** Deliveries in flight at most. */
  poolSize: number;
  /** Longest sleep between looks at the tables (NOTIFY and the next due time wake it sooner). */
  pollMs: number;
  /** A claim older than this is taken over (the owner refreshes its claims every third of it while delivering). */
  leaseMs: number;
  /** How often the cron triggers are topped up to 100 upcoming events (default 60 s). */
  generateEveryMs?: number;
  /** How long shutdown waits for in-flight deliveries before aborting and releasing them. */
  graceMs?: number;
  userAgent: string;
  metrics?: ScheduledMetrics;
  env?: Env;
}

// Note [Scheduled event lease]
// A claim is `status = 'locked', locked_at = <claim time>, locked_by = <worker id>`, taken in the claiming UPDATE
// (FOR UPDATE SKIP LOCKED, so two workers never claim one event). It ends with the attempt's outcome (delivered,
// error, dead, or scheduled again for a retry), stored together with its invocation log row. A claim is made
// claimable again, and nothing else is (no blind unlock at start-up), when its worker has no connection named
// `engine-scheduled-<id>` any more (the worker's LISTEN connection lives as long as its process: a SIGKILLed
// instance's events are taken over within a fetch interval) or when it is older than the lease
// (--scheduled-events-lease, 60 s by default; the worker refreshes its claims every third of it while the webhook
// call runs, so a slow webhook is not taken over). A worker whose LISTEN connection is down claims nothing.

/** Claims per statement; a tenth of the pool must be free before claiming again while deliveries run. */
const CLAIM_BATCH = 100;
/** Shortest sleep when events are due but none could be claimed (another worker is claiming them). */
const MIN_SLEEP_MS = 5;

interface InFlight extends InFlightDelivery {
  kind: ScheduledKind;
}

export class ScheduledWorker {
  readonly id = randomBytes(8).toString('hex');
  private readonly beacon: Beacon;
  private readonly waker = new Waker();
  private stopping = false;
  private stopped: Promise<void> | null = null;
  private loopDone: Promise<void> | null = null;
  private readonly inFlight = new Map<string, InFlight>();
  private readonly outcomes: BatchedStore<StoredOutcome>;
  private readonly agents: Agents;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private generatorTimer: NodeJS.Timeout | null = null;
  private generating: Promise<void> | null = null;
  private lastRecovery = 0;
  /** Claims in a row that found due events but got none (the back-off of round()). */
  private emptyClaims = 0;
  private cronFirst = false;
  private cronsFor: { metadata: Metadata; crons: Map<string, CronTriggerMeta> } | null = null;

  constructor(private readonly o: ScheduledWorkerOptions) {
    this.agents = makeAgents(o.poolSize);
    this.beacon = new Beacon({
      connectionString: o.connectionString, name: `${SCHEDULED_BEACON_PREFIX}${this.id}`, channel: SCHEDULED_CHANNEL, logType: 'scheduled-listen', what: 'scheduled event notification connection',
      onWake: () => this.wake(),
    });
    this.outcomes = new BatchedStore((batch) => storeOutcomes(o.pool, this.id, batch), 'scheduled-store');
  }

  async start(): Promise<void> {
    await this.beacon.connect();
    this.heartbeatTimer = setInterval(() => void this.refresh(), Math.max(250, this.o.leaseMs / 3));
    this.heartbeatTimer.unref();
    this.generatorTimer = setInterval(() => void this.generate(), this.o.generateEveryMs ?? 60_000);
    this.generatorTimer.unref();
    void this.generate();
    this.loopDone = this.loop();
  }

  /** Stops claiming, lets in-flight deliveries finish (up to the grace period), stores their outcomes, releases the rest. */
  stop(): Promise<void> {
    return (this.stopped ??= this.shutdown());
  }

  private async shutdown(): Promise<void> {
    this.stopping = true;
    this.wake();
    if (this.generatorTimer) clearInterval(this.generatorTimer);
    await this.loopDone;
    await this.generating;
    await drainInFlight([...this.inFlight.values()], this.o.graceMs ?? 5000);
    await this.outcomes.flush();
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    await this.agents.destroy().catch(() => undefined);
    await this.beacon.close();
  }

  private wake(): void {
    this.waker.wake();
  }

  /** The cron triggers this instance serves, by name. */
  private crons(): Map<string, CronTriggerMeta> {
    const metadata = this.o.metadata();
    if (this.cronsFor?.metadata !== metadata) this.cronsFor = { metadata, crons: new Map(cronTriggers(metadata).map((c) => [c.name, c])) };
    return this.cronsFor.crons;
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let sleepMs = this.o.pollMs;
      try {
        sleepMs = await this.round();
      } catch (e) {
        log.warn('scheduled-fetch', { message: 'cannot fetch scheduled events', error: e });
      }
      if (this.stopping) break;
      if (sleepMs > 0) await this.waker.sleep(sleepMs);
    }
  }

  /**
   * One look at the tables: take over stale claims, claim and start what is due; returns how long to sleep. The
   * look-ups that run while nothing is due (stale claims, the next due time) go over the worker's own LISTEN
   * connection: an idle instance takes nothing from the requests' pool.
   */
  private async round(): Promise<number> {
    const own = this.beacon.connection;
    // Without the beacon connection other instances would take our claims over: claim nothing meanwhile.
    if (own === null) return this.o.pollMs;
    const names = [...this.crons().keys()];
    if (Date.now() - this.lastRecovery >= this.o.pollMs) {
      this.lastRecovery = Date.now();
      await recoverClaims(own, this.o.leaseMs);
    }
    const free = this.o.poolSize - this.inFlight.size;
    // With deliveries in flight, claim once a tenth of the pool is free rather than once per finished delivery.
    if (this.inFlight.size > 0 && free < Math.max(1, Math.floor(this.o.poolSize / 10))) return this.o.pollMs;
    // Claim only what is due (the pool is the requests' too): else sleep until the next due time.
    const next = await nextDueInMs(own, names);
    if (next === null) return this.o.pollMs;
    if (next > 0) return Math.min(this.o.pollMs, Math.max(MIN_SLEEP_MS, Math.ceil(next)));
    const limit = Math.min(free, CLAIM_BATCH);
    let claimed = 0;
    // Neither kind starves the other: they take turns at claiming first.
    this.cronFirst = !this.cronFirst;
    const kinds: ScheduledKind[] = this.cronFirst ? ['cron', 'one_off'] : ['one_off', 'cron'];
    for (const kind of kinds) {
      if (claimed >= limit || (kind === 'cron' && names.length === 0)) continue;
      const rows = await claimDue(this.o.pool, kind, this.id, limit - claimed, names);
      claimed += rows.length;
      for (const row of rows) this.deliver(row);
    }
    // Something was claimed: look again at once (more may be due). Nothing: the due events are being claimed by
    // another instance right now (or held by someone's open transaction): look again in a moment, then less often.
    this.emptyClaims = claimed > 0 ? 0 : this.emptyClaims + 1;
    return claimed > 0 ? 0 : Math.min(this.o.pollMs, MIN_SLEEP_MS * 2 ** Math.min(this.emptyClaims, 10));
  }

  private deliver(row: ClaimedRow): void {
    const abort = new AbortController();
    const key = `${row.kind}:${row.id}`;
    const done = this.attempt(row, abort.signal).then(
      () => undefined,
      (err) => log.error('scheduled-deliver', { message: 'delivery failed unexpectedly', event_id: row.id, error: err }),
    ).finally(() => {
      this.inFlight.delete(key);
      // A free slot, and maybe a retry to wait for: the loop looks again.
      this.wake();
    });
    this.inFlight.set(key, { kind: row.kind, abort, done });
  }

  private async attempt(row: ClaimedRow, signal: AbortSignal): Promise<void> {
    const d = deliveryOf(row, this.crons());
    if (d === null) {
      // The trigger left this instance's metadata after the claim: its events go with it (or another instance has it).
      await releaseClaims(this.o.pool, this.id, row.kind, [row.id]).catch((err) => log.warn('scheduled-release', { event_id: row.id, error: err }));
      return;
    }
    const started = process.hrtime.bigint();
    if (isDead(d)) {
      this.o.metrics?.finished(row.kind, 'dead');
      if (wantsScheduledLog()) logScheduledDelivery(d, null, 'dead', started);
      this.record({ kind: row.kind, id: row.id, status: 'dead', retry_in: null, log: null });
      return;
    }
    if (row.tries === 0) this.o.metrics?.lateness(row.kind, Math.max(0, Date.now() - row.due_ms) / 1000);
    const outcome = await this.call(d, signal);
    if (signal.aborted) {
      // Shutdown cut it short: not an attempt; the event is given back for another instance or the next start.
      await releaseClaims(this.o.pool, this.id, row.kind, [row.id]).catch((err) => log.warn('scheduled-release', { event_id: row.id, error: err }));
      return;
    }
    const settled = settle(outcome, row.tries, d.retry);
    if (settled.status !== 'scheduled') this.o.metrics?.finished(row.kind, settled.status);
    if (wantsScheduledLog()) logScheduledDelivery(d, outcome, settled.status === 'scheduled' ? 'retry' : settled.status, started);
    this.record({
      kind: row.kind,
      id: row.id,
      status: settled.status,
      retry_in: settled.status === 'scheduled' ? settled.retryIn : null,
      log: { status: outcomeStatus(outcome), request: invocationRequest(d, this.o.userAgent), response: invocationResponse(outcome) },
    });
  }

  /**
   * Queues an outcome for the next store. The delivery's slot is free at once (the claim stays in the table until
   * the outcome is stored, and shutdown stores what is queued): waiting for the store would cap deliveries at what
   * completes during one store round trip.
   */
  private record(outcome: StoredOutcome): void {
    this.outcomes.push(outcome);
    void this.outcomes.flush().then(() => this.wake());
  }

  /** One POST; an unset environment variable is a client error of the attempt (status 1000), as a refused connection. */
  private async call(d: ScheduledDelivery, signal: AbortSignal): Promise<Outcome> {
    const env = this.o.env ?? process.env;
    try {
      const headers = [{ name: 'User-Agent', value: this.o.userAgent }, ...headerValues(d.headers, env)];
      return await deliverWebhook(webhookUrl(d.webhook, env), JSON.stringify(d.body), headers, d.retry.timeout_seconds * 1000, this.agents, signal);
    } catch (err) {
      return { kind: 'client_error', message: (err as Error).message };
    }
  }

  private async refresh(): Promise<void> {
    if (this.inFlight.size === 0) return;
    const ids: Record<ScheduledKind, string[]> = { cron: [], one_off: [] };
    for (const [key, x] of this.inFlight) ids[x.kind].push(key.slice(x.kind.length + 1));
    await heartbeat(this.o.pool, this.id, ids).catch((err) => log.warn('scheduled-heartbeat', { error: err }));
  }

  /** The generator's round (on the worker's own connection), never two at once in one instance. */
  private generate(): Promise<void> {
    const own = this.beacon.connection;
    if (this.generating || this.stopping || own === null) return this.generating ?? Promise.resolve();
    this.generating = topUpCronEvents(own, this.o.metadata()).then(
      () => undefined,
      // The round failed: the next round (or another instance's) tops up.
      (e) => log.warn('scheduled-generate', { message: 'cannot generate cron events', error: e }),
    ).finally(() => (this.generating = null));
    return this.generating;
  }
}
