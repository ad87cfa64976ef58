// Flag and env parsing: defaults, precedence, aliases, bad values naming the setting, auth-mode rules.
import test from 'ava';
import { ConfigError, parseConfig, splitArgs } from '../../src/config/config.js';

test('defaults', (t) => {
  const c = parseConfig([], {});
  t.is(c.port, 8080);
  t.is(c.host, '*');
  t.is(c.databaseUrl, undefined);
  t.deepEqual(c.enabledApis, ['metadata', 'graphql', 'pgdump', 'config', 'metrics']);
  t.false(c.stringifyNumericTypes);
  t.is(c.authHookMode, 'GET');
  t.deepEqual(c.liveQueries, { batchSize: 100, refetchInterval: 1000 });
  t.is(c.logLevel, 'info');
  t.is(c.dataDir, './.engine-data');
  t.is(c.embeddedPgPort, 54329);
  t.true(c.adminInternalErrors);
  t.is(c.workers, 1);
});

test('env vars, and flags win over them', (t) => {
  const env = {
    ENGINE_GRAPHQL_SERVER_PORT: '9000',
    ENGINE_GRAPHQL_DATABASE_URL: 'postgres://a@h/db',
    ENGINE_GRAPHQL_STRINGIFY_NUMERIC_TYPES: 'true',
    ENGINE_GRAPHQL_ENABLED_APIS: 'graphql, metadata',
  };
  const c = parseConfig([], env);
  t.is(c.port, 9000);
  t.is(c.databaseUrl, 'postgres://a@h/db');
  t.true(c.stringifyNumericTypes);
  t.deepEqual(c.enabledApis, ['graphql', 'metadata']);
  const f = parseConfig(['--server-port', '9001', '--database-url=postgres://b@h/db'], env);
  t.is(f.port, 9001);
  t.is(f.databaseUrl, 'postgres://b@h/db');
});

test('DATABASE_URL is accepted; the ENGINE_GRAPHQL_ name wins', (t) => {
  t.is(parseConfig([], { DATABASE_URL: 'postgres://x/y' }).databaseUrl, 'postgres://x/y');
  t.is(parseConfig([], { DATABASE_URL: 'postgres://x/y', ENGINE_GRAPHQL_DATABASE_URL: 'postgres://z/w' }).databaseUrl, 'postgres://z/w');
});

test('boolean flags may stand alone or take a value', (t) => {
  t.true(parseConfig(['--stringify-numeric-types'], {}).stringifyNumericTypes);
  t.true(parseConfig(['--enable-allowlist', '--server-port', '1'], {}).enableAllowlist);
  t.false(parseConfig(['--enable-allowlist', 'false'], {}).enableAllowlist);
  t.false(parseConfig(['--admin-internal-errors=false'], {}).adminInternalErrors);
});

test('live queries, log level, auth hook mode (case-insensitive), access-key alias', (t) => {
  const c = parseConfig(
    ['--live-queries-multiplexed-batch-size', '7', '--log-level', 'WARN', '--auth-hook-mode', 'post', '--auth-hook', 'http://h/x'],
    { ENGINE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: '250', ENGINE_GRAPHQL_ACCESS_KEY: 's' },
  );
  t.deepEqual(c.liveQueries, { batchSize: 7, refetchInterval: 250 });
  t.is(c.logLevel, 'warn');
  t.is(c.authHookMode, 'POST');
  t.is(c.adminSecret, 's');
});

test('jwt secret is parsed JSON', (t) => {
  const c = parseConfig(['--admin-secret', 's'], { ENGINE_GRAPHQL_JWT_SECRET: '{"type":"HS256","key":"0123456789abcdef0123456789abcdef"}' });
  t.deepEqual(c.jwtSecret, { type: 'HS256', key: '0123456789abcdef0123456789abcdef' });
});

const bad = (argv: string[], env: Record<string, string>, pattern: RegExp) => (t: any) => {
  const e = t.throws(() => parseConfig(argv, env), { instanceOf: ConfigError });
  t.regex(e.message, pattern);
  t.false(e.message.includes('\n'));
};

test('bad port names the flag', bad(['--server-port', 'abc'], {}, /--server-port.*ENGINE_GRAPHQL_SERVER_PORT.*"abc"/));
test('bad port from env names the env var', bad([], { ENGINE_GRAPHQL_SERVER_PORT: '70000' }, /^invalid value for ENGINE_GRAPHQL_SERVER_PORT/));
test('bad boolean', bad([], { ENGINE_GRAPHQL_STRINGIFY_NUMERIC_TYPES: 'maybe' }, /STRINGIFY_NUMERIC_TYPES.*true or false/));
test('unknown API', bad(['--enabled-apis', 'graphql,foo'], {}, /--enabled-apis/));
test('bad database URL', bad([], { ENGINE_GRAPHQL_DATABASE_URL: 'mysql://x' }, /ENGINE_GRAPHQL_DATABASE_URL/));
test('bad JWT JSON', bad(['--admin-secret', 's', '--jwt-secret', '{nope'], {}, /--jwt-secret.*JSON object/));
test('bad log level', bad(['--log-level', 'loud'], {}, /--log-level/));
test('unknown log type: the original\'s list in the message', bad([], { ENGINE_GRAPHQL_ENABLED_LOG_TYPES: 'startup,nope' },
  /ENGINE_GRAPHQL_ENABLED_LOG_TYPES.*Valid list of comma-separated log types: \["startup","http-log","webhook-log","websocket-log","query-log","livequery-poller-log","action-handler-log","event-trigger","scheduled-trigger"\]/));
