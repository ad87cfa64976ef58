// What the HTTP layer needs from the running engine (built by src/main.ts).
import type pg from 'pg';
import type { ServerConfig } from '../config/config.js';
import type { AuthConfig } from '../auth/config.js';
import type { AuthRuntime } from '../auth/resolve.js';
import type { StateStore } from '../sync/state-store.js';
import type { MetadataSync } from '../sync/listener.js';
import type { WriteContext } from '../metadata/write.js';
import type { EngineMetrics } from '../core/metrics.js';
import type { ExecutorFeatures, ReadRouting } from '../execute/features.js';

export interface Runtime {
  config: ServerConfig;
  pool: pg.Pool;
  store: StateStore;
  sync: MetadataSync | null;
  write: WriteContext;
  /** What actions and remote schemas add to the role schemas and the executor (src/features.ts). */
  features: ExecutorFeatures;
  instanceId: string;
  /** The database this instance uses (given, or the embedded server's). */
  databaseUrl: string;
  authConfig: AuthConfig;
  auth: AuthRuntime;
  /** This instance's Prometheus metrics (GET /v1/metrics); features register theirs on metrics.registry. */
  metrics: EngineMetrics;
  /** Read replicas (src/replicas): where reads run; undefined when none is configured. */
  reads?: ReadRouting;
}
