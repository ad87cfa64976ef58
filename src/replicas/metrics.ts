// The read replicas' metrics, read at scrape time: per replica its lag, its state and the reads routed to it; the
// reads the primary served and why; the reads retried after their replica went away.
import { Counter } from 'prom-client';
import type { EngineMetrics } from '../core/metrics.js';
import { REPLICA_STATES } from './replica.js';
import type { FallbackReason, ReplicaSet } from './replica-set.js';

/** A counter whose values are the given totals at scrape time. */
function totals(m: EngineMetrics, name: string, help: string, labelNames: string[], read: () => Array<[Record<string, string>, number]>): void {
  new Counter({
    name,
    help,
    labelNames,
    registers: [m.registry],
    collect() {
      this.reset();
      for (const [labels, n] of read()) if (n > 0) this.inc(labels, n);
    },
  });
}

export function registerReplicaMetrics(m: EngineMetrics, set: ReplicaSet): void {
  m.sampled('engine_read_replica_lag_seconds', 'How far each read replica is behind the primary (seconds, at the last health poll).',
    () => set.replicas.map((r) => [{ replica: r.name }, r.lagMs / 1000]), ['replica']);
  m.sampled('engine_read_replica_state', 'Each read replica\'s state (1 for the current one): up (in rotation), lagging, down, starting.',
    () => set.replicas.flatMap((r) => REPLICA_STATES.map((s): [Record<string, string>, number] => [{ replica: r.name, state: s }, r.state === s ? 1 : 0])),
    ['replica', 'state']);
  m.sampled('engine_read_replica_replayed_lsn_bytes', 'Each read replica\'s replayed WAL position (bytes), and the primary\'s newest.',
    () => [[{ replica: 'primary' }, set.history.latest], ...set.replicas.map((r): [Record<string, string>, number] => [{ replica: r.name }, r.replayed])],
    ['replica']);
  totals(m, 'engine_read_queries_total', 'Reads (queries, live-query polls, explains) routed, by source: a replica, or the primary.', ['source'],
    () => [[{ source: 'primary' }, set.primary.routed], ...set.replicas.map((r): [Record<string, string>, number] => [{ source: r.name }, r.routed])]);
  totals(m, 'engine_read_primary_fallbacks_total',
    'Reads the primary served, by why: no-replica (none in rotation), behind (all too far behind to wait for), waited (none caught up in --replica-wait-ms), schema (new metadata, Note [Schema floor]), retry (a replica went away under the read).',
    ['reason'], () => (Object.entries(set.fallbacks) as Array<[FallbackReason, number]>).map(([reason, n]) => [{ reason }, n]));
  totals(m, 'engine_read_retries_total', 'Reads tried again on another source after theirs went away (the client saw no error).', [],
    () => [[{}, set.retries]]);
}
