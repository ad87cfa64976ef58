// The background workers an engine runs (event deliveries, async actions, and those of features to come: scheduled
// triggers...). Each is made, once the engine's state is loaded, from what the engine gives it; they start in the
// order src/features.ts lists them and stop in the same order when the engine closes, their work in flight finished
// or released while the database is still there, before the pools close. A new worker is one factory in that list.
import type pg from 'pg';
import type { EngineState } from '../cache/state.js';
import type { ServerConfig } from '../config/config.js';
import type { EngineMetrics } from '../core/metrics.js';

export interface BackgroundWorker {
  start(): Promise<void> | void;
  stop(): Promise<void>;
}

/** What the engine gives a worker. */
export interface WorkerContext {
  /** The engine's pool, on the primary. */
  pool: pg.Pool;
  /** A pool of the worker's own on the primary (its polling never competes with requests), named `<name>-<instance>`,
   * with the engine's connection settings; the worker ends it when it stops. */
  newPool(name: string, max: number): pg.Pool;
  databaseUrl: string;
  /** Where LISTEN connections go (a session connection: --listen-database-url bypasses a transaction-mode pooler). */
  listenUrl: string;
  /** The engine's metrics registry (workers add theirs). */
  metrics: EngineMetrics;
  instanceId: string;
  config: ServerConfig;
  /** The engine's current state (it changes as the log advances). */
  state(): EngineState;
}

export type WorkerFactory = (ctx: WorkerContext) => BackgroundWorker;

/** Makes and starts the workers in order; when one fails to start, those started are stopped and the error thrown. */
export async function startWorkers(factories: readonly WorkerFactory[], ctx: WorkerContext): Promise<BackgroundWorker[]> {
  const started: BackgroundWorker[] = [];
  try {
    for (const make of factories) {
      const worker = make(ctx);
      await worker.start();
      started.push(worker);
    }
    return started;
  } catch (e) {
    await stopWorkers(started);
    throw e;
  }
}

export async function stopWorkers(workers: readonly BackgroundWorker[]): Promise<void> {
  for (const w of workers) await w.stop();
}
