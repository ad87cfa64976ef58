// The engine's own sampled metrics, read at scrape time: Postgres pool, plan cache, metadata seq and sync lag,
// the metadata listener, websockets and live-query pollers, the event queue and pending async actions (from their
// tables); plus prom-client's process metrics (CPU, memory, event loop delay).
import { collectDefaultMetrics, Counter } from 'prom-client';
import type pg from 'pg';
import type { EngineMetrics } from '../core/metrics.js';
import { planCacheTotals, planCacheSizes } from '../execute/plan-cache.js';
import type { StateStore } from '../sync/state-store.js';
import type { MetadataSync } from '../sync/listener.js';
import type { WebsocketTransport } from '../subscriptions/server.js';

export interface MetricSources {
  pool: pg.Pool;
  store: StateStore;
  sync(): MetadataSync | null;
  websockets: WebsocketTransport;
}

export function registerRuntimeMetrics(m: EngineMetrics, s: MetricSources): void {
  collectDefaultMetrics({ register: m.registry, prefix: 'engine_' });
  m.sampled('engine_pg_pool_connections', 'Postgres pool connections by state (in_use, idle).', () => [
    [{ state: 'in_use' }, s.pool.totalCount - s.pool.idleCount],
    [{ state: 'idle' }, s.pool.idleCount],
  ], ['state']);
  m.sampled('engine_pg_pool_waiting', 'Requests waiting for a Postgres pool connection.', () => s.pool.waitingCount);
  // Monotonic across metadata changes (each state has its own cache): process-wide totals.
  for (const kind of ['hits', 'misses'] as const) {
    new Counter({
      name: `engine_plan_cache_${kind}_total`,
      help: `Query plan cache ${kind} (plans per query text and per variable shape).`,
      registers: [m.registry],
      collect() {
        this.reset();
        this.inc(planCacheTotals[kind]);
      },
    });
  }
  m.sampled('engine_plan_cache_size', 'Plans cached for the current metadata.', () => {
    const state = s.store.ready ? s.store.get() : null;
    return state === null ? 0 : planCacheSizes(state);
  });
  m.sampled('engine_metadata_seq', 'The metadata version (log seq) this instance serves.', () => Math.max(s.store.seq, 0));
  m.sampled('engine_metadata_log_seq', 'The latest metadata version in the log (the database).', () => latestSeq(s.pool));
  m.sampled('engine_metadata_sync_lag', 'Metadata versions this instance is behind the log.', async () => Math.max((await latestSeq(s.pool)) - Math.max(s.store.seq, 0), 0));
  m.sampled('engine_metadata_inconsistent_objects', 'Inconsistent metadata objects.', () => (s.store.ready ? s.store.get().cache.inconsistent.length : 0));
  m.sampled('engine_metadata_listener_connected', '1 while the LISTEN connection for metadata changes is up.', () => (s.sync()?.connected ? 1 : 0));
  m.sampled('engine_websocket_connections', 'Open websocket connections.', () => s.websockets.connections);
  const live = (k: 'pollers' | 'subscribers' | 'polls') => () => s.websockets.live.stats()[k];
  m.sampled('engine_live_query_pollers', 'Live-query pollers (one per distinct query).', live('pollers'));
  m.sampled('engine_live_query_subscriptions', 'Active live-query subscriptions.', live('subscribers'));
  new Counter({
    name: 'engine_live_query_polls_total', help: 'Live-query refetch rounds.', registers: [m.registry],
    collect() {
      this.reset();
      this.inc(s.websockets.live.stats().polls);
    },
  });
  m.sampled('engine_event_queue_depth', 'Event trigger events waiting for delivery.', () =>
    // Batches not expanded yet are counted by their size, without reading their payloads.
    count(s.pool, `SELECT ((SELECT count(*) FROM engine_catalog.event_log_rows WHERE NOT delivered AND NOT error AND NOT archived)
      + (SELECT coalesce(sum(events), 0) FROM engine_catalog.event_log_batches WHERE NOT archived))::text AS n`));
  m.sampled('engine_async_actions_pending', 'Async action calls not finished yet.', () =>
    count(s.pool, "SELECT count(*)::text AS n FROM engine_catalog.hdb_action_log WHERE status IN ('created', 'processing')"));
}

/** A count from the database at scrape time (NaN when it cannot be read). */
async function count(pool: pg.Pool, text: string): Promise<number> {
  try {
    const r = await pool.query<{ n: string }>(text);
    return Number(r.rows[0]?.n ?? 0);
  } catch {
    return Number.NaN;
  }
}

async function latestSeq(pool: pg.Pool): Promise<number> {
  try {
    const r = await pool.query<{ seq: string | null }>('SELECT max(seq)::text AS seq FROM engine_catalog.metadata_log');
    return Number(r.rows[0]?.seq ?? 0);
  } catch {
    return Number.NaN;
  }
}
