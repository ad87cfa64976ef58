// Remote relationships (issue 30): a table of 1,000 rows joined to a remote field on loopback (a server in this
// process answering join queries at once, without a GraphQL executor, counting what it receives). Reports, per
// GraphQL request, the remote HTTP requests and aliased fields sent, and the request's latency against the same query without the remote field
// (sequential requests, interleaved, medians and p90), for 100 distinct join keys and for 1,000 (every row its own).
// Also the floor: the remote exchange alone (the engine's join query posted straight to the remote, interleaved
// with the rest) added to the query without the remote field; what the engine's join costs over it is its own work.
// And the engine's CPU per request with and without the join (blocks of sequential requests, from /proc).
// usage: node --import tsx bench/remote-joins.ts [--requests 100] [--port P] [--database NAME]
//   DATABASE_URL: the Postgres server; --port: the engine's port, the remote's is P+1 (default: free ports);
//   --database: the bench's own database, dropped and re-created (default bench_remote_joins);
//   BENCH_NODE_FLAGS: node flags for the engine (e.g. `--cpu-prof --cpu-prof-dir=DIR`).
import http from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildSchema, graphql } from 'graphql';
import pg from 'pg';
import { freePort } from './engine.js';
import { processCpuSeconds } from './load.js';
import { withDatabase } from './config.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const REQUESTS = Number(arg('requests', '100'));
const fixedPort = Number(arg('port', '0'));
const DB = arg('database', 'bench_remote_joins');
if (!/^[a-z_][a-z0-9_]*$/.test(DB)) throw new Error(`--database: ${DB} is not a plain lower-case name`);
const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const schema = buildSchema('type RemoteItem { key: Int, label: String } type Query { remoteItem(key: Int!): RemoteItem }');
const rootValue = { remoteItem: ({ key }: { key: number }) => ({ key, label: `item ${key}` }) };
const seen = { requests: 0, fields: 0, remoteMs: 0 };
/** The last join query a remote received (its body as sent), to time the remote exchange on its own. */
let lastJoinBody = '';

function startRemote(port: number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query: string; variables?: Record<string, unknown> };
      if (!body.query.includes('__schema') && req.headers['x-bench-direct'] === undefined) {
        lastJoinBody = Buffer.concat(chunks).toString('utf8');
        seen.requests += 1;
        seen.fields += (body.query.match(/__\d+:/g) ?? []).length;
      }
      const t0 = performance.now();
      // Join queries are answered at once, without a GraphQL executor (the bench measures the engine, not a
      // remote's executor): every `alias: remoteItem(key: N) { ... }` gets its item.
      if (!body.query.includes('__schema')) {
        const data: Record<string, unknown> = {};
        for (const m of body.query.matchAll(/(\w+): remoteItem\(key: (-?\d+)\)/g)) data[m[1]] = { key: Number(m[2]), label: `item ${m[2]}` };
        const text = JSON.stringify({ data });
        seen.remoteMs += performance.now() - t0;
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
        return;
      }
      void graphql({ schema, source: body.query, rootValue, variableValues: body.variables }).then((result) => {
        const text = JSON.stringify(result);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      });
    });
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((r) => server.listen(port, '127.0.0.1', () => r(server)));
}

function startEngine(port: number, dbUrl: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(process.env.BENCH_NODE_FLAGS ? process.env.BENCH_NODE_FLAGS.split(' ') : []), 'bin/engine.mjs', 'serve', '--database-url', dbUrl, '--server-port', String(port), '--enable-console', 'false'], {
      cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout!.on('data', (d: Buffer) => { if (d.toString().includes('"server"')) resolve(child); });
    child.once('exit', (code) => reject(new Error(`engine exited with ${code}`)));
  });
}

async function post(url: string, body: unknown): Promise<{ ms: number; text: string }> {
  const t0 = performance.now();
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await r.text();
  return { ms: performance.now() - t0, text };
}

const quantile = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/** The engine's CPU per request (ms) over `n` sequential requests of one body (steadier than latency on a shared machine). */
async function cpuPerRequest(pid: number, url: string, body: unknown, n: number): Promise<number> {
  const c0 = processCpuSeconds(pid) ?? NaN;
  for (let i = 0; i < n; i++) await post(url, body);
  return ((processCpuSeconds(pid) ?? NaN) - c0) * 1000 / n;
}