test('enabled log types: default as the original, or the list given', (t) => {
  t.deepEqual(parseConfig([]).enabledLogTypes, ['startup', 'http-log', 'webhook-log', 'websocket-log']);
  t.deepEqual(parseConfig(['--enabled-log-types', 'Query-Log, http-log']).enabledLogTypes, ['query-log', 'http-log']);
});
test('unknown flag', bad(['--no-such-flag', '1'], {}, /unknown flag --no-such-flag/));
test('missing value', bad(['--server-port'], {}, /missing value for --server-port/));
test('auth hook needs an admin secret', bad(['--auth-hook', 'http://h/'], {}, /requires --admin-secret/));
test('jwt and auth hook exclude each other', bad(['--admin-secret', 's', '--auth-hook', 'http://h/', '--jwt-secret',
  '{"type":"HS256","key":"0123456789abcdef0123456789abcdef"}'], {}, /cannot be enabled at the same time/));
test('a JWT config src/auth rejects stops start-up', bad(['--admin-secret', 's', '--jwt-secret', '{"type":"HS256","key":"short"}'], {}, /JWT/));
test('unauthorized role needs an admin secret', bad(['--unauthorized-role', 'anon'], {}, /unauthorized-role/));

test('splitArgs keeps positional words and allowed extra flags', (t) => {
  const a = splitArgs(['history', 'replay', 'f.jsonl', '--output', 'x', '--server-port', '1'], ['output']);
  t.deepEqual(a.positional, ['history', 'replay', 'f.jsonl']);
  t.is(a.unknown.get('output'), 'x');
  t.is(a.flags.size, 1);
});

// Issue 34: the original's serve options a switching configuration sets.
test('the original\'s pool and transaction options: defaults, env vars, flags', (t) => {
  const d = parseConfig([], {});
  t.like(d, { connectionRetries: 1, txIsolation: 'read-committed', pgTimeout: 180, connLifetime: 600, logHeadersFromEnv: false, pgStripes: 1, enableTelemetry: true });
  t.deepEqual(d.unused, []);
  const env = parseConfig([], {
    ENGINE_GRAPHQL_NO_OF_RETRIES: '3', ENGINE_GRAPHQL_TX_ISOLATION: 'serializable', ENGINE_GRAPHQL_PG_TIMEOUT: '30',
    ENGINE_GRAPHQL_PG_CONN_LIFETIME: '0', ENGINE_GRAPHQL_LOG_HEADERS_FROM_ENV: 'true',
  });
  t.like(env, { connectionRetries: 3, txIsolation: 'serializable', pgTimeout: 30, connLifetime: 0, logHeadersFromEnv: true });
  const flags = parseConfig(['--retries', '0', '--tx-iso', 'repeatable-read', '--timeout', '5', '--conn-lifetime', '60', '--log-headers-from-env'], {
    ENGINE_GRAPHQL_TX_ISOLATION: 'serializable',
  });
  t.like(flags, { connectionRetries: 0, txIsolation: 'repeatable-read', pgTimeout: 5, connLifetime: 60, logHeadersFromEnv: true });
});

test('bad transaction isolation', bad(['--tx-iso', 'snapshot'], {}, /--tx-iso.*ENGINE_GRAPHQL_TX_ISOLATION.*"snapshot"/));

test('the database as separate settings makes the URL; options apply to a URL too', (t) => {
  const c = parseConfig(['--host', 'db.example', '--port', '6543', '--user', 'al ice', '--password', 'p@ss:w/rd', '--dbname', 'shop',
    '--pg-connection-options', '-c extra_float_digits=3'], {});
  const u = new URL(c.databaseUrl!);
  t.like(u, { hostname: 'db.example', port: '6543', username: 'al%20ice', pathname: '/shop' });
  t.is(decodeURIComponent(u.password), 'p@ss:w/rd');
  t.is(u.searchParams.get('options'), '-c extra_float_digits=3');
  t.is(new URL(parseConfig(['--host', '::1', '--port', '1', '--user', 'u', '--dbname', 'd'], {}).databaseUrl!).hostname, '[::1]');
  t.is(parseConfig(['--host', '/var/run/postgresql', '--port', '5432', '--user', 'u', '--dbname', 'd'], {}).databaseUrl, 'postgres://u@%2Fvar%2Frun%2Fpostgresql:5432/d');
  const withUrl = parseConfig(['--pg-connection-options', '-c statement_timeout=5s'], { ENGINE_GRAPHQL_DATABASE_URL: 'postgres://a@h/db?sslmode=disable' });
  t.is(withUrl.databaseUrl, 'postgres://a@h/db?sslmode=disable&options=-c+statement_timeout%3D5s');
});

