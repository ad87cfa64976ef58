// Wiring: database (given or embedded), catalog schema, state from the log, sync, HTTP server.
// startEngine is what the CLI and the tests call.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { EngineState } from './cache/state.js';
import { configureLog, log, type Level } from './core/log.js';
import { authConfigOf, poolConnections, poolTimesOf, type ServerConfig } from './config/config.js';
import { startAuth } from './auth/resolve.js';
import { ensureCatalogSchema } from '../events/log.js';
import { loadState } from './sync/catchup.js';
import { SnapshotWriter } from './metadata/snapshots.js';
import { reconcileOnStart } from './triggers/reconcile.js';
import { MetadataSync } from './sync/listener.js';
import { createProjector } from './sync/projector.js';
import { features } from './features.js';
import { StateStore } from './sync/state-store.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './startup/embedded-postgres.js';
import { createHandler } from './http/app.js';
import { attachWebsocketTransport, type WebsocketTimings } from './http/websocket.js';
import { connectionBudget, openFilesLimit, websocketCapacity } from './core/open-files.js';
import type { WebsocketTransport } from './subscriptions/server.js';
import type { Runtime } from './http/runtime.js';
import { ENGINE_VERSION } from './version.js';
import { redactUrl, serverConfigurationDetail, unusedSettingDetail } from './config/startup-log.js';
import { EngineMetrics } from './core/metrics.js';
import { registerRuntimeMetrics } from './startup/runtime-metrics.js';
import { applyProjectAtStartup } from './project/startup.js';
import { reconcileCronTriggers } from './scheduled/catalog.js';
import { readReplicas } from './replicas/start.js';
import { startWorkers, stopWorkers, type BackgroundWorker } from './startup/workers.js';

/**
 * Connections the kernel may queue before the engine accepts them (Node's default is 511). A burst of thousands of
 * websockets (clients reconnecting after a restart) would overflow 511 and wait for SYN retries; the kernel caps
 * the value at net.core.somaxconn (4096 on the machine the bench ran on).
 */
const LISTEN_BACKLOG = 4096;

export interface StartOptions {
  /** Leave the process-wide logger alone (tests configure it themselves). */
  keepLogger?: boolean;
  /** Overrides the logger level (e.g. 'silent' in tests). */
  logLevel?: Level | 'silent';
  /** Give up loading metadata after this many ms (default 30 s); healthz reports the reason meanwhile. */
  startTimeoutMs?: number;
  /** Websocket keep-alive timings (tests shorten them). */
  websocket?: WebsocketTimings;
  /**
   * Listen only once ready (a cluster worker, src/cli/cluster.ts): the port is shared, and a worker still loading
   * would be handed connections it can only fail while its siblings could serve them. Alone, the engine listens at
   * once so that /healthz says why it is not ready yet.
   */
  listenWhenReady?: boolean;
}

export interface RunningEngine {
  url: string;
  port: number;
  databaseUrl: string;
  instanceId: string;
  state(): EngineState;
  runtime: Runtime;
  /** The HTTP server (websocket transports attach to its 'upgrade' event). */
  server: http.Server;
  /** Websockets and live queries on that server. */
  websockets: WebsocketTransport;
  close(): Promise<void>;
}

export async function startEngine(config: ServerConfig, options: StartOptions = {}): Promise<RunningEngine> {
  if (!options.keepLogger) configureLog(options.logLevel ?? config.logLevel, undefined, config.enabledLogTypes);
  const authConfig = authConfigOf(config);
  const auth = await startAuth(authConfig, { version: ENGINE_VERSION });
  const instanceId = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const started = Date.now();
  log.info('startup', { kind: 'server', info: { message: 'starting engine', version: ENGINE_VERSION, instance_id: instanceId } });
  log.info('startup', serverConfigurationDetail(config));
  for (const u of config.unused) log.warn('startup', unusedSettingDetail(u));

  const embedded = config.databaseUrl === undefined ? await startEmbedded(config) : null;
  const databaseUrl = embedded?.url ?? config.databaseUrl!;

  const pool = new pg.Pool({ connectionString: databaseUrl, max: config.pgConnections, application_name: `engine-${instanceId}`.slice(0, 63), ...poolTimesOf(config) });
  let shuttingDown = false;
  // Idle connections die when the (embedded) server stops first: expected while shutting down.
  pool.on('error', (e) => (shuttingDown ? log.debug : log.warn)('pg-pool-error', { error: e }));
  heardWhileCheckedOut(pool);
  const store = new StateStore();
  // Actions and remote schemas reach the schema caches (through the projector) and the role schemas from here.
  const projector = createProjector(features);
  const metrics = new EngineMetrics();
  const replicas = readReplicas({ config, primary: pool, primaryUrl: databaseUrl, instanceId, metrics, onSwap: (l) => store.onSwap(l) });
  // LISTEN needs a session connection: --listen-database-url bypasses a transaction-mode pooler.
  const listenUrl = config.listenDatabaseUrl ?? databaseUrl;
  const rt: Runtime = {
    config,
    pool,
    store,
    sync: null,
    instanceId,
    databaseUrl,
    authConfig,
    auth,
    write: {
      pool, store, projector, instanceId, snapshotInterval: config.snapshotInterval, connectionRetries: config.connectionRetries, snapshots: new SnapshotWriter(pool),
    },
    features,
    metrics,
    reads: replicas?.routing,
  };
  const server = http.createServer(createHandler(rt));
  server.keepAliveTimeout = 65_000;
  // Past the open-files limit the kernel would refuse the pools' connections too: stop accepting clients before it.
  const filesLimit = openFilesLimit();
  const budget = connectionBudget(filesLimit, poolConnections(config));
  if (Number.isFinite(budget)) server.maxConnections = budget;
  const websockets = attachWebsocketTransport(server, rt, { maxConnections: websocketCapacity(filesLimit, poolConnections(config)), ...options.websocket });
  registerRuntimeMetrics(rt.metrics, { pool, store, sync: () => rt.sync, websockets });
  if (!options.listenWhenReady) await listen(server, config);

  let workers: BackgroundWorker[] = [];
  const closeAll = async (): Promise<void> => {
    shuttingDown = true;
    // Deliveries in flight finish (or are released) while the database is still there.
    await stopWorkers(workers);
    await rt.sync?.close();
    await replicas?.close();
    websockets.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await rt.write.snapshots.settled();
    await pool.end().catch(() => undefined);
    await embedded?.stop();
    auth.stop();
  };

  try {
    if (config.migrationsDir !== undefined || config.metadataDir !== undefined) {
      rt.store.problem = 'applying the project folders (migrations, metadata)';
      await applyProjectAtStartup(rt.write, { migrationsDir: config.migrationsDir, metadataDir: config.metadataDir });
    }
    await loadWithRetry(rt, listenUrl, options.startTimeoutMs ?? 30_000);
    // The replicas' positions are read once before the first request (until then the primary serves reads).
    await replicas?.start();
    workers = await startWorkers(features.workers, {
      pool, databaseUrl, listenUrl, instanceId, config, metrics, state: () => store.get(),
      newPool: (name, max) => {
        const own = new pg.Pool({ connectionString: databaseUrl, max, application_name: `${name}-${instanceId}`.slice(0, 63), ...poolTimesOf(config) });
        own.on('error', (e) => (shuttingDown ? log.debug : log.warn)('pg-pool-error', { error: e }));
        heardWhileCheckedOut(own);
        return own;
      },
    });
    if (options.listenWhenReady) await listen(server, config);
  } catch (e) {
    await closeAll();
    throw e;
  }
  const port = (server.address() as AddressInfo).port;
  const host = config.host === '*' || config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  log.info('startup', {
    kind: 'server',
    info: { message: `engine ready on ${url}`, port, seq: store.seq, time_taken: (Date.now() - started) / 1000, instance_id: instanceId },
  });

  let closing: Promise<void> | null = null;
  return {
    url,
    port,
    databaseUrl,
    instanceId,
    state: () => store.get(),
    runtime: rt,
    server,
    websockets,
    close: () => (closing ??= closeAll()),
  };
}

