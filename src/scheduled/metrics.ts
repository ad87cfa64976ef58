// Prometheus metrics of scheduled deliveries, beside the engine's own (README, GET /v1/metrics): events due and not
// delivered yet (read at scrape time), events delivered, events failed for good (error: no tries left; dead: past
// their tolerance), and the lateness of first attempts (sent minus scheduled_time), by kind (cron, one_off).
import type pg from 'pg';
import { Counter, Histogram } from 'prom-client';
import type { EngineMetrics } from '../core/metrics.js';
import type { ScheduledKind } from './payload.js';

export interface ScheduledMetrics {
  lateness(kind: ScheduledKind, seconds: number): void;
  finished(kind: ScheduledKind, status: 'delivered' | 'error' | 'dead'): void;
}

const LATENESS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export function registerScheduledMetrics(m: EngineMetrics, pool: pg.Pool): ScheduledMetrics {
  const registers = [m.registry];
  const delivered = new Counter({ name: 'engine_scheduled_events_delivered_total', help: 'Scheduled events delivered, by kind (cron, one_off).', labelNames: ['kind'], registers });
  const failed = new Counter({
    name: 'engine_scheduled_events_failed_total',
    help: 'Scheduled events that failed for good, by kind and status (error: no tries left; dead: past their tolerance).',
    labelNames: ['kind', 'status'],
    registers,
  });
  const lateness = new Histogram({
    name: 'engine_scheduled_event_lateness_seconds',
    help: 'Time from an event\'s scheduled_time to its first delivery attempt, by kind.',
    labelNames: ['kind'],
    buckets: LATENESS_BUCKETS,
    registers,
  });
  m.sampled('engine_scheduled_events_due', 'Scheduled events due and not delivered yet (waiting or being delivered), by kind.', async () => {
    try {
      const r = await pool.query<{ cron: string; one_off: string }>(
        `SELECT (SELECT count(*) FROM engine_catalog.hdb_cron_events
                 WHERE status IN ('scheduled', 'locked') AND coalesce(next_retry_at, scheduled_time) <= now())::text AS cron,
                (SELECT count(*) FROM engine_catalog.hdb_scheduled_events
                 WHERE status IN ('scheduled', 'locked') AND coalesce(next_retry_at, scheduled_time) <= now())::text AS one_off`,
      );
      return [[{ kind: 'cron' }, Number(r.rows[0].cron)], [{ kind: 'one_off' }, Number(r.rows[0].one_off)]];
    } catch {
      return [[{ kind: 'cron' }, Number.NaN], [{ kind: 'one_off' }, Number.NaN]];
    }
  }, ['kind']);
  return {
    lateness: (kind, seconds) => lateness.observe({ kind }, seconds),
    finished: (kind, status) => (status === 'delivered' ? delivered.inc({ kind }) : failed.inc({ kind, status })),
  };
}
