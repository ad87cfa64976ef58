// Live-query scale benchmark: `npm run bench:subscriptions [-- --sizes 1000,5000,10000] [--protocols graphql-ws,graphql-transport-ws]
//   [--duration 20] [--k 10] [--runs 1] [--batch 100] [--interval 1000] [--port P] [--db-prefix P] [--instances 1]
//   [--clients N] [--concurrency 100] [--engine-root DIR] [--workers 1]`.
// Per size and protocol: a fresh database and `instances` engines on it (ports P, P+1, …); N subscribers, each on
// its own socket and its own row of `items`, spread over the engines round-robin, subscribe to
// `items(where: {id: {_eq: $id}})`; then for `duration` s an updater (a plain pg client, as graphql-bench does)
// changes k rows per second (every 100 ms, k/10 random rows; a trigger sets updated_at).
// The subscribers live in `clients` child processes (bench/subscriptions-client.ts; default one per 9,000: a process
// holds at most its open-files limit of sockets), `concurrency` handshakes in flight in each. `--workers N` starts each
// engine as `serve --workers N` (N processes on its port); its CPU and RSS are then the sums over its processes.
// Reported: subscribers connected (and sockets that failed to open, e.g. reset), event-to-client latency (receipt −
// updated_at, messages of rows changed during the run) p50/p95/p99, Postgres statements/s of the engines' database
// while updating (xact_commit delta minus the updater's own), engine CPU % (of one core; the sum over engines and
// each engine's) and RSS from /proc, and payload errors (error frames, errors in data, bad rows, sockets closed by
// the server). The machine is usually shared: the figures are noisy.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { processTree, spawnEngine, type SpawnedProcess } from './engine.js';
import { withDatabase } from './config.js';
import type { ChildMessage, ClientCounters, ParentMessage } from './subscriptions-client.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const argOf = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const num = (name: string, dflt: number): number => Number(argOf(name) ?? dflt);
const opts = {
  sizes: (argOf('sizes') ?? '1000,5000,10000').split(',').map(Number),
  protocols: (argOf('protocols') ?? 'graphql-ws,graphql-transport-ws').split(','),
  duration: num('duration', 20),
  k: num('k', 10),
  runs: num('runs', 1),
  batch: num('batch', 100),
  interval: num('interval', 1000),
  port: num('port', 0),
  prefix: argOf('db-prefix') ?? 'engine_bench',
  instances: num('instances', 1),
  clients: argOf('clients') === undefined ? null : Number(argOf('clients')),
  concurrency: num('concurrency', 100),
  /** The checkout whose bin/engine.mjs is spawned (default: this one), e.g. a build of the previous commit. */
  engineRoot: argOf('engine-root') ?? null,
  workers: num('workers', 1),
};
const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CONNECT_TIMEOUT_MS = 120_000;

/** CPU ticks (user + system) and RSS (kB) of a process. */
function ownStat(pid: number): { ticks: number; rssKb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { ticks, rssKb: rss ? Number(rss[1]) : 0 };
}

/** The same summed over the process and its descendants (an engine's cluster workers; the same set at both ends of a
 * measurement as long as no worker is replaced, which the engine's log would say). */
function procStat(pid: number): { ticks: number; rssKb: number; processes: number } {
  const all = processTree(pid).map(ownStat);
  return { ticks: all.reduce((a, s) => a + s.ticks, 0), rssKb: all.reduce((a, s) => a + s.rssKb, 0), processes: all.length };
}

const pct = (xs: number[], p: number): number => (xs.length === 0 ? NaN : xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]);
const mb = (kb: number): number => Math.round(kb / 1024);

/** A client process and a way to wait for its next message of a type. */
interface Client {
  child: ChildProcess;
  next<T extends ChildMessage['type']>(type: T): Promise<Extract<ChildMessage, { type: T }>>;
  send(m: ParentMessage): void;
}

