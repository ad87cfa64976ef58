// /healthz states without a live database: not loaded yet, database unreachable, inconsistent metadata.
import test from 'ava';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createHandler } from '../../src/http/app.js';
import type { Runtime } from '../../src/http/runtime.js';
import { StateStore } from '../../src/sync/state-store.js';
import { NO_REMOTE_SCHEMAS } from '../../src/cache/types.js';
import { makeConfig } from '../../src/config/config.js';
import { createProjector } from '../../src/sync/projector.js';
import { features } from '../../src/features.js';
import { emptyCatalog } from '../../src/catalog/types.js';
import { configureLog } from '../../src/core/log.js';
import { EngineMetrics } from '../../src/core/metrics.js';
import { SnapshotWriter } from '../../src/metadata/snapshots.js';

configureLog('silent');
const projector = createProjector(features);

async function serve(rt: Runtime): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(createHandler(rt));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise((r) => server.close(() => r())) };
}

function runtime(store: StateStore, pool: pg.Pool): Runtime {
  const config = makeConfig({ port: 0 });
  return {
    config,
    pool,
    store,
    sync: null,
    instanceId: 'test',
    databaseUrl: 'postgres://nobody@127.0.0.1:1/none',
    authConfig: {},
    auth: { deps: {}, stop() {} },
    write: { pool, store, projector, instanceId: 'test', snapshotInterval: 500, connectionRetries: 1, snapshots: new SnapshotWriter(pool) },
    features,
    metrics: new EngineMetrics(),
  };
}

// Port 1: nothing listens there, connections are refused at once.
const deadPool = () => new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', connectionTimeoutMillis: 1000 });

test('500 with the reason while metadata is not loaded', async (t) => {
  const store = new StateStore();
  store.problem = 'cannot load metadata: connection refused';
  const s = await serve(runtime(store, deadPool()));
  try {
    const r = await fetch(`${s.url}/healthz`);
    t.is(r.status, 500);
    t.is(await r.text(), 'ERROR: cannot load metadata: connection refused');
    const q = await fetch(`${s.url}/v1/query`, { method: 'POST', body: '{"type":"export_metadata","args":{}}' });
    t.is(q.status, 500);
  } finally {
    await s.close();
  }
});

test('500 when the database stops answering; WARN with inconsistent objects', async (t) => {
  const store = new StateStore();
  const state = projector.buildState(3, projector.emptyMetadata(), emptyCatalog(), NO_REMOTE_SCHEMAS);
  store.swap(state);
  const s = await serve(runtime(store, deadPool()));
  try {
    const r = await fetch(`${s.url}/healthz`);
    t.is(r.status, 500);
    t.regex(await r.text(), /^ERROR: database unreachable/);
  } finally {
    await s.close();
  }
  const live = new pg.Pool({ connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
  const warnStore = new StateStore();
  warnStore.swap({ ...state, cache: { ...state.cache, inconsistent: [{ type: 'table', reason: 'gone', definition: {} } as never] } });
  const w = await serve(runtime(warnStore, live));
  try {
    const r = await fetch(`${w.url}/healthz`);
    t.is(r.status, 200);
    t.is(await r.text(), 'WARN: inconsistent objects in schema');
  } finally {
    await w.close();
    await live.end();
  }
});

test('StateStore: never goes back, waits for a seq', async (t) => {
  const store = new StateStore();
  const at = (seq: number) => projector.buildState(seq, projector.emptyMetadata(), emptyCatalog(), NO_REMOTE_SCHEMAS);
  t.false(store.ready);
  t.true(store.swap(at(2)));
  t.false(store.swap(at(1)));
  t.false(store.swap(at(2)));
  t.true(store.swap(at(2), true));
  const waiting = store.waitFor(4, 2000);
  t.false(await store.waitFor(9, 50));
  store.swap(at(4));
  t.true(await waiting);
  t.is(store.seq, 4);
});

test('start-up against an unreachable database gives up after the start timeout, with the reason', async (t) => {
  const { startEngine } = await import('../../src/main.js');
  const started = Date.now();
  const err = await t.throwsAsync(
    startEngine(makeConfig({ port: 0, host: '127.0.0.1', databaseUrl: 'postgres://nobody@127.0.0.1:1/none' }), { logLevel: 'silent', startTimeoutMs: 1200 }),
  );
  t.regex(err!.message, /^engine could not start: .*ECONNREFUSED/);
  t.true(Date.now() - started < 6000);
});
