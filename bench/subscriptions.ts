// Live-query scale benchmark: `npm run bench:subscriptions [-- --sizes 1000,5000,10000] [--protocols graphql-ws,graphql-transport-ws]
//   [--duration 20] [--k 10] [--runs 1] [--batch 100] [--interval 1000] [--port P] [--db-prefix P]`.
// Per size and protocol: a fresh database and engine; N subscribers, each on its own socket and its own row of
// `items`, subscribe to `items(where: {id: {_eq: $id}})`; then for `duration` s an updater (a plain pg client, as
// graphql-bench does) changes k rows per second (every 100 ms, k/10 random rows; a trigger sets updated_at).
// Reported: event-to-client latency (receipt − updated_at, messages of rows changed during the run) p50/p95/p99,
// Postgres statements/s of the engine's database while updating (xact_commit delta minus the updater's own),
// engine CPU % (of one core) and peak RSS from /proc, and payload errors (error frames, errors in data, bad rows,
// sockets closed by the server). The machine is usually shared: the figures are noisy.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import WebSocket from 'ws';
import { spawnEngine, type SpawnedProcess } from './engine.js';
import { withDatabase } from './config.js';

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
};
const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const QUERY = 'subscription ($id: Int!) { items(where: {id: {_eq: $id}}) { id value updated_at } }';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU ticks (user + system) and RSS (kB) of a process. */
function procStat(pid: number): { ticks: number; rssKb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { ticks, rssKb: rss ? Number(rss[1]) : 0 };
}

interface Subscriber {
  id: number;
  socket: WebSocket;
  initial: boolean;
}

interface Counters {
  latencies: number[];
  errors: number;
  errorSamples: string[];
  messages: number;
  closedByServer: number;
}

function openSubscriber(url: string, protocol: string, id: number, c: Counters, updateStart: () => number, onInitial: () => void): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, [protocol]);
    const sub: Subscriber = { id, socket, initial: false };
    const fail = (why: string): void => {
      c.errors++;
      if (c.errorSamples.length < 5) c.errorSamples.push(why.slice(0, 200));
    };
    socket.on('open', () => {
      socket.send(JSON.stringify({ type: 'connection_init', payload: { headers: { 'x-engine-admin-secret': 'bench' } } }));
      const payload = { query: QUERY, variables: { id } };
      // Apollo clients send start right after init (as graphql-bench does); graphql-transport-ws waits for the ack.
      if (protocol === 'graphql-ws') socket.send(JSON.stringify({ id: '1', type: 'start', payload }));
      resolve(sub);
    });
    socket.on('error', (e) => reject(e));
    socket.on('close', () => {
      if (!closing) c.closedByServer++;
    });
    socket.on('message', (data) => {
      const m = JSON.parse(String(data)) as { type: string; payload?: { data?: { items?: Array<{ id: number; value: number; updated_at: string }> }; errors?: unknown } };
      if (m.type === 'connection_ack' && protocol === 'graphql-transport-ws') {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: QUERY, variables: { id } } }));
        return;
      }
      if (m.type === 'ka' || m.type === 'connection_ack' || m.type === 'ping' || m.type === 'pong') return;
      if (m.type !== 'data' && m.type !== 'next') return fail(JSON.stringify(m));
      c.messages++;
      if (m.payload?.errors !== undefined) return fail(JSON.stringify(m.payload));
      const row = m.payload?.data?.items?.[0];
      if (!row || row.id !== id || typeof row.value !== 'number' || Number.isNaN(Date.parse(row.updated_at))) return fail(JSON.stringify(m.payload));
      if (!sub.initial) {
        sub.initial = true;
        onInitial();
        return;
      }
      const at = Date.parse(row.updated_at);
      if (updateStart() > 0 && at >= updateStart()) c.latencies.push(Date.now() - at);
    });
  });
}

let closing = false;

const pct = (xs: number[], p: number): number => (xs.length === 0 ? NaN : xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]);

