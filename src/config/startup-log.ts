// What the `startup` log lines say about the configuration, as the original's ({kind: "server_configuration",
// info: {...}}): every setting, secrets never (the admin secret is `admin_secret_set`, keys and URL passwords
// are replaced).
import type { ServerConfig } from './config.js';

const REDACTED = '...';

/** A URL with its password (and any `password` query parameter) replaced; unparseable text is withheld whole. */
export function redactUrl(url: string | undefined): string | null {
  if (url === undefined) return null;
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = REDACTED;
    for (const k of [...u.searchParams.keys()]) if (/pass|secret|key|token/i.test(k)) u.searchParams.set(k, REDACTED);
    return u.toString();
  } catch {
    return '<unparseable URL>';
  }
}

/** The JWT configuration without its key material. */
function redactJwt(jwt: Record<string, unknown> | undefined): Record<string, unknown> | null {
  if (jwt === undefined) return null;
  const out: Record<string, unknown> = { ...jwt };
  if ('key' in out) out.key = '<JWK REDACTED>';
  if (typeof out.jwk_url === 'string') out.jwk_url = redactUrl(out.jwk_url);
  return out;
}

export function serverConfigurationDetail(c: ServerConfig): Record<string, unknown> {
  return {
    kind: 'server_configuration',
    info: {
      port: c.port,
      server_host: c.host,
      workers: c.workers,
      database_url: c.databaseUrl === undefined ? null : redactUrl(c.databaseUrl),
      admin_secret_set: c.adminSecret !== undefined,
      auth_hook: redactUrl(c.authHook),
      auth_hook_mode: c.authHook === undefined ? null : c.authHookMode,
      jwt_secret: redactJwt(c.jwtSecret),
      unauth_role: c.unauthorizedRole ?? null,
      cors_config: { allowed_origins: c.corsDomain, disabled: c.disableCors },
      enabled_apis: c.enabledApis,
      enabled_log_types: c.enabledLogTypes,
      log_level: c.logLevel,
      enable_allowlist: c.enableAllowlist,
      stringify_numeric_types: c.stringifyNumericTypes,
      dev_mode: c.devMode,
      admin_internal_errors: c.adminInternalErrors,
      live_query_options: { batch_size: c.liveQueries.batchSize, refetch_delay: c.liveQueries.refetchInterval },
      plan_cache_options: { plan_cache_size: c.queryPlanCacheSize },
      pg_connections: c.pgConnections,
      events_http_pool_size: c.eventsHttpPoolSize,
      events_fetch_interval: c.eventsFetchInterval,
      snapshot_interval: c.snapshotInterval,
      sync_poll_interval: c.syncPollInterval,
      min_metadata_version_wait: c.minVersionWait,
      data_dir: c.databaseUrl === undefined ? c.dataDir : null,
      transaction_isolation: `ISOLATION LEVEL ${c.txIsolation.replace('-', ' ').toUpperCase()}`,
      connection_retries: c.connectionRetries,
      pg_timeout: c.pgTimeout,
      pg_conn_lifetime: c.connLifetime,
      log_headers_from_env: c.logHeadersFromEnv,
      pg_stripes: c.pgStripes,
      enable_telemetry: c.enableTelemetry,
      console_assets_dir: c.consoleAssetsDir ?? null,
      read_replicas: c.readReplicaUrls.map((u) => redactUrl(u)),
      read_replica_pool_size: c.readReplicaPoolSize,
      replica_consistency: c.replicaConsistency,
      replica_wait_ms: c.replicaWaitMs,
      replica_max_lag_ms: c.replicaMaxLagMs,
      use_prepared_statements: c.usePreparedStatements,
      listen_database_url: redactUrl(c.listenDatabaseUrl),
    },
  };
}

/** A setting given that does nothing here (or is overridden): the start-up line that says so. */
export const unusedSettingDetail = (u: ServerConfig['unused'][number]): Record<string, unknown> =>
  ({ kind: 'server_configuration', info: { message: `${u.setting} has no effect: ${u.reason}`, setting: u.setting } });