function startClient(): Client {
  const child = fork(join(ROOT, 'bench/subscriptions-client.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  return {
    child,
    next: (type) =>
      new Promise((resolve, reject) => {
        const onMessage = (m: ChildMessage): void => {
          if (m.type !== type) return;
          child.off('message', onMessage);
          child.off('exit', onExit);
          resolve(m as never);
        };
        const onExit = (code: number | null): void => reject(new Error(`bench client exited (${code}) before '${type}'`));
        child.on('message', onMessage);
        child.once('exit', onExit);
      }),
    send: (m) => child.send(m),
  };
}

/** Engines on `dbUrl`; the first one tracks `items`, the others must serve it (they follow the metadata log). */
async function startEngines(dbUrl: string, n: number, protocol: string): Promise<SpawnedProcess[]> {
  const engines: SpawnedProcess[] = [];
  for (let i = 0; i < opts.instances; i++) {
    const e = await spawnEngine({
      databaseUrl: dbUrl,
      root: opts.engineRoot,
      port: opts.port === 0 ? 0 : opts.port + i,
      logFile: join(ROOT, `bench/results/subscriptions-engine-${n}-${protocol}-${i + 1}.log`),
      args: opts.workers > 1 ? ['--workers', String(opts.workers)] : [],
      env: {
        ENGINE_GRAPHQL_ADMIN_SECRET: 'bench',
        ENGINE_GRAPHQL_LOG_LEVEL: 'warn',
        ENGINE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_BATCH_SIZE: String(opts.batch),
        ENGINE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: String(opts.interval),
        // The primary's "all N workers ready" (a start-up line at info) must be written; nothing else is added.
        ...(opts.workers > 1 ? { ENGINE_GRAPHQL_LOG_LEVEL: 'info', ENGINE_GRAPHQL_ENABLED_LOG_TYPES: 'startup' } : {}),
      },
    });
    engines.push(e);
    if (opts.workers > 1) await allWorkersReady(e);
  }
  return engines;
}

/** Until the engine's primary logs that all its workers are ready: /healthz answers once the first one is, and
 * subscribers connecting before the others listen would all go to it. */
async function allWorkersReady(e: SpawnedProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!readFileSync(e.logFile, 'utf8').includes(`"all ${opts.workers} workers ready"`)) {
    if (Date.now() > deadline) throw new Error(`not all ${opts.workers} workers ready after 60 s (log: ${e.logFile})`);
    await sleep(200);
  }
}

