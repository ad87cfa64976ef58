// Remote-schema overhead (issue 13): (1) a query forwarded through the engine against the same query sent to the
// remote directly (a graphql-js server in its own process), same load: engine/direct throughput; (2) a request
// mixing a table field and a remote field against max(database-only, remote-only) latency, one connection.
// usage: node --import tsx bench/remote.ts [--seconds 5] [--connections 10] [--port P] [--database NAME]
//   DATABASE_URL: the Postgres server; --port: the engine's port, the remote's is P+1 (default: free ports);
//   --database: the bench's own database, dropped and re-created (default h13_bench_remote).
// Run it alone on a shared machine (bench/README.md); figures are noisy otherwise.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from './engine.js';
import { measureRun, warmUp, type LoadResult } from './load.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const seconds = arg('seconds', 5);
const connections = arg('connections', 10);
const fixedPort = arg('port', 0);
const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbArg = process.argv.indexOf('--database');
const DB = dbArg > 0 ? process.argv[dbArg + 1] : 'h13_bench_remote';
// The name goes into DROP/CREATE DATABASE as an identifier: plain names only.
if (!/^[a-z_][a-z0-9_]*$/.test(DB)) throw new Error(`--database: ${DB} is not a plain lower-case name`);

function start(args: string[], env: Record<string, string>, ready: (line: string) => boolean): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout!.on('data', (d: Buffer) => { if (ready(d.toString())) resolve(child); });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

async function post(url: string, body: unknown): Promise<string> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return r.text();
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await fetch(url).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready`);
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${DB}"`);
  await admin.end();
  const dbUrl = new URL(baseUrl);
  dbUrl.pathname = `/${DB}`;

  const enginePort = fixedPort || await freePort();
  const remotePort = fixedPort ? fixedPort + 1 : await freePort();
  const remote = await start(['--import', 'tsx', 'bench/remote-server.ts', String(remotePort)], {}, (l) => l.includes('ready'));
  const engine = spawn(process.execPath, ['bin/engine.mjs', 'serve', '--database-url', dbUrl.toString(), '--server-port', String(enginePort), '--log-level', 'error'], {
    cwd: ROOT, env: { ...process.env, ENGINE_GRAPHQL_ENABLED_LOG_TYPES: 'startup' }, stdio: 'ignore',
  });
  const engineUrl = `http://127.0.0.1:${enginePort}`;
  const remoteUrl = `http://127.0.0.1:${remotePort}`;
  try {
    await waitFor(`${engineUrl}/healthz`);
    const setup = await post(`${engineUrl}/v1/query`, { type: 'bulk', args: [
      { type: 'run_sql', args: { sql: "create table author (id serial primary key, name text); insert into author (name) select 'author ' || g from generate_series(1, 1000) g;" } },
      { type: 'track_table', args: { schema: 'public', name: 'author' } },
      { type: 'add_remote_schema', args: { name: 'bench', definition: { url: `${remoteUrl}/graphql` } } },
    ] });
    if (!setup.startsWith('[')) throw new Error(`setup: ${setup}`);

    const load = async (url: string, query: string, conns: number): Promise<LoadResult> => {
      const body = JSON.stringify({ query });
      const expectBody = await post(`${url}/v1/graphql`, { query });
      if (expectBody.includes('"errors"')) throw new Error(`${query}: ${expectBody}`);
      const o = { url, body, connections: conns, warmupSeconds: 1, durationSeconds: seconds, expectBody };
      await warmUp(o);
      const r = await measureRun(o);
      if (r.errors || r.non2xx || r.mismatches) throw new Error(`${query}: ${r.errors} errors, ${r.non2xx} non-2xx, ${r.mismatches} mismatches`);
      return r;
    };
    const row = (name: string, r: LoadResult) =>
      console.log(`${name.padEnd(44)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${r.latencyP50Ms.toFixed(2).padStart(6)} ms  mean ${r.latencyMeanMs.toFixed(2).padStart(6)} ms`);

    console.log(`# throughput, ${connections} connections, ${seconds} s (machine shared: noisy)`);
    const direct = await load(remoteUrl, '{ hello }', connections);
    row('remote direct { hello }', direct);
    const forwarded = await load(engineUrl, '{ hello }', connections);
    row('through the engine { hello }', forwarded);
    console.log(`engine/direct throughput: ${(forwarded.requestsPerSecond / direct.requestsPerSecond).toFixed(2)} (target >= 0.6)`);

    console.log(`\n# mixed request latency, 1 connection, ${seconds} s`);
    for (const remoteField of ['hello', 'slow(ms: 10)']) {
      const db = await load(engineUrl, '{ author(limit: 20, order_by: {id: asc}) { id name } }', 1);
      const rem = await load(engineUrl, `{ ${remoteField} }`, 1);
      const mixed = await load(engineUrl, `{ author(limit: 20, order_by: {id: asc}) { id name } ${remoteField} }`, 1);
      row('db only', db);
      row(`remote only (through the engine) ${remoteField}`, rem);
      row(`mixed: db + ${remoteField}`, mixed);
      // One connection: time per request = 1 / throughput (autocannon's latencies are whole milliseconds).
      const ms = (r: LoadResult) => 1000 / r.requestsPerSecond;
      const max = Math.max(ms(db), ms(rem));
      console.log(`mixed/max(db, remote) time per request: ${(ms(mixed) / max).toFixed(2)} (${ms(mixed).toFixed(3)} vs ${max.toFixed(3)} ms)\n`);
    }
  } finally {
    engine.kill('SIGTERM');
    remote.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    const c = new pg.Client({ connectionString: baseUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
    await c.end();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