async function measure(pid: number, url: string, remoteUrl: string, column: string): Promise<void> {
  const withJoin = { query: `{ item(order_by: {id: asc}) { id ${column}Remote { key label } } }` };
  const without = { query: `{ item(order_by: {id: asc}) { id ${column} } }` };
  for (let i = 0; i < 10; i++) {
    await post(url, withJoin);
    await post(url, without);
  }
  // The floor: the same query without the remote field plus the remote exchange alone (the join query the engine
  // sent, posted straight to the remote by this process). No engine can answer the join faster than that sum.
  const direct = lastJoinBody;
  const exchange = async (): Promise<number> => {
    const t0 = performance.now();
    const r = await fetch(remoteUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-bench-direct': '1' }, body: direct });
    await r.text();
    return performance.now() - t0;
  };
  const a: number[] = [];
  const b: number[] = [];
  const x: number[] = [];
  const before = { ...seen };
  for (let i = 0; i < REQUESTS; i++) {
    const r = await post(url, withJoin);
    if (!r.text.startsWith('{"data"')) throw new Error(r.text.slice(0, 300));
    a.push(r.ms);
    b.push((await post(url, without)).ms);
    x.push(await exchange());
  }
  const sent = seen.requests - before.requests;
  const fieldsSent = seen.fields - before.fields;
  const remoteMs = seen.remoteMs - before.remoteMs;
  // CPU in blocks of one body each, alternated, summed over rounds.
  let cpuWith = 0;
  let cpuWithout = 0;
  for (let round = 0; round < 4; round++) {
    cpuWith += await cpuPerRequest(pid, url, withJoin, REQUESTS) / 4;
    cpuWithout += await cpuPerRequest(pid, url, without, REQUESTS) / 4;
  }
  const ma = quantile(a, 0.5);
  const mb = quantile(b, 0.5);
  const mx = quantile(x, 0.5);
  process.stdout.write(`${column === 'k' ? '100 distinct keys ' : '1000 distinct keys'}: remote requests/GraphQL request ${sent / REQUESTS}, `
    + `aliased fields/request ${fieldsSent / REQUESTS}, remote's own time/exchange ${(remoteMs / (sent + REQUESTS)).toFixed(2)} ms; latency median ${ma.toFixed(2)} ms (p90 ${quantile(a, 0.9).toFixed(2)}) `
    + `vs ${mb.toFixed(2)} ms (p90 ${quantile(b, 0.9).toFixed(2)}) without the remote field: ${(ma / mb).toFixed(2)}x; `
    + `the remote exchange alone ${mx.toFixed(2)} ms (p90 ${quantile(x, 0.9).toFixed(2)}), floor (without + exchange) ${((mb + mx) / mb).toFixed(2)}x, `
    + `the engine's join work over the floor ${(ma - mb - mx).toFixed(2)} ms; engine CPU/request ${cpuWith.toFixed(2)} vs ${cpuWithout.toFixed(2)} ms\n`);
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${DB}"`);
  await admin.end();
  const dbUrl = withDatabase(baseUrl, DB);
  const enginePort = fixedPort || await freePort();
  const remotePort = fixedPort ? fixedPort + 1 : await freePort();
  const remote = await startRemote(remotePort);
  const engine = await startEngine(enginePort, dbUrl);
  try {
    const base = `http://127.0.0.1:${enginePort}`;
    for (let i = 0; !(await fetch(`${base}/healthz`).then((r) => r.ok, () => false)); i++) {
      if (i > 150) throw new Error('engine not ready');
      await new Promise((r) => setTimeout(r, 200));
    }
    const rel = (name: string, column: string) => ({
      type: 'create_remote_relationship',
      args: { name, table: 'item', engine_fields: [column], remote_schema: 'items', remote_field: { remoteItem: { arguments: { key: `$${column}` } } } },
    });
    const setup = await post(`${base}/v1/query`, {
      type: 'bulk',
      args: [
        { type: 'run_sql', args: { sql: 'CREATE TABLE item (id int PRIMARY KEY, k int NOT NULL); INSERT INTO item SELECT i, i % 100 FROM generate_series(1, 1000) i;' } },
        { type: 'track_table', args: 'item' },
        { type: 'add_remote_schema', args: { name: 'items', definition: { url: `http://127.0.0.1:${remotePort}/` } } },
        rel('kRemote', 'k'),
        rel('idRemote', 'id'),
      ],
    });
    if (!setup.text.includes('success')) throw new Error(setup.text);
    await measure(engine.pid!, `${base}/v1/graphql`, `http://127.0.0.1:${remotePort}/`, 'k');
    await measure(engine.pid!, `${base}/v1/graphql`, `http://127.0.0.1:${remotePort}/`, 'id');
  } finally {
    engine.kill('SIGINT');
    await new Promise((r) => engine.once('exit', r));
    remote.close();
    const c = new pg.Client({ connectionString: baseUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
    await c.end();
  }
}

await main();
