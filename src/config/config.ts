// Server settings: one table of flags and ENGINE_GRAPHQL_* env vars (flag wins), parsed and validated with zod.
// A bad value stops start-up with a one-line ConfigError naming the setting.
import { z } from 'zod';
import { checkAuthConfig, jwtConfigFromJson, type AuthConfig } from '../auth/config.js';
import { DEFAULT_LOG_TYPES, USER_LOG_TYPES, type UserLogType } from '../core/log.js';
import type { Env } from '../core/env.js';

export const APIS = ['graphql', 'metadata', 'pgdump', 'config', 'developer', 'metrics'] as const;
export type Api = (typeof APIS)[number];
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface ServerConfig {
  /** Unset: start the embedded Postgres under dataDir. */
  databaseUrl?: string;
  /** `*` means every interface. */
  host: string;
  port: number;
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
  /** Embedded Postgres: data folder and port. */
  dataDir: string;
  embeddedPgPort: number;
  /** A metadata snapshot is written every this many events. */
  snapshotInterval: number;
  /** Safety-net poll of the metadata log, in ms (LISTEN/NOTIFY is the fast path). */
  syncPollInterval: number;
  /** Longest wait for x-engine-min-metadata-version, in ms. */
  minVersionWait: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Kind = 'string' | 'int' | 'bool' | 'enum' | 'list' | 'json';

export interface SettingDef {
  key: keyof ServerConfig | 'liveQueries.batchSize' | 'liveQueries.refetchInterval';
  flag: string;
  env: string[];
  kind: Kind;
  /** Zod schema for the converted value. */
  schema: z.ZodTypeAny;
  default?: unknown;
  help: string;
}

const E = (name: string): string => `ENGINE_GRAPHQL_${name}`;
const int = (min: number, max: number) => z.number().int().min(min).max(max);

export const SETTINGS: SettingDef[] = [
  { key: 'databaseUrl', flag: 'database-url', env: [E('DATABASE_URL'), 'DATABASE_URL'], kind: 'string',
    schema: z.string().regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://'),
    help: 'Postgres URL (postgres://user:pass@host:port/db). Unset: start the embedded Postgres.' },
  { key: 'host', flag: 'server-host', env: [E('SERVER_HOST')], kind: 'string', schema: z.string().min(1), default: '*',
    help: 'Interface to listen on (* = all).' },
  { key: 'port', flag: 'server-port', env: [E('SERVER_PORT')], kind: 'int', schema: int(0, 65535), default: 8080,
    help: 'HTTP port (0 = any free port).' },
  { key: 'adminSecret', flag: 'admin-secret', env: [E('ADMIN_SECRET'), E('ACCESS_KEY')], kind: 'string', schema: z.string().min(1),
    help: 'Admin secret; requests must send it in X-Engine-Admin-Secret.' },
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
    schema: int(1, 3_600_000), default: 1000, help: 'Event trigger poll interval in ms.' },
  { key: 'eventsHttpPoolSize', flag: 'events-http-pool-size', env: [E('EVENTS_HTTP_POOL_SIZE')], kind: 'int',
    schema: int(1, 10_000), default: 100, help: 'Concurrent event trigger deliveries.' },
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
];

const BOOL_TRUE = new Set(['true', 't', 'yes', 'y', '1', 'on']);
const BOOL_FALSE = new Set(['false', 'f', 'no', 'n', '0', 'off']);

/** Raw string → value of the setting's kind; the zod schema then checks the value. */
function convert(def: SettingDef, raw: string): unknown {
  switch (def.kind) {
    case 'string':
      return raw;
    case 'int':
      return /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
    case 'bool': {
      const v = raw.trim().toLowerCase();
      return BOOL_TRUE.has(v) ? true : BOOL_FALSE.has(v) ? false : raw;
    }
    case 'enum':
      return def.key === 'authHookMode' ? raw.trim().toUpperCase() : raw.trim().toLowerCase();
    case 'list':
      return raw.split(',').map((s) => s.trim().toLowerCase()).filter((s) => s !== '');
    case 'json':
      try {
        return JSON.parse(raw);
      } catch {
        return raw;
      }
  }
}

function describe(def: SettingDef, source: string): string {
  return source.startsWith('--') ? `${source} (${def.env[0]})` : `${source} (--${def.flag})`;
}

function parseValue(def: SettingDef, raw: string, source: string): unknown {
  const value = convert(def, raw);
  const r = def.schema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    const what = def.kind === 'int' && Number.isNaN(value) ? 'expected an integer' : def.kind === 'bool' ? 'expected true or false'
      : def.kind === 'json' && typeof value === 'string' ? 'expected a JSON object' : issue?.message ?? 'invalid';
    throw new ConfigError(`invalid value for ${describe(def, source)}: ${JSON.stringify(raw)}: ${what}`);
  }
  return r.data;
}

