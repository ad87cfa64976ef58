// Read replicas as start-up makes them: a pool per --read-replica-url, the routing set, its health poll and metrics,
// one start-up line per replica (no secrets). Null when no replica is configured: reads stay on the primary.
import type pg from 'pg';
import { log } from '../core/log.js';
import type { EngineMetrics } from '../core/metrics.js';
import { poolTimesOf, type ServerConfig } from '../config/config.js';
import { redactUrl } from '../config/startup-log.js';
import { HealthPoll } from './health.js';
import { registerReplicaMetrics } from './metrics.js';
import { Replica, replicaName } from './replica.js';
import { ReplicaSet } from './replica-set.js';

export interface ReadReplicas {
  routing: ReplicaSet;
  /** Polls once, then keeps polling. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface ReplicaWiring {
  config: ServerConfig;
  primary: pg.Pool;
  primaryUrl: string;
  instanceId: string;
  metrics: EngineMetrics;
  /** The state store's swaps raise the schema floor (Note [Schema floor], replica-set.ts). */
  onSwap(listener: () => void): () => void;
}

export function readReplicas(w: ReplicaWiring): ReadReplicas | null {
  const { config } = w;
  if (config.readReplicaUrls.length === 0) return null;
  const names = new Map<string, number>();
  const replicas = config.readReplicaUrls.map((url, i) => {
    const base = replicaName(url);
    const n = (names.get(base) ?? 0) + 1;
    names.set(base, n);
    const name = n === 1 ? base : `${base}#${n}`;
    log.info('startup', { kind: 'read_replica', info: { replica: name, index: i, url: redactUrl(url), pool_size: config.readReplicaPoolSize } });
    return new Replica({ url, name, poolSize: config.readReplicaPoolSize, applicationName: `engine-read-${w.instanceId}`.slice(0, 63), poolTimes: poolTimesOf(config) });
  });
  const routing = new ReplicaSet({ primary: w.primary, replicas, consistency: config.replicaConsistency, waitMs: config.replicaWaitMs });
  const health = new HealthPoll(routing, {
    primaryUrl: w.primaryUrl, applicationName: `engine-replica-poll-${w.instanceId}`.slice(0, 63), intervalMs: config.replicaPollInterval, maxLagMs: config.replicaMaxLagMs,
  });
  registerReplicaMetrics(w.metrics, routing);
  const unlisten = w.onSwap(() => routing.stateSwapped());
  return {
    routing,
    start: () => health.start(),
    async close() {
      unlisten();
      routing.close();
      await health.close();
      await Promise.all(replicas.map((r) => r.close()));
    },
  };
}
