// src/startup/workers.ts: the engine's background workers start in order and stop in order; one that fails to start
// leaves none of the others running.
import test from 'ava';
import type pg from 'pg';
import { startWorkers, stopWorkers, type WorkerContext, type WorkerFactory } from '../../src/startup/workers.js';
import { makeConfig } from '../../src/config/config.js';
import { EngineMetrics } from '../../src/core/metrics.js';

const ctx: WorkerContext = {
  pool: {} as pg.Pool,
  newPool: () => { throw new Error('no pools in this test'); },
  databaseUrl: 'postgres://nobody@127.0.0.1:1/none',
  listenUrl: 'postgres://nobody@127.0.0.1:1/none',
  metrics: new EngineMetrics(),
  instanceId: 'test',
  config: makeConfig({}),
  state: () => { throw new Error('no state in this test'); },
};

function recording(log: string[], name: string, failStart = false): WorkerFactory {
  return (c) => {
    log.push(`make ${name} for ${c.instanceId}`);
    return {
      async start() {
        if (failStart) throw new Error(`${name} cannot start`);
        log.push(`start ${name}`);
      },
      async stop() {
        log.push(`stop ${name}`);
      },
    };
  };
}

test('workers start in the listed order and stop in the same order', async (t) => {
  const log: string[] = [];
  const workers = await startWorkers([recording(log, 'events'), recording(log, 'actions')], ctx);
  await stopWorkers(workers);
  t.deepEqual(log, ['make events for test', 'start events', 'make actions for test', 'start actions', 'stop events', 'stop actions']);
});

test('a worker that fails to start: those started are stopped, the later ones never made, the error thrown', async (t) => {
  const log: string[] = [];
  const factories = [recording(log, 'events'), recording(log, 'scheduled', true), recording(log, 'actions')];
  await t.throwsAsync(startWorkers(factories, ctx), { message: 'scheduled cannot start' });
  t.deepEqual(log, ['make events for test', 'start events', 'make scheduled for test', 'stop events']);
});