const BY_FLAG = new Map(SETTINGS.map((s) => [s.flag, s]));
BY_FLAG.set('access-key', SETTINGS.find((s) => s.key === 'adminSecret')!);

export interface ParsedArgs {
  /** Values by setting key, from flags. */
  flags: Map<SettingDef, string>;
  /** Non-flag words (sub-command and its arguments). */
  positional: string[];
  /** Flags this parser does not know (left to the sub-command). */
  unknown: Map<string, string | true>;
  help: boolean;
}

/** Splits argv into known setting flags, positional words and other flags. Boolean flags may stand alone. */
export function splitArgs(argv: readonly string[], extraFlags: readonly string[] = []): ParsedArgs {
  const out: ParsedArgs = { flags: new Map(), positional: [], unknown: new Map(), help: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') {
      out.help = true;
      continue;
    }
    if (!a.startsWith('--')) {
      out.positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    const def = BY_FLAG.get(name);
    let value: string | undefined = eq > 0 ? a.slice(eq + 1) : undefined;
    if (def === undefined && !extraFlags.includes(name)) throw new ConfigError(`unknown flag --${name} (see --help)`);
    if (value === undefined) {
      const next = argv[i + 1];
      const isBool = def?.kind === 'bool';
      if (isBool && (next === undefined || !(BOOL_TRUE.has(next.toLowerCase()) || BOOL_FALSE.has(next.toLowerCase())))) value = 'true';
      else if (next === undefined || (next.startsWith('--') && next.length > 2)) throw new ConfigError(`missing value for --${name}`);
      else value = argv[++i];
    }
    if (def) out.flags.set(def, value);
    else out.unknown.set(name, value);
  }
  return out;
}

function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  const dot = key.indexOf('.');
  if (dot < 0) {
    target[key] = value;
    return;
  }
  const head = key.slice(0, dot);
  const inner = (target[head] ??= {}) as Record<string, unknown>;
  inner[key.slice(dot + 1)] = value;
}

/** The whole configuration from flags (already split) and env. Throws ConfigError. */
export function configFrom(flags: Map<SettingDef, string>, env: Env): ServerConfig {
  const raw: Record<string, unknown> = {};
  for (const def of SETTINGS) {
    const flag = flags.get(def);
    let value: unknown = def.default;
    if (flag !== undefined) value = parseValue(def, flag, `--${def.flag}`);
    else {
      const envName = def.env.find((n) => env[n] !== undefined && env[n] !== '');
      if (envName !== undefined) value = parseValue(def, env[envName]!, envName);
    }
    if (value !== undefined) setKey(raw, def.key, value);
  }
  const config = raw as unknown as ServerConfig;
  checkAuthModes(config);
  return config;
}

/** The auth settings as src/auth wants them; their combination rules (SPEC-NOTES-runtime 6.1) are fatal at start-up. */
export function authConfigOf(c: ServerConfig): AuthConfig {
  try {
    const auth: AuthConfig = {
      adminSecret: c.adminSecret,
      jwt: c.jwtSecret === undefined ? undefined : jwtConfigFromJson(c.jwtSecret),
      authHook: c.authHook === undefined ? undefined : { url: c.authHook, mode: c.authHookMode },
      unauthorizedRole: c.unauthorizedRole,
    };
    checkAuthConfig(auth);
    return auth;
  } catch (e) {
    throw new ConfigError((e as Error).message.replace(/\s*\n\s*/g, ' '));
  }
}

function checkAuthModes(c: ServerConfig): void {
  authConfigOf(c);
}

/** Parses argv + env in one go (argv holds only setting flags). */
export function parseConfig(argv: readonly string[], env: Env = process.env): ServerConfig {
  return configFrom(splitArgs(argv).flags, env);
}

/** Defaults merged with overrides, for tests and embedding (validated like flags). */
export function makeConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  const base = configFrom(new Map(), {});
  return { ...base, ...overrides, liveQueries: { ...base.liveQueries, ...(overrides.liveQueries ?? {}) } };
}

export const isApiEnabled = (c: ServerConfig, api: Api): boolean => c.enabledApis.includes(api);

/** The options table for --help. */
export function settingsHelp(): string {
  const rows = SETTINGS.map((s) => {
    const dflt = s.default === undefined ? '' : ` [default: ${Array.isArray(s.default) ? s.default.join(',') : String(s.default)}]`;
    return `  --${s.flag}${s.kind === 'bool' ? '' : ' VALUE'}\n      ${s.env.join(', ')}\n      ${s.help}${dflt}`;
  });
  return rows.join('\n');
}
