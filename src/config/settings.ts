// The table of settings: each one's flag, ENGINE_GRAPHQL_* variables, kind, zod schema, default and help.
import { z } from 'zod';
import { DEFAULT_LOG_TYPES, USER_LOG_TYPES } from '../core/log.js';
import { LOG_LEVELS, REPLICA_CONSISTENCY, TX_ISOLATIONS, APIS, type ServerConfig } from './server-config.js';

export type SettingKind = 'string' | 'int' | 'bool' | 'enum' | 'list' | 'urls' | 'json';

export interface SettingDef {
  key: Exclude<keyof ServerConfig, 'unused'> | 'liveQueries.batchSize' | 'liveQueries.refetchInterval';
  flag: string;
  /** Empty: a flag only (as the original's database settings). */
  env: string[];
  kind: SettingKind;
  /** Zod schema for the converted value. */
  schema: z.ZodTypeAny;
  default?: unknown;
  help: string;
  /** Accepted without effect here, and why (Note [Settings without effect]). */
  noEffect?: string;
  /** The flag may be given more than once (a `urls` setting: each adds one). */
  repeatable?: boolean;
}

const E = (name: string): string => `ENGINE_GRAPHQL_${name}`;
const postgresUrl = z.string().regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://');
const int = (min: number, max: number) => z.number().int().min(min).max(max);
const SECONDS_IN_A_YEAR = 31_536_000;

// Note [Settings without effect]
// The original's --stripes (sub-pools of its connection pool), --enable-telemetry and --console-assets-dir (its
// console loaded from a CDN unless told otherwise) have no counterpart here: one pool, no telemetry, a console
// bundled with the engine. A configuration written for the original sets them; it starts as it did, and start-up
// says which of them were given and that they do nothing.

