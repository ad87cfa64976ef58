// The server's settings once parsed (ServerConfig) and their value sets; src/config/settings.ts says how each is
// given, src/config/config.ts parses them.
import type { UserLogType } from '../core/log.js';

export const APIS = ['graphql', 'metadata', 'pgdump', 'config', 'developer', 'metrics'] as const;
export type Api = (typeof APIS)[number];
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const TX_ISOLATIONS = ['read-committed', 'repeatable-read', 'serializable'] as const;
export type TxIsolation = (typeof TX_ISOLATIONS)[number];

export interface ServerConfig {
  /** Unset: start the embedded Postgres under dataDir. Built from pgHost... when those are given instead. */
  databaseUrl?: string;
  /** The database as separate settings (the original's --host --port --user --password --dbname), flags only. */
  pgHost?: string;
  pgPort?: number;
  pgUser?: string;
  pgPassword?: string;
  pgDatabase?: string;
  /** libpq `options` for every connection (e.g. `-c extra_float_digits=3`), with a URL too. */
  pgConnectionOptions?: string;
  /** Runs again on a new connection after a connection error (a query always; a mutation before it was sent). */
  connectionRetries: number;
  /** Isolation level of GraphQL mutations. */
  txIsolation: TxIsolation;
  /** Seconds a pooled connection may stay idle before it is closed (0: never). */
  pgTimeout: number;
  /** Seconds after which a pooled connection is replaced, once idle (0: never). */
  connLifetime: number;
  /** Event invocation logs record the values of headers from environment variables, not the variables' names. */
  logHeadersFromEnv: boolean;
  /** Accepted as the original's, without effect here (Note [Settings without effect]). */
  pgStripes: number;
  enableTelemetry: boolean;
  consoleAssetsDir?: string;
  /** Settings given that have no effect here (or are overridden), with why: start-up says so. */
  unused: Array<{ setting: string; reason: string }>;
  /** `*` means every interface. */
  host: string;
  port: number;
  /** Engine processes on the port (src/cli/cluster.ts); 1: no cluster, this process serves. */
  workers: number;
  adminSecret?: string;
  /** Also opens GET /v1/metrics to `Authorization: Bearer <secret>` (besides admin requests). */
  metricsSecret?: string;
  enabledApis: Api[];
  stringifyNumericTypes: boolean;
  unauthorizedRole?: string;
  /** The JWT configuration object (SPEC 2.8), parsed from JSON; checked further by src/auth. */
  jwtSecret?: Record<string, unknown>;
  authHook?: string;
  authHookMode: 'GET' | 'POST';
  enableAllowlist: boolean;
  /** Serve the web console at /console. */
  enableConsole: boolean;
  liveQueries: { batchSize: number; refetchInterval: number };
  logLevel: LogLevel;
  /** The original's configurable log types that are written (internal ones always are). */
  enabledLogTypes: UserLogType[];
  devMode: boolean;
  adminInternalErrors: boolean;
  corsDomain: string;
  disableCors: boolean;
  /** Read the websocket handshake's cookie (for the auth hook) even when CORS is disabled. */
  wsReadCookie: boolean;
  pgConnections: number;
  queryPlanCacheSize: number;
  eventsFetchInterval: number;
  eventsHttpPoolSize: number;
  /** Scheduled deliveries in flight at most. */
  scheduledEventsHttpPoolSize: number;
  /** Seconds a claimed scheduled event stays claimed without its instance (Note [Scheduled event lease]). */
  scheduledEventsLease: number;
  /** Embedded Postgres: data folder and port. */
  dataDir: string;
  embeddedPgPort: number;
  /** A metadata snapshot is written every this many events. */
  snapshotInterval: number;
  /** Safety-net poll of the metadata log, in ms (LISTEN/NOTIFY is the fast path). */
  syncPollInterval: number;
  /** Longest wait for x-engine-min-metadata-version, in ms. */
  minVersionWait: number;
  /** Project folders applied before serving (migrations, then metadata), as the original's cli-migrations image. */
  migrationsDir?: string;
  metadataDir?: string;
  /** Read replicas (src/replicas): their URLs, each with a pool of this size. */
  readReplicaUrls: string[];
  readReplicaPoolSize: number;
  /** When a read may go to a replica: after this instance's writes (instance), only as asked (header), always (none). */
  replicaConsistency: ReplicaConsistency;
  /** Longest wait (ms) for a replica to reach a read's LSN before the primary serves it. */
  replicaWaitMs: number;
  /** A replica further behind than this (ms) leaves the rotation. */
  replicaMaxLagMs: number;
  /** How often (ms) replica positions and the primary's are read. */
  replicaPollInterval: number;
  /** Named prepared statements (false: unnamed ones, for PgBouncer in transaction mode). */
  usePreparedStatements: boolean;
  /** The session connection(s) that LISTEN (metadata sync, event wake-ups); unset: the database URL. */
  listenDatabaseUrl?: string;
}

export const REPLICA_CONSISTENCY = ['instance', 'header', 'none'] as const;
export type ReplicaConsistency = (typeof REPLICA_CONSISTENCY)[number];

export class ConfigError extends Error {
  override name = 'ConfigError';
}
