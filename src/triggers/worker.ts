// The delivery worker every instance runs: claims due events (FOR UPDATE SKIP LOCKED, a lease in `locked`),
// POSTs them with at most --events-http-pool-size in flight, records each attempt and its outcome, and on
// shutdown finishes or releases what it holds. At least once: an event is only left once its outcome is stored.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { log } from '../core/log.js';
import { ConnectionWatch } from '../core/connection-watch.js';
import type { Metadata } from '../../projections/metadata.js';
import { eventTriggers } from '../../events/types.js';
import { EVENTS_CHANNEL } from './capture.js';
import { logDelivery, wantsDeliveryLog } from './delivery-log.js';
import { makeAgents, type Agents } from '../core/http-client.js';
import { deliverWebhook } from './webhook.js';
import { Beacon } from './beacon.js';
import { BatchedStore } from './batched-store.js';
import { Waker } from './wake.js';
import { drainInFlight } from './in-flight.js';
import {
  configuredHeaders, decide, invocationRequest, invocationResponse, loggedHeaders, outcomeStatus, timeoutMs, webhookBody, webhookUrl,
  type ClaimedEvent, type Outcome, type TriggerIndex,
} from './payload.js';
import { BEACON_PREFIX, claimEvents, heartbeat, releaseEvents, storeResults, type AttemptResult } from './store.js';
import type { Env } from '../core/env.js';

export interface WorkerOptions {
  pool: pg.Pool;
  connectionString: string;
  metadata: () => Metadata;
  poolSize: number;
  fetchIntervalMs: number;
  /** A claim older than this is taken over (the owner is refreshed every third of it while delivering). */
  leaseMs?: number;
  /** How long shutdown waits for in-flight deliveries before aborting and releasing them. */
  graceMs?: number;
  userAgent: string;
  env?: Env;
  /** Invocation logs show the values of headers from environment variables (--log-headers-from-env). */
  logHeadersFromEnv?: boolean;
}

// Note [Event lease]
// A claim is `locked = now(), locked_by = <worker id>`. It is taken over when it is older than the lease (the
// worker refreshes its claims while it delivers), or at once when no connection named after the worker exists
// any more (`engine-events-<id>` in pg_stat_activity: the worker's LISTEN connection, which lives as long as
// the process does). So a SIGKILLed instance's events are redelivered by the others or by its successor
// without waiting, and two live instances never deliver the same event in normal operation.

export class EventWorker {
  readonly id = randomBytes(8).toString('hex');
  private readonly beacon: Beacon;
  private readonly waker = new Waker();
  private stopping = false;
  private stopped: Promise<void> | null = null;
  private loopDone: Promise<void> | null = null;
  private readonly inFlight = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private readonly outcomes: BatchedStore<AttemptResult>;
  private readonly agents: Agents;
  private readonly leaseMs: number;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private retryTimers = new Set<NodeJS.Timeout>();
  private indexFor: { metadata: Metadata; index: TriggerIndex } | null = null;
  private readonly fetching = new ConnectionWatch('events-fetch', 'fetching events');

  constructor(private readonly o: WorkerOptions) {
    this.agents = makeAgents(o.poolSize);
    this.leaseMs = o.leaseMs ?? 60_000;
    this.beacon = new Beacon({
      connectionString: o.connectionString, name: `${BEACON_PREFIX}${this.id}`, channel: EVENTS_CHANNEL, logType: 'events-listen',
      what: 'event notification connection', onWake: () => this.wake(),
    });
    this.outcomes = new BatchedStore((batch) => storeResults(o.pool, batch), 'events-store');
  }

  async start(): Promise<void> {
    await this.beacon.connect();
    this.heartbeatTimer = setInterval(() => void this.refresh(), Math.max(1000, this.leaseMs / 3));
    this.heartbeatTimer.unref();
    this.loopDone = this.loop();
  }

  /** Stops claiming, lets in-flight deliveries finish (up to the grace period), stores their outcomes, releases the rest. */
  stop(): Promise<void> {
    return (this.stopped ??= this.shutdown());
  }

  private async shutdown(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loopDone;
    await drainInFlight([...this.inFlight.values()], this.o.graceMs ?? 5000);
    await this.outcomes.flush();
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    for (const t of this.retryTimers) clearTimeout(t);
    await this.agents.destroy().catch(() => undefined);
    await this.beacon.close();
  }

  private wake(): void {
    this.waker.wake();
  }