export const SETTINGS: SettingDef[] = [
  { key: 'databaseUrl', flag: 'database-url', env: [E('DATABASE_URL'), 'DATABASE_URL'], kind: 'string',
    schema: postgresUrl,
    help: 'Postgres URL (postgres://user:pass@host:port/db). Unset: start the embedded Postgres.' },
  { key: 'pgHost', flag: 'host', env: [], kind: 'string', schema: z.string().min(1),
    help: 'Postgres host; with --port, --user and --dbname (and --password) instead of a database URL.' },
  { key: 'pgPort', flag: 'port', env: [], kind: 'int', schema: int(1, 65535), help: 'Postgres port (see --host).' },
  { key: 'pgUser', flag: 'user', env: [], kind: 'string', schema: z.string().min(1), help: 'Postgres user (see --host).' },
  { key: 'pgPassword', flag: 'password', env: [], kind: 'string', schema: z.string(), help: 'Password of the Postgres user (see --host).' },
  { key: 'pgDatabase', flag: 'dbname', env: [], kind: 'string', schema: z.string().min(1), help: 'Postgres database name (see --host).' },
  { key: 'pgConnectionOptions', flag: 'pg-connection-options', env: [], kind: 'string', schema: z.string().min(1),
    help: "Postgres connection options for every connection, e.g. '-c extra_float_digits=3' (with a database URL too)." },
  { key: 'connectionRetries', flag: 'retries', env: [E('NO_OF_RETRIES')], kind: 'int', schema: int(0, 100), default: 1,
    help: 'Retries, on a new connection, of a request whose database connection was refused or lost (a query always, a mutation only when nothing of it was sent).' },
  { key: 'txIsolation', flag: 'tx-iso', env: [E('TX_ISOLATION')], kind: 'enum', schema: z.enum(TX_ISOLATIONS), default: 'read-committed',
    help: 'Transaction isolation of GraphQL mutations: read-committed, repeatable-read or serializable.' },
  { key: 'pgTimeout', flag: 'timeout', env: [E('PG_TIMEOUT')], kind: 'int', schema: int(0, SECONDS_IN_A_YEAR), default: 180,
    help: 'Seconds a pooled Postgres connection may stay idle before it is closed (0: never).' },
  { key: 'connLifetime', flag: 'conn-lifetime', env: [E('PG_CONN_LIFETIME')], kind: 'int', schema: int(0, SECONDS_IN_A_YEAR), default: 600,
    help: 'Seconds after which a pooled Postgres connection is closed (once idle) and a new one made (0: never).' },
  { key: 'logHeadersFromEnv', flag: 'log-headers-from-env', env: [E('LOG_HEADERS_FROM_ENV')], kind: 'bool', schema: z.boolean(), default: false,
    help: 'Event invocation logs show the values of headers taken from environment variables (default: the variable names).' },
  { key: 'pgStripes', flag: 'stripes', env: [E('PG_STRIPES')], kind: 'int', schema: int(1, 10_000), default: 1,
    help: 'Accepted for the original\'s configurations; no effect (one connection pool).', noEffect: 'the engine keeps one connection pool' },
  { key: 'enableTelemetry', flag: 'enable-telemetry', env: [E('ENABLE_TELEMETRY')], kind: 'bool', schema: z.boolean(), default: true,
    help: 'Accepted for the original\'s configurations; no effect (the engine sends no telemetry).', noEffect: 'the engine sends no telemetry' },
  { key: 'consoleAssetsDir', flag: 'console-assets-dir', env: [E('CONSOLE_ASSETS_DIR')], kind: 'string', schema: z.string().min(1),
    help: 'Accepted for the original\'s configurations; no effect (the console is bundled and served by the engine).',
    noEffect: 'the console is bundled and served by the engine' },
  { key: 'host', flag: 'server-host', env: [E('SERVER_HOST')], kind: 'string', schema: z.string().min(1), default: '*',
    help: 'Interface to listen on (* = all).' },
  { key: 'port', flag: 'server-port', env: [E('SERVER_PORT')], kind: 'int', schema: int(0, 65535), default: 8080,
    help: 'HTTP port (0 = any free port).' },
  { key: 'workers', flag: 'workers', env: [E('WORKERS')], kind: 'int', schema: int(1, 64), default: 1,
    help: 'Engine processes serving the port (node:cluster), each a full instance with its own pools; 1: this process serves.' },
  { key: 'adminSecret', flag: 'admin-secret', env: [E('ADMIN_SECRET'), E('ACCESS_KEY')], kind: 'string', schema: z.string().min(1),
    help: 'Admin secret; requests must send it in X-Engine-Admin-Secret (--access-key: its deprecated name).' },
  { key: 'metricsSecret', flag: 'metrics-secret', env: [E('METRICS_SECRET')], kind: 'string', schema: z.string().min(1),
    help: 'Secret for GET /v1/metrics, sent as Authorization: Bearer <secret> (admin requests are always allowed).' },
  { key: 'enabledApis', flag: 'enabled-apis', env: [E('ENABLED_APIS')], kind: 'list', schema: z.array(z.enum(APIS)).min(1),
    default: ['metadata', 'graphql', 'pgdump', 'config', 'metrics'], help: 'Comma-separated APIs to serve: graphql,metadata,pgdump,config,metrics.' },
  { key: 'stringifyNumericTypes', flag: 'stringify-numeric-types', env: [E('STRINGIFY_NUMERIC_TYPES')], kind: 'bool',
    schema: z.boolean(), default: false, help: 'Return bigint, numeric and double precision values as strings.' },
  { key: 'unauthorizedRole', flag: 'unauthorized-role', env: [E('UNAUTHORIZED_ROLE')], kind: 'string', schema: z.string().min(1),
    help: 'Role for requests without credentials (needs an admin secret, not with an auth hook).' },
  { key: 'jwtSecret', flag: 'jwt-secret', env: [E('JWT_SECRET')], kind: 'json', schema: z.record(z.unknown()),
    help: 'JWT configuration as JSON ({"type","key"} or {"jwk_url"}, claims_namespace, ...).' },
  { key: 'authHook', flag: 'auth-hook', env: [E('AUTH_HOOK')], kind: 'string', schema: z.string().url(),
    help: 'Authentication webhook URL.' },
  { key: 'authHookMode', flag: 'auth-hook-mode', env: [E('AUTH_HOOK_MODE'), E('AUTH_HOOK_TYPE')], kind: 'enum',
    schema: z.enum(['GET', 'POST']), default: 'GET', help: 'HTTP method for the auth hook: GET or POST.' },
  { key: 'enableAllowlist', flag: 'enable-allowlist', env: [E('ENABLE_ALLOWLIST')], kind: 'bool', schema: z.boolean(),
    default: false, help: 'Only allow queries in the allow-list (non-admin roles).' },
  { key: 'enableConsole', flag: 'enable-console', env: [E('ENABLE_CONSOLE')], kind: 'bool', schema: z.boolean(),
    default: true, help: 'Serve the web console at /console (same port).' },
  { key: 'liveQueries.batchSize', flag: 'live-queries-multiplexed-batch-size', env: [E('LIVE_QUERIES_MULTIPLEXED_BATCH_SIZE')],
    kind: 'int', schema: int(1, 1_000_000), default: 100, help: 'Live queries multiplexed per SQL statement.' },
  { key: 'liveQueries.refetchInterval', flag: 'live-queries-multiplexed-refetch-interval',
    env: [E('LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL')], kind: 'int', schema: int(1, 3_600_000), default: 1000,
    help: 'Live query refetch interval in ms.' },
  { key: 'logLevel', flag: 'log-level', env: [E('LOG_LEVEL')], kind: 'enum', schema: z.enum(LOG_LEVELS), default: 'info',
    help: 'Log level: debug, info, warn, error.' },
  { key: 'enabledLogTypes', flag: 'enabled-log-types', env: [E('ENABLED_LOG_TYPES')], kind: 'list',
    schema: z.array(z.enum(USER_LOG_TYPES, { errorMap: () => ({ message: `Valid list of comma-separated log types: ${JSON.stringify(USER_LOG_TYPES)}` }) })),
    default: [...DEFAULT_LOG_TYPES], help: `Comma-separated log types to write: ${USER_LOG_TYPES.join(',')}.` },
  { key: 'devMode', flag: 'dev-mode', env: [E('DEV_MODE')], kind: 'bool', schema: z.boolean(), default: false,
    help: 'Add internal error details for every role.' },
  { key: 'adminInternalErrors', flag: 'admin-internal-errors', env: [E('ADMIN_INTERNAL_ERRORS')], kind: 'bool',
    schema: z.boolean(), default: true, help: 'Add internal error details for admin requests.' },
  { key: 'corsDomain', flag: 'cors-domain', env: [E('CORS_DOMAIN')], kind: 'string', schema: z.string().min(1), default: '*',
    help: 'Comma-separated origins allowed by CORS (* = all).' },
  { key: 'disableCors', flag: 'disable-cors', env: [E('DISABLE_CORS')], kind: 'bool', schema: z.boolean(), default: false,
    help: 'Send no CORS headers.' },
  { key: 'wsReadCookie', flag: 'ws-read-cookie', env: [E('WS_READ_COOKIE')], kind: 'bool', schema: z.boolean(), default: false,
    help: 'Read the websocket handshake cookie even with CORS disabled.' },
  { key: 'pgConnections', flag: 'connections', env: [E('PG_CONNECTIONS')], kind: 'int', schema: int(1, 10_000), default: 50,
    help: 'Maximum Postgres connections in the pool.' },
  { key: 'queryPlanCacheSize', flag: 'query-plan-cache-size', env: [E('QUERY_PLAN_CACHE_SIZE')], kind: 'int',
    schema: int(0, 65535), default: 4000, help: 'Cached query plans (0 disables).' },
  { key: 'eventsFetchInterval', flag: 'events-fetch-interval', env: [E('EVENTS_FETCH_INTERVAL')], kind: 'int',
    schema: int(1, 3_600_000), default: 1000, help: 'Event trigger and scheduled event poll interval in ms (NOTIFY is the fast path).' },
  { key: 'eventsHttpPoolSize', flag: 'events-http-pool-size', env: [E('EVENTS_HTTP_POOL_SIZE')], kind: 'int',
    schema: int(1, 10_000), default: 100, help: 'Concurrent event trigger deliveries.' },
  { key: 'scheduledEventsHttpPoolSize', flag: 'scheduled-events-http-pool-size', env: [E('SCHEDULED_EVENTS_HTTP_POOL_SIZE')], kind: 'int',
    schema: int(1, 10_000), default: 100, help: 'Concurrent cron and one-off scheduled event deliveries.' },
  { key: 'scheduledEventsLease', flag: 'scheduled-events-lease', env: [E('SCHEDULED_EVENTS_LEASE')], kind: 'int',
    schema: int(1, 86_400), default: 60,
    help: 'Seconds after which a scheduled event claimed by an instance that stopped refreshing it is delivered by another (at once when that instance is gone).' },
  { key: 'dataDir', flag: 'data-dir', env: [E('DATA_DIR')], kind: 'string', schema: z.string().min(1), default: './.engine-data',
    help: 'Data folder of the embedded Postgres (used when no database URL is set).' },
  { key: 'embeddedPgPort', flag: 'embedded-pg-port', env: [E('EMBEDDED_PG_PORT')], kind: 'int', schema: int(1, 65535),
    default: 54329, help: 'Port of the embedded Postgres.' },
  { key: 'snapshotInterval', flag: 'snapshot-interval', env: [E('SNAPSHOT_INTERVAL')], kind: 'int', schema: int(1, 1_000_000),
    default: 500, help: 'Write a metadata snapshot every N events.' },
  { key: 'syncPollInterval', flag: 'sync-poll-interval', env: [E('SYNC_POLL_INTERVAL')], kind: 'int', schema: int(50, 3_600_000),
    default: 2000, help: 'Safety-net poll of the metadata log in ms (NOTIFY is the fast path).' },
  { key: 'minVersionWait', flag: 'min-metadata-version-wait', env: [E('MIN_METADATA_VERSION_WAIT')], kind: 'int',
    schema: int(0, 600_000), default: 5000, help: 'Longest wait in ms for X-Engine-Min-Metadata-Version.' },
  { key: 'migrationsDir', flag: 'migrations-dir', env: [E('MIGRATIONS_DIR')], kind: 'string', schema: z.string().min(1),
    help: 'Apply the pending migrations of this folder (<version>_<name>/up.sql) before serving (skipped if it does not exist).' },
  { key: 'metadataDir', flag: 'metadata-dir', env: [E('METADATA_DIR')], kind: 'string', schema: z.string().min(1),
    help: 'Then apply this metadata folder (the original CLI\'s format) before serving (skipped if it does not exist).' },
  { key: 'readReplicaUrls', flag: 'read-replica-url', env: [E('READ_REPLICA_URLS')], kind: 'urls', repeatable: true,
    schema: z.array(postgresUrl), default: [],
    help: 'A read replica\'s Postgres URL (repeat the flag for more; the variable takes a comma-separated list).' },
  { key: 'readReplicaPoolSize', flag: 'read-replica-pool-size', env: [E('READ_REPLICA_POOL_SIZE')], kind: 'int',
    schema: int(1, 10_000), default: 50, help: 'Maximum Postgres connections in each read replica\'s pool.' },
  { key: 'replicaConsistency', flag: 'replica-consistency', env: [E('REPLICA_CONSISTENCY')], kind: 'enum',
    schema: z.enum(REPLICA_CONSISTENCY), default: 'instance',
    help: 'instance: a read goes to a replica only once it has replayed every write of this instance; header: only reads sending X-Engine-Min-LSN wait for one; none: no wait.' },
  { key: 'replicaWaitMs', flag: 'replica-wait-ms', env: [E('REPLICA_WAIT_MS')], kind: 'int', schema: int(0, 600_000), default: 100,
    help: 'Longest wait in ms for a replica to reach a read\'s LSN; then the primary serves it.' },
  { key: 'replicaMaxLagMs', flag: 'replica-max-lag-ms', env: [E('REPLICA_MAX_LAG_MS')], kind: 'int', schema: int(1, 86_400_000),
    default: 10_000, help: 'A replica lagging more than this many ms leaves the rotation until it catches up.' },
  { key: 'replicaPollInterval', flag: 'replica-poll-interval', env: [E('REPLICA_POLL_INTERVAL')], kind: 'int', schema: int(5, 600_000),
    default: 100, help: 'How often in ms the replicas\' replayed positions (and the primary\'s) are read.' },
  { key: 'usePreparedStatements', flag: 'use-prepared-statements', env: [E('USE_PREPARED_STATEMENTS')], kind: 'bool', schema: z.boolean(),
    default: true, help: 'Named prepared statements; false sends unnamed ones (PgBouncer in transaction mode).' },
  { key: 'listenDatabaseUrl', flag: 'listen-database-url', env: [E('LISTEN_DATABASE_URL')], kind: 'string', schema: postgresUrl,
    help: 'Postgres URL of the LISTEN connections (metadata sync, event wake-ups): a session connection that bypasses a transaction-mode pooler. Default: the database URL.' },
];