async function trackItems(engines: SpawnedProcess[]): Promise<void> {
  const headers = { 'content-type': 'application/json', 'x-engine-admin-secret': 'bench' };
  const tr = await fetch(`${engines[0].url}/v1/query`, { method: 'POST', headers, body: JSON.stringify({ type: 'track_table', args: 'items' }) });
  if (tr.status !== 200) throw new Error(`track_table: ${await tr.text()}`);
  const deadline = Date.now() + 30_000;
  for (const e of engines) {
    for (;;) {
      const r = await fetch(`${e.url}/v1/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: '{ items(limit: 1) { id } }' }) });
      if ((await r.text()).includes('"data"')) break;
      if (Date.now() > deadline) throw new Error(`${e.url} does not serve items 30 s after track_table`);
      await sleep(100);
    }
  }
}

async function createItems(pgc: pg.Client, n: number): Promise<void> {
  await pgc.query(`CREATE TABLE items (id int PRIMARY KEY, value int NOT NULL, updated_at timestamptz NOT NULL DEFAULT clock_timestamp());
    CREATE FUNCTION items_touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.updated_at := clock_timestamp(); RETURN NEW; END $$;
    CREATE TRIGGER items_touch BEFORE UPDATE ON items FOR EACH ROW EXECUTE FUNCTION items_touch();
    INSERT INTO items (id, value) SELECT g, 0 FROM generate_series(1, ${n}) g;`);
}

/** Opens the N subscribers from the client processes; resolves when all had their initial result (or the deadline). */
async function connectAll(clients: Client[], urls: string[], n: number, protocol: string): Promise<{ initial: number; failed: number }> {
  const per = Math.ceil(n / clients.length);
  const done = clients.map((cl, i) => {
    const from = 1 + i * per;
    cl.send({ type: 'start', urls, protocol, from, to: Math.min(n, from + per - 1), concurrency: opts.concurrency, timeoutMs: CONNECT_TIMEOUT_MS });
    return cl.next('connected');
  });
  const all = await Promise.all(done);
  return { initial: all.reduce((a, m) => a + m.initial, 0), failed: all.reduce((a, m) => a + m.failed, 0) };
}

async function collect(clients: Client[]): Promise<ClientCounters> {
  const all = await Promise.all(clients.map((cl) => (cl.send({ type: 'report' }), cl.next('counters'))));
  return {
    type: 'counters',
    latencies: all.flatMap((c) => c.latencies),
    errors: all.reduce((a, c) => a + c.errors, 0),
    errorSamples: all.flatMap((c) => c.errorSamples).slice(0, 5),
    messages: all.reduce((a, c) => a + c.messages, 0),
    closedByServer: all.reduce((a, c) => a + c.closedByServer, 0),
    connectFailures: all.reduce((a, c) => a + c.connectFailures, 0),
    connectFailureSamples: all.flatMap((c) => c.connectFailureSamples).slice(0, 5),
  };
}

async function runOne(n: number, protocol: string, run: number): Promise<Record<string, unknown>> {
  const db = `${opts.prefix}_subs`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${db}`);
  await admin.query(`CREATE DATABASE ${db}`);
  await admin.end();
  const dbUrl = withDatabase(baseUrl, db);
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  let engines: SpawnedProcess[] = [];
  const pgc = new pg.Client({ connectionString: dbUrl });
  const clients = Array.from({ length: opts.clients ?? Math.ceil(n / 9000) }, startClient);
  try {
    engines = await startEngines(dbUrl, n, protocol);
    const pids = engines.map((e) => e.child.pid!);
    await pgc.connect();
    await createItems(pgc, n);
    await trackItems(engines);

    const rss0 = pids.map((p) => procStat(p).rssKb);
    const connectStarted = Date.now();
    const urls = engines.map((e) => `${e.url.replace(/^http/, 'ws')}/v1/graphql`);
    const connected = await connectAll(clients, urls, n, protocol);
    const connectMs = Date.now() - connectStarted;
    const rssConnected = pids.map((p) => procStat(p).rssKb);

    // Updating: k rows per second, k/10 every 100 ms, through a plain Postgres connection.
    const xact = async (): Promise<number> => Number((await pgc.query(`SELECT xact_commit + xact_rollback AS x FROM pg_stat_database WHERE datname = $1`, [db])).rows[0].x);
    await sleep(1500);
    const x0 = await xact();
    const s0 = pids.map(procStat);
    let updaterTx = 0;
    const rssMax = s0.map((s) => s.rssKb);
    const updateStart = Date.now();
    for (const cl of clients) cl.send({ type: 'update-start', at: updateStart });
    const per = Math.max(1, Math.round(opts.k / 10));
    const end = updateStart + opts.duration * 1000;
    let tick = 0;
    while (Date.now() < end) {
      const ids = Array.from({ length: per }, () => 1 + Math.floor(Math.random() * n));
      await pgc.query('UPDATE items SET value = value + 1 WHERE id = ANY($1::int[])', [ids]);
      updaterTx++;
      if (++tick % 10 === 0) pids.forEach((p, i) => (rssMax[i] = Math.max(rssMax[i], procStat(p).rssKb)));
      await sleep(100);
    }
    const elapsed = (Date.now() - updateStart) / 1000;
    const s1 = pids.map(procStat);
    await sleep(1500); // statistics are flushed at most once a second
    const x1 = await xact();
    const statements = (x1 - x0 - updaterTx - 2) / (elapsed + 1.5);
    await sleep(Math.max(0, opts.interval * 2 - 1500)); // drain
    const c = await collect(clients);
    const lat = [...c.latencies].sort((a, b) => a - b);
    const cpu = pids.map((_, i) => Math.round(((s1[i].ticks - s0[i].ticks) / 100 / elapsed) * 1000) / 10);
    const result = {
      n, protocol, run, instances: engines.length, clients: clients.length, connected: connected.initial, connectFailures: c.connectFailures,
      connectFailureSamples: c.connectFailureSamples, connectMs, events: lat.length,
      mean: Math.round(lat.reduce((a, b) => a + b, 0) / Math.max(1, lat.length)), p50: pct(lat, 50), p95: pct(lat, 95), p99: pct(lat, 99), max: lat.at(-1) ?? NaN,
      sqlPerSecond: Math.round(statements * 10) / 10,
      cpuPercent: Math.round(cpu.reduce((a, b) => a + b, 0) * 10) / 10, cpuPercentPerEngine: cpu, workers: opts.workers,
      processesPerEngine: s1.map((s) => s.processes),
      rssStartMb: rss0.map(mb), rssConnectedMb: rssConnected.map(mb), rssMaxMb: rssMax.map((r, i) => mb(Math.max(r, s1[i].rssKb))),
      payloadErrors: c.errors + c.closedByServer, errorSamples: c.errorSamples,
    };
    console.log(JSON.stringify(result));
    return result;
  } finally {
    for (const cl of clients) if (cl.child.connected) cl.send({ type: 'close' });
    await Promise.all(clients.map((cl) => (cl.child.exitCode === null ? new Promise((r) => cl.child.once('exit', r)) : undefined)));
    await pgc.end().catch(() => undefined);
    await Promise.all(engines.map((e) => e.stop()));
    const a = new pg.Client({ connectionString: baseUrl });
    await a.connect();
    await a.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`).catch(() => undefined);
    await a.end();
  }
}

const results: Record<string, unknown>[] = [];
console.log(`# subscriptions bench: sizes ${opts.sizes.join(',')}, protocols ${opts.protocols.join(',')}, ${opts.duration} s updating ${opts.k} rows/s, batch ${opts.batch}, refetch ${opts.interval} ms, ${opts.instances} engine(s)`);
for (let run = 1; run <= opts.runs; run++) {
  for (const n of opts.sizes) for (const protocol of opts.protocols) results.push(await runOne(n, protocol, run));
}
const file = join(ROOT, `bench/results/subscriptions-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, JSON.stringify({ opts, results }, null, 2));
console.log(`# written ${file}`);
