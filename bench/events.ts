// Event-trigger benchmark: `npm run bench:events [-- --rows N] [--batch N] [--rounds N] [--db-prefix P]`.
// 1. Capture overhead: N rows inserted in batches into a table without a trigger and into the same table with an
//    insert trigger (engine stopped, so nothing competes), alternately, `rounds` times; medians and their ratio.
// 2. Delivery: the engine (default --events-http-pool-size) running, N rows inserted in batches into the captured
//    table; a loopback webhook answering 200 at once records each event id. Reports the time until the last event
//    arrived, events/s over the whole run and from first to last delivery, and checks event_log agrees.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { spawnEngine, type SpawnedProcess } from './engine.js';
import { argOf, numArg, withDatabase } from './config.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const num = numArg;
const opts = { rows: num('rows', 10_000), batch: num('batch', 500), rounds: num('rounds', 3), prefix: argOf('db-prefix') ?? 'engine_bench' };
const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = `${opts.prefix}_events`;
const dbUrl = withDatabase(baseUrl, DB);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number): string => `${x.toFixed(0)} ms`;

/** A webhook answering 200 at once, recording the first arrival of each event id. */
function startWebhook(): Promise<{ url: string; seen: Map<string, number>; requests: () => number; close(): void }> {
  const seen = new Map<string, number>();
  let requests = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests++;
      const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }).id;
      if (!seen.has(id)) seen.set(id, performance.now());
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{}');
    });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, seen, requests: () => requests, close: () => { server.closeAllConnections(); server.close(); } })));
}

async function insertRows(c: pg.Client, table: string): Promise<number> {
  const t0 = performance.now();
  for (let start = 1; start <= opts.rows; start += opts.batch) {
    const ids = Array.from({ length: Math.min(opts.batch, opts.rows - start + 1) }, (_, i) => start + i);
    await c.query(`INSERT INTO ${table} (id, name, value) SELECT * FROM unnest($1::int[], $2::text[], $3::int[])`, [ids, ids.map((i) => `name ${i}`), ids.map((i) => i * 7)]);
  }
  return performance.now() - t0;
}

async function resetTables(c: pg.Client): Promise<void> {
  await c.query('TRUNCATE plain, captured');
  await c.query('TRUNCATE engine_catalog.event_invocation_logs, engine_catalog.event_log_rows, engine_catalog.event_log_batches');
}

async function startEngine(): Promise<SpawnedProcess> {
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  return spawnEngine({ databaseUrl: dbUrl, port: 0, logFile: join(ROOT, 'bench/results/events-engine.log'), env: { ENGINE_GRAPHQL_LOG_LEVEL: 'warn' } });
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${DB}"`);
  await admin.end();
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  await c.query(`CREATE TABLE plain (id int PRIMARY KEY, name text NOT NULL, value int NOT NULL, at timestamptz NOT NULL DEFAULT now());
                 CREATE TABLE captured (id int PRIMARY KEY, name text NOT NULL, value int NOT NULL, at timestamptz NOT NULL DEFAULT now())`);
  const hook = await startWebhook();
  let engine = await startEngine();
  const r = await fetch(`${engine.url}/v1/query`, {
    method: 'POST',
    body: JSON.stringify({ type: 'bulk', args: [
      { type: 'track_table', args: 'captured' },
      { type: 'create_event_trigger', args: { name: 'captured_insert', table: 'captured', webhook: hook.url, insert: { columns: '*' } } },
    ] }),
  });
  if (r.status !== 200) throw new Error(`metadata set-up failed: ${await r.text()}`);
  await engine.stop();

  // 1. Capture overhead, engine stopped.
  const plain: number[] = [];
  const captured: number[] = [];
  for (let i = 0; i < opts.rounds; i++) {
    await resetTables(c);
    plain.push(await insertRows(c, 'plain'));
    captured.push(await insertRows(c, 'captured'));
  }
  const events = Number((await c.query('SELECT count(*) AS n FROM engine_catalog.event_log')).rows[0].n);
  if (events !== opts.rows) throw new Error(`expected ${opts.rows} captured events, found ${events}`);

  // 2. Delivery with the engine running.
  await resetTables(c);
  engine = await startEngine();
  const t0 = performance.now();
  const insertMs = await insertRows(c, 'captured');
  const deadline = Date.now() + 180_000;
  while (hook.seen.size < opts.rows && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
  const times = [...hook.seen.values()];
  const first = Math.min(...times);
  const last = Math.max(...times);
  // The last outcomes are stored right after the webhook answers.
  let delivered = 0;
  for (let i = 0; i < 100 && delivered < opts.rows; i++) {
    delivered = Number((await c.query('SELECT count(*) AS n FROM engine_catalog.event_log WHERE delivered')).rows[0].n);
    if (delivered < opts.rows) await new Promise((res) => setTimeout(res, 50));
  }
  await engine.stop();
  hook.close();
  await c.end();

  const report = {
    machine: 'shared (figures are noisy)',
    rows: opts.rows, batch: opts.batch, rounds: opts.rounds,
    capture: { plain_ms: plain.map(Math.round), captured_ms: captured.map(Math.round), median_plain_ms: Math.round(median(plain)), median_captured_ms: Math.round(median(captured)), ratio: +(median(captured) / median(plain)).toFixed(2) },
    delivery: {
      received: hook.seen.size, requests: hook.requests(), delivered_in_event_log: delivered,
      insert_ms: Math.round(insertMs), first_event_ms: Math.round(first - t0), last_event_ms: Math.round(last - t0),
      events_per_s_overall: Math.round(hook.seen.size / ((last - t0) / 1000)),
      events_per_s_delivering: Math.round(hook.seen.size / ((last - first) / 1000)),
    },
  };
  const file = join(ROOT, `bench/results/events-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(report, null, 2));
  process.stdout.write(
    `event triggers bench (${opts.rows} rows in batches of ${opts.batch}; machine shared, figures noisy)\n` +
    `  capture: plain insert ${ms(report.capture.median_plain_ms)}, with trigger ${ms(report.capture.median_captured_ms)} (median of ${opts.rounds}) -> ${report.capture.ratio}x\n` +
    `  delivery: ${report.delivery.received}/${opts.rows} events (${report.delivery.requests} requests, ${delivered} delivered in event_log); ` +
    `insert ${ms(report.delivery.insert_ms)}, first event ${ms(report.delivery.first_event_ms)}, last event ${ms(report.delivery.last_event_ms)} after the first insert\n` +
    `  throughput: ${report.delivery.events_per_s_overall} events/s overall, ${report.delivery.events_per_s_delivering} events/s first to last delivery\n` +
    `  report: ${file}\n`,
  );
  if (hook.seen.size !== opts.rows || delivered !== opts.rows) process.exitCode = 1;
}

main().catch((e) => {
  process.stderr.write(`bench:events failed: ${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