/** The embedded Postgres of `config` (no database URL given), started and logged. */
export async function startEmbedded(config: ServerConfig): Promise<EmbeddedDatabase> {
  const embedded = await startEmbeddedPostgres({
    dataDir: config.dataDir,
    port: config.embeddedPgPort,
    onLog: (line) => log.debug('embedded-postgres', { message: line.trim() }),
  });
  log.info('startup', {
    kind: 'postgres_connection',
    info: {
      message: `embedded Postgres started${embedded.replacedLeftover ? ' (after stopping one left running)' : ''}: data in ${embedded.dataDir}${
      embedded.relocatedFrom !== null ? ` (the postgres user cannot reach ${embedded.relocatedFrom})` : ''}, listening on 127.0.0.1:${config.embeddedPgPort}`,
      database_url: redactUrl(embedded.url),
    },
  });
  return embedded;
}

function listen(server: http.Server, config: ServerConfig): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: config.port, host: config.host === '*' ? undefined : config.host, backlog: LISTEN_BACKLOG }, () => resolve());
  });
}

/**
 * A pooled connection that ends while checked out (a transaction, a lost server) emits 'error' on its client, which
 * pg-pool listens to only while the client is idle: unheard, it is an uncaught exception that ends the process. The
 * statement on it fails with the same error (a connection error, Note [Connection errors] in src/core/pg-errors.ts).
 */
const heardWhileCheckedOut = (p: pg.Pool): void => void p.on('connect', (client) => client.on('error', () => undefined));

/** Catalog schema + state + listener (LISTEN on `listenUrl`); retried while the database is not there (healthz says why). */
async function loadWithRetry(rt: Runtime, listenUrl: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    let sync: MetadataSync | null = null;
    try {
      const client = await rt.pool.connect();
      let side: pg.PoolClient | null = null;
      try {
        await ensureCatalogSchema(client);
        // (A pool of one connection has none to spare: its client would wait for itself.)
        if (rt.config.pgConnections > 1) side = await rt.pool.connect();
        rt.store.swap(await loadState(client, rt.write.projector, side ?? undefined));
        await reconcileOnStart(client, rt.store.get(), [reconcileCronTriggers]);
      } finally {
        side?.release();
        client.release();
      }
      sync = new MetadataSync({
        pool: rt.pool,
        connectionString: listenUrl,
        store: rt.store,
        projector: rt.write.projector,
        pollInterval: rt.config.syncPollInterval,
        instanceId: rt.instanceId,
      });
      await sync.start();
      rt.sync = sync;
      // Events appended between the load and LISTEN are picked up here.
      await sync.syncNow();
      log.info('startup', { kind: 'postgres_connection', info: { database_url: redactUrl(rt.databaseUrl), retries: attempt - 1 } });
      return;
    } catch (e) {
      rt.sync = null;
      await sync?.close().catch(() => undefined);
      const message = (e as Error).message;
      rt.store.problem = `cannot load metadata: ${message}`;
      if (Date.now() > deadline) throw new Error(`engine could not start: ${message}`);
      log.warn('startup', { kind: 'postgres_connection', info: { message: `cannot load metadata (attempt ${attempt}), retrying: ${message}`, retries: attempt } });
      await new Promise((r) => setTimeout(r, Math.min(250 * attempt, 2000)));
    }
  }
}