  private triggers(): TriggerIndex {
    const metadata = this.o.metadata();
    if (this.indexFor?.metadata !== metadata) {
      const index: TriggerIndex = new Map(eventTriggers(metadata).map(({ table, trigger }) => [trigger.name, { table, conf: trigger }]));
      this.indexFor = { metadata, index };
    }
    return this.indexFor.index;
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      const free = this.o.poolSize - this.inFlight.size;
      // Claim in batches: with deliveries in flight, wait until a tenth of the pool is free rather than running
      // one claim per finished delivery.
      if (this.inFlight.size > 0 && free < Math.max(1, Math.floor(this.o.poolSize / 10))) {
        await this.waker.sleep(this.o.fetchIntervalMs);
        continue;
      }
      let claimed = 0;
      const index = this.triggers();
      // Without the beacon connection other instances would take our claims over: claim nothing meanwhile.
      if (free > 0 && index.size > 0 && this.beacon.up) {
        try {
          const events = await claimEvents(this.o.pool, { worker: this.id, limit: Math.min(free, 100), triggers: [...index.keys()], leaseMs: this.leaseMs });
          claimed = events.length;
          this.fetching.back();
          for (const e of events) this.deliver(e, index);
        } catch (e) {
          this.fetching.lost();
          log.warn('events-fetch', { message: 'cannot fetch events', error: e });
        }
      }
      if (this.stopping) break;
      // A full batch means more may be waiting: fetch again as soon as there is room.
      if (claimed > 0 && claimed === Math.min(free, 100) && this.inFlight.size < this.o.poolSize) continue;
      await this.waker.sleep(this.o.fetchIntervalMs);
    }
  }

  private deliver(e: ClaimedEvent, index: TriggerIndex): void {
    const abort = new AbortController();
    const done = this.attempt(e, index, abort.signal).then(
      () => undefined,
      (err) => log.error('events-deliver', { message: 'delivery failed unexpectedly', event_id: e.id, error: err }),
    ).finally(() => {
      this.inFlight.delete(e.id);
      // A free slot: the loop may claim again.
      this.wake();
    });
    this.inFlight.set(e.id, { abort, done });
  }

  private async attempt(e: ClaimedEvent, index: TriggerIndex, signal: AbortSignal): Promise<void> {
    const t = index.get(e.trigger_name)!;
    const body = webhookBody(e, t.conf);
    let headers: Array<{ name: string; value: string }> = [];
    let outcome: Outcome;
    const started = process.hrtime.bigint();
    try {
      headers = [{ name: 'User-Agent', value: this.o.userAgent }, ...configuredHeaders(t.conf, this.o.env ?? process.env)];
      const url = webhookUrl(t.conf, this.o.env ?? process.env);
      outcome = await deliverWebhook(url, JSON.stringify(body), headers, timeoutMs(t.conf), this.agents, signal);
    } catch (err) {
      outcome = { kind: 'client_error', message: (err as Error).message };
    }
    if (signal.aborted) {
      // Shutdown cut it short: not an attempt; the event is released for redelivery.
      await releaseEvents(this.o.pool, this.id, [e.id]).catch((err) => log.warn('events-release', { event_id: e.id, error: err }));
      return;
    }
    const d = decide(outcome, e.tries, t.conf.retry_conf);
    if (d.kind === 'retry') this.wakeAt(d.delaySec * 1000);
    if (wantsDeliveryLog()) logDelivery(e, outcome, d, started);
    if (d.kind !== 'delivered') log.debug('events-deliver', { event_id: e.id, trigger: e.trigger_name, status: outcomeStatus(outcome), decision: d.kind });
    this.outcomes.push({
      id: e.id,
      status: outcomeStatus(outcome),
      request: invocationRequest(body, loggedHeaders(t.conf, headers, this.o.logHeadersFromEnv ?? false)),
      response: invocationResponse(outcome),
      delivered: d.kind === 'delivered',
      error: d.kind === 'error',
      retry_in: d.kind === 'retry' ? d.delaySec : null,
    });
    await this.outcomes.flush();
  }

  private wakeAt(ms: number): void {
    const t = setTimeout(() => {
      this.retryTimers.delete(t);
      this.wake();
    }, ms + 20);
    t.unref();
    this.retryTimers.add(t);
  }

  private async refresh(): Promise<void> {
    const ids = [...this.inFlight.keys()];
    if (ids.length === 0) return;
    await heartbeat(this.o.pool, this.id, ids).catch((err) => log.warn('events-heartbeat', { error: err }));
  }
}
