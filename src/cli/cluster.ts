// `serve --workers N`: N engine processes on one port (node:cluster). The primary does no request work: it forks
// the workers (the same argv and environment; each is a full instance, as several instances on one database are),
// replaces one that dies, forwards SIGTERM/SIGINT and exits once they all have. Without a database URL it runs the
// embedded Postgres once for all of them. The kernel's accepted connections are handed out round-robin by the
// primary (node:cluster's default on Linux), which keeps the workers' shares of 20,000 websockets even.
import cluster, { type Worker } from 'node:cluster';
import type { ServerConfig } from '../config/config.js';
import { configureLog, log } from '../core/log.js';
import { startEmbedded } from '../main.js';
import type { EmbeddedDatabase } from '../startup/embedded-postgres.js';

/** What a worker tells the primary about its start-up. */
export type WorkerMessage = { type: 'engine-ready' } | { type: 'engine-failed'; message: string };

/** Pause before a worker that died is replaced: a crash loop must not spin. */
const RESTART_DELAY_MS = 1000;
/** Replacements failing at start-up one after another: then the cause is not passing, and the primary gives up. */
const MAX_START_FAILURES = 3;

/** In a worker: tells the primary (no-op alone); resolves once sent, as the worker may exit next. */
export function tellPrimary(m: WorkerMessage): Promise<void> {
  return new Promise((resolve) => (cluster.isWorker && process.send ? process.send(m, undefined, undefined, () => resolve()) : resolve()));
}

interface ClusterState {
  stopping: boolean;
  /** Some worker was ready once (before that, any start-up failure fails the whole start). */
  everReady: boolean;
  startFailures: number;
  /** Why the primary gives up (exit code 1). */
  failure: string | null;
  /** Workers not yet exited, and those of them that said they are ready. */
  live: Set<number>;
  ready: Set<number>;
  lastError: Map<number, string>;
  /** Called once stopping with no worker left. */
  done(): void;
}

/** Runs the primary until every worker has exited; the exit code. */
export async function servePrimary(config: ServerConfig): Promise<number> {
  const n = config.workers;
  configureLog(config.logLevel, undefined, config.enabledLogTypes);
  log.info('startup', { kind: 'cluster', info: { message: `starting ${n} workers`, workers: n, pid: process.pid } });
  let embedded: EmbeddedDatabase | null = null;
  try {
    if (config.databaseUrl === undefined) embedded = await startEmbedded(config);
  } catch (e) {
    log.error('startup', { message: (e as Error).message, error: e });
    process.stderr.write(`engine: ${(e as Error).message}\n`);
    return 1;
  }
  // The workers read the embedded server's URL as if it had been given (a flag would win, but none was given).
  const env = embedded === null ? {} : { ENGINE_GRAPHQL_DATABASE_URL: embedded.url };
  let done = (): void => undefined;
  const allExited = new Promise<void>((resolve) => (done = resolve));
  const s: ClusterState = {
    stopping: false, everReady: false, startFailures: 0, failure: null, live: new Set(), ready: new Set(), lastError: new Map(), done,
  };
  cluster.schedulingPolicy = cluster.SCHED_RR;
  const fork = (): void => {
    const w = cluster.fork(env);
    s.live.add(w.id);
    w.on('message', (m: WorkerMessage) => onMessage(s, w, m, n));
    w.on('exit', (code, signal) => {
      onExit(s, w, code, signal);
      if (s.failure !== null) stopAll(s, 'SIGTERM');
      else if (!s.stopping) setTimeout(() => s.stopping || fork(), RESTART_DELAY_MS);
    });
    log.info('startup', { kind: 'cluster', info: { message: 'worker started', worker: w.id, pid: w.process.pid } });
  };
  for (let i = 0; i < n; i++) fork();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stopAll(s, signal));
  await allExited;
  await embedded?.stop();
  if (s.failure === null) return 0;
  process.stderr.write(`engine: ${s.failure}\n`);
  return 1;
}

function onMessage(s: ClusterState, w: Worker, m: WorkerMessage, n: number): void {
  if (m.type === 'engine-failed') s.lastError.set(w.id, m.message);
  if (m.type !== 'engine-ready') return;
  s.ready.add(w.id);
  s.everReady = true;
  s.startFailures = 0;
  log.info('startup', { kind: 'cluster', info: { message: 'worker ready', worker: w.id, pid: w.process.pid, ready: s.ready.size, workers: n } });
  if (s.ready.size === n) log.info('startup', { kind: 'cluster', info: { message: `all ${n} workers ready`, workers: n } });
}

/** Logs a worker's exit; one that died before it was ready counts as a start-up failure (which may end the cluster). */
function onExit(s: ClusterState, w: Worker, code: number | null, signal: string | null): void {
  s.live.delete(w.id);
  const wasReady = s.ready.delete(w.id);
  const error = s.lastError.get(w.id) ?? null;
  s.lastError.delete(w.id);
  if (s.stopping) {
    if (s.live.size === 0) s.done();
    return;
  }
  const detail = { worker: w.id, pid: w.process.pid, code, signal, error, was_ready: wasReady };
  log.error('cluster', { message: wasReady ? 'worker died; replacing it' : 'worker failed at start-up', ...detail });
  if (wasReady) return;
  s.startFailures++;
  if (!s.everReady || s.startFailures >= MAX_START_FAILURES) {
    s.failure = `worker ${w.id} (pid ${w.process.pid}) failed at start-up: ${error ?? `exit code ${code}, signal ${signal}`}`;
  }
}

function stopAll(s: ClusterState, signal: NodeJS.Signals): void {
  if (!s.stopping) log.info('shutdown', { message: `received ${signal}, stopping the workers` });
  s.stopping = true;
  for (const w of Object.values(cluster.workers ?? {})) w?.process.kill(signal);
  if (s.live.size === 0) s.done();
}
