// What clients see when Postgres restarts under load: an own Postgres (embedded, temporary folder), two engine
// instances on it, clients sending queries and mutations to both without pause; Postgres is stopped and started
// again mid-run. Prints the answers by kind (ok, or the error's code and message) and by when they came: before the
// restart, while Postgres was down (stopping or starting), after it accepted connections again; and the lines the
// engines wrote about their connections.
//   node --import tsx bench/pg-restart.ts [--engine-root DIR] [--port N] [--clients N] [--seconds N]
// --engine-root runs another checkout's bin/engine.mjs (e.g. main, to compare); ports N..N+2 are used.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/startup/embedded-postgres.js';

const { values: opts } = parseArgs({
  options: {
    'engine-root': { type: 'string', default: path.resolve(import.meta.dirname, '..') },
    port: { type: 'string', default: '31310' },
    clients: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '12' },
  },
});
const pgPort = Number(opts.port);
const enginePorts = [pgPort + 1, pgPort + 2];
const clientsPerEngine = Number(opts.clients);

interface Engine {
  url: string;
  child: ChildProcess;
  lines: string[];
}

async function startEngine(databaseUrl: string, port: number): Promise<Engine> {
  const child = spawn(process.execPath, [path.join(opts['engine-root']!, 'bin', 'engine.mjs'), 'serve'], {
    env: { ...process.env, ENGINE_GRAPHQL_DATABASE_URL: databaseUrl, ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1', ENGINE_GRAPHQL_SERVER_PORT: String(port),
      ENGINE_GRAPHQL_ENABLED_LOG_TYPES: 'startup', ENGINE_GRAPHQL_PG_CONNECTIONS: '10' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    let buf = '';
    const onData = (b: Buffer): void => {
      buf += b.toString('utf8');
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        lines.push(line);
        if (line.includes('engine ready on')) resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`engine exited (${code}):\n${lines.join('\n')}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child, lines };
}

async function post(url: string, body: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}

/** An answer's kind: "ok", or the error's code and message. */
function kindOf(body: any): string {
  const err = body?.errors?.[0];
  return err ? `${err.extensions?.code} "${err.message}"` : 'ok';
}

const QUERY = { query: '{ item(limit: 5, order_by: {id: asc}) { id name } }' };
const MUTATION = { query: 'mutation { insert_item_one(object: {name: "m"}) { id } }' };

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'engine-pg-restart-'));
  chmodSync(dir, 0o755); // reachable by the postgres user when run as root
  const dataDir = path.join(dir, 'data');
  let db: EmbeddedDatabase = await startEmbeddedPostgres({ dataDir, port: pgPort });
  const engines: Engine[] = [];
  try {
    engines.push(...(await Promise.all(enginePorts.map((p) => startEngine(db.url, p)))));
    const setup = await post(`${engines[0].url}/v1/query`, {
      type: 'bulk',
      args: [
        { type: 'run_sql', args: { sql: "CREATE TABLE item (id serial PRIMARY KEY, name text); INSERT INTO item (name) SELECT 'i' || g FROM generate_series(1, 20) g" } },
        { type: 'track_table', args: 'item' },
      ],
    });
    if (setup.status !== 200) throw new Error(`set-up failed: ${JSON.stringify(setup.body)}`);

    const counts = new Map<string, number>();
    // When the restart began and when Postgres accepted connections again (ms since the epoch).
    const restart = { from: Infinity, to: Infinity };
    const phase = (at: number): string => (at < restart.from ? 'before' : at <= restart.to ? 'while down' : 'after');
    const count = (k: string): void => {
      const key = `${phase(Date.now()).padEnd(10)}  ${k}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    };
    let running = true;
    const client = async (e: Engine, i: number): Promise<void> => {
      for (let n = 0; running; n++) {
        // One request in four is a mutation.
        const isMutation = (n + i) % 4 === 0;
        try {
          const r = await post(`${e.url}/v1/graphql`, isMutation ? MUTATION : QUERY);
          count(`${isMutation ? 'mutation' : 'query'}: ${kindOf(r.body)}`);
        } catch (err) {
          count(`${isMutation ? 'mutation' : 'query'}: no HTTP answer (${(err as Error).message})`);
        }
      }
    };
    const load = engines.flatMap((e) => Array.from({ length: clientsPerEngine }, (_, i) => client(e, i)));
    const seconds = Number(opts.seconds);
    await new Promise((r) => setTimeout(r, (seconds * 1000) / 3));
    const t0 = (restart.from = Date.now());
    await db.stop();
    const stoppedMs = Date.now() - t0;
    db = await startEmbeddedPostgres({ dataDir, port: pgPort });
    restart.to = Date.now();
    const downMs = restart.to - t0;
    await new Promise((r) => setTimeout(r, (seconds * 1000 * 2) / 3));
    running = false;
    await Promise.all(load);

    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    console.log(`engine: ${opts['engine-root']}`);
    console.log(`Postgres restart: stopped in ${stoppedMs} ms, accepting again after ${downMs} ms`);
    console.log(`${total} requests (2 instances x ${clientsPerEngine} clients, ${seconds} s):`);
    const order = ['before', 'while down', 'after'];
    const sorted = [...counts].sort((a, b) => order.indexOf(a[0].slice(0, 10).trim()) - order.indexOf(b[0].slice(0, 10).trim()) || b[1] - a[1]);
    for (const [k, n] of sorted) console.log(`  ${String(n).padStart(7)}  ${k}`);
    const failed = [...counts].filter(([k]) => !k.endsWith(': ok')).reduce((a, [, n]) => a + n, 0);
    console.log(`failed: ${failed}`);
    for (const [i, e] of engines.entries()) {
      if (e.child.exitCode !== null || e.child.signalCode !== null) {
        console.log(`instance ${i + 1} EXITED (${e.child.exitCode ?? e.child.signalCode}); its last lines:\n${e.lines.slice(-15).join('\n')}`);
      }
      const about = e.lines.filter((l) => /is back|reconnect|retrying/.test(l));
      const kinds = new Map<string, number>();
      for (const l of about) {
        const j = JSON.parse(l) as { level: string; type: string; detail: { message?: string } };
        const k = `${j.level} ${j.type}: ${(j.detail.message ?? '').replace(/\(\d+\)/, '(n)')}`;
        kinds.set(k, (kinds.get(k) ?? 0) + 1);
      }
      console.log(`instance ${i + 1} connection lines:`);
      for (const [k, n] of kinds) console.log(`  ${String(n).padStart(5)}  ${k}`);
    }
  } finally {
    for (const e of engines) e.child.kill('SIGTERM');
    await Promise.all(engines.map((e) => new Promise((r) => (e.child.exitCode !== null ? r(null) : e.child.once('exit', r)))));
    await db.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