test('a database URL wins over separate settings, which start-up reports as unused', (t) => {
  const c = parseConfig(['--host', 'other', '--dbname', 'x'], { ENGINE_GRAPHQL_DATABASE_URL: 'postgres://a@h/db' });
  t.is(c.databaseUrl, 'postgres://a@h/db');
  t.deepEqual(c.unused.map((u) => u.setting), ['--host', '--dbname']);
});

test('separate database settings need host, port, user and dbname', bad(['--host', 'h', '--user', 'u'], {},
  /expecting all of --host, --port, --user, --dbname .*missing --port, --dbname/));

test('--access-key is the deprecated name of --admin-secret', (t) => {
  t.is(parseConfig(['--access-key', 'k'], {}).adminSecret, 'k');
});

test('--stripes, --enable-telemetry, --console-assets-dir are accepted and reported as without effect', (t) => {
  const c = parseConfig(['--stripes', '4', '--console-assets-dir', '/srv/console-assets'], { ENGINE_GRAPHQL_ENABLE_TELEMETRY: 'false' });
  t.like(c, { pgStripes: 4, enableTelemetry: false, consoleAssetsDir: '/srv/console-assets' });
  t.deepEqual(c.unused.map((u) => u.setting), ['--stripes (ENGINE_GRAPHQL_PG_STRIPES)', 'ENGINE_GRAPHQL_ENABLE_TELEMETRY (--enable-telemetry)',
    '--console-assets-dir (ENGINE_GRAPHQL_CONSOLE_ASSETS_DIR)']);
});

test('read replicas: the flag repeats, the variable is a comma-separated list; consistency, waits and pooler settings', (t) => {
  const d = parseConfig([], {});
  t.deepEqual(d.readReplicaUrls, []);
  t.like(d, { readReplicaPoolSize: 50, replicaConsistency: 'instance', replicaWaitMs: 100, usePreparedStatements: true, listenDatabaseUrl: undefined });
  const f = parseConfig(['--read-replica-url', 'postgres://r1/db', '--read-replica-url=postgres://u:p@r2:5433/db', '--replica-consistency', 'HEADER'], {});
  t.deepEqual(f.readReplicaUrls, ['postgres://r1/db', 'postgres://u:p@r2:5433/db']);
  t.is(f.replicaConsistency, 'header');
  const env = parseConfig([], {
    ENGINE_GRAPHQL_READ_REPLICA_URLS: 'postgres://r1/db, postgres://r2/db',
    ENGINE_GRAPHQL_USE_PREPARED_STATEMENTS: 'false',
    ENGINE_GRAPHQL_LISTEN_DATABASE_URL: 'postgres://direct/db',
    ENGINE_GRAPHQL_REPLICA_WAIT_MS: '0',
  });
  t.deepEqual(env.readReplicaUrls, ['postgres://r1/db', 'postgres://r2/db']);
  t.false(env.usePreparedStatements);
  t.is(env.listenDatabaseUrl, 'postgres://direct/db');
  t.is(env.replicaWaitMs, 0);
  t.false(parseConfig(['--use-prepared-statements', 'false'], {}).usePreparedStatements);
  t.throws(() => parseConfig(['--read-replica-url', 'mysql://x'], {}), { instanceOf: ConfigError, message: /--read-replica-url.*postgres:\/\//s });
  t.throws(() => parseConfig(['--replica-consistency', 'eventual'], {}), { instanceOf: ConfigError, message: /--replica-consistency/ });
});

test('--workers: 1..64 from the flag or ENGINE_GRAPHQL_WORKERS', (t) => {
  t.is(parseConfig(['--workers', '64'], {}).workers, 64);
  t.is(parseConfig([], { ENGINE_GRAPHQL_WORKERS: '2' }).workers, 2);
});
test('--workers 0 is refused', bad(['--workers', '0'], {}, /^invalid value for --workers \(ENGINE_GRAPHQL_WORKERS\): "0": .*greater than or equal to 1/));
test('--workers 65 is refused', bad(['--workers', '65'], {}, /^invalid value for --workers.*"65": .*less than or equal to 64/));
test('a non-integer worker count is refused', bad([], { ENGINE_GRAPHQL_WORKERS: '1.5' }, /^invalid value for ENGINE_GRAPHQL_WORKERS \(--workers\): "1.5": expected an integer/));