async function runOne(n: number, protocol: string, run: number): Promise<Record<string, unknown>> {
  closing = false;
  const db = `${opts.prefix}_subs`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${db}`);
  await admin.query(`CREATE DATABASE ${db}`);
  await admin.end();
  const dbUrl = withDatabase(baseUrl, db);
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  let engine: SpawnedProcess | null = null;
  const pgc = new pg.Client({ connectionString: dbUrl });
  const subs: Subscriber[] = [];
  try {
    engine = await spawnEngine({
      databaseUrl: dbUrl,
      port: opts.port,
      logFile: join(ROOT, `bench/results/subscriptions-engine-${n}-${protocol}.log`),
      env: {
        ENGINE_GRAPHQL_ADMIN_SECRET: 'bench',
        ENGINE_GRAPHQL_LOG_LEVEL: 'warn',
        ENGINE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_BATCH_SIZE: String(opts.batch),
        ENGINE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: String(opts.interval),
      },
    });
    const pid = engine.child.pid!;
    await pgc.connect();
    await pgc.query(`CREATE TABLE items (id int PRIMARY KEY, value int NOT NULL, updated_at timestamptz NOT NULL DEFAULT clock_timestamp());
      CREATE FUNCTION items_touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.updated_at := clock_timestamp(); RETURN NEW; END $$;
      CREATE TRIGGER items_touch BEFORE UPDATE ON items FOR EACH ROW EXECUTE FUNCTION items_touch();
      INSERT INTO items (id, value) SELECT g, 0 FROM generate_series(1, ${n}) g;`);
    const tr = await fetch(`${engine.url}/v1/query`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-engine-admin-secret': 'bench' }, body: JSON.stringify({ type: 'track_table', args: 'items' }),
    });
    if (tr.status !== 200) throw new Error(`track_table: ${await tr.text()}`);

    const c: Counters = { latencies: [], errors: 0, errorSamples: [], messages: 0, closedByServer: 0 };
    let updateStart = 0;
    let initial = 0;
    const rss0 = procStat(pid).rssKb;
    const connectStarted = Date.now();
    const wsUrl = `${engine.url.replace(/^http/, 'ws')}/v1/graphql`;
    for (let i = 0; i < n; i += 100) {
      const batch = await Promise.all(Array.from({ length: Math.min(100, n - i) }, (_, j) => openSubscriber(wsUrl, protocol, i + j + 1, c, () => updateStart, () => initial++)));
      subs.push(...batch);
    }
    const deadline = Date.now() + 120_000;
    while (initial < n && Date.now() < deadline) await sleep(100);
    const connectMs = Date.now() - connectStarted;
    const rssConnected = procStat(pid).rssKb;

    // Updating: k rows per second, k/10 every 100 ms, through a plain Postgres connection.
    const xact = async (): Promise<number> => Number((await pgc.query(`SELECT xact_commit + xact_rollback AS x FROM pg_stat_database WHERE datname = $1`, [db])).rows[0].x);
    await sleep(1500);
    const x0 = await xact();
    const s0 = procStat(pid);
    let updaterTx = 0;
    let rssMax = s0.rssKb;
    updateStart = Date.now();
    const per = Math.max(1, Math.round(opts.k / 10));
    const end = updateStart + opts.duration * 1000;
    let tick = 0;
    while (Date.now() < end) {
      const ids = Array.from({ length: per }, () => 1 + Math.floor(Math.random() * n));
      await pgc.query('UPDATE items SET value = value + 1 WHERE id = ANY($1::int[])', [ids]);
      updaterTx++;
      if (++tick % 10 === 0) rssMax = Math.max(rssMax, procStat(pid).rssKb);
      await sleep(100);
    }
    const elapsed = (Date.now() - updateStart) / 1000;
    const s1 = procStat(pid);
    await sleep(1500); // statistics are flushed at most once a second
    const x1 = await xact();
    const statements = (x1 - x0 - updaterTx - 2) / (elapsed + 1.5);
    await sleep(Math.max(0, opts.interval * 2 - 1500)); // drain
    const lat = [...c.latencies].sort((a, b) => a - b);
    const result = {
      n, protocol, run, connected: initial, connectMs, events: lat.length,
      p50: pct(lat, 50), p95: pct(lat, 95), p99: pct(lat, 99), max: lat.at(-1) ?? NaN,
      sqlPerSecond: Math.round(statements * 10) / 10,
      cpuPercent: Math.round(((s1.ticks - s0.ticks) / 100 / elapsed) * 1000) / 10,
      rssStartMb: Math.round(rss0 / 1024), rssConnectedMb: Math.round(rssConnected / 1024), rssMaxMb: Math.round(Math.max(rssMax, s1.rssKb) / 1024),
      payloadErrors: c.errors + c.closedByServer, errorSamples: c.errorSamples,
    };
    console.log(JSON.stringify(result));
    return result;
  } finally {
    closing = true;
    for (const s of subs) s.socket.terminate();
    await pgc.end().catch(() => undefined);
    await engine?.stop();
    const a = new pg.Client({ connectionString: baseUrl });
    await a.connect();
    await a.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`).catch(() => undefined);
    await a.end();
  }
}

const results: Record<string, unknown>[] = [];
console.log(`# subscriptions bench: sizes ${opts.sizes.join(',')}, protocols ${opts.protocols.join(',')}, ${opts.duration} s updating ${opts.k} rows/s, batch ${opts.batch}, refetch ${opts.interval} ms`);
for (let run = 1; run <= opts.runs; run++) {
  for (const n of opts.sizes) for (const protocol of opts.protocols) results.push(await runOne(n, protocol, run));
}
const file = join(ROOT, `bench/results/subscriptions-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, JSON.stringify({ opts, results }, null, 2));
console.log(`# written ${file}`);
