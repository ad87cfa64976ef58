// Sync action overhead: `node --import tsx bench/actions.ts [--duration S] [--warmup S] [--rounds N] [--connections N]
// [--db NAME] [--port P] [--handler-work-ms MS] [--engine-root DIR] [--cpu-prof]` (--port: the engine's, the handler
// gets P+1; default: ports the OS picks; --handler-work-ms: CPU the handler spends per call, default 0;
// --engine-root: spawn DIR/bin/engine.mjs, e.g. a git archive of another commit; --cpu-prof: the engine writes a V8
// profile into bench/results/ when it stops).
// A query action whose handler (bench/action-handler.ts, its own process) answers at once, called through the
// engine, against the same handler called directly with the body the engine sends it, under the same load
// (autocannon, fixed connections), and against a floor (bench/action-proxy.ts: a bare node:http proxy making the
// same call), and for reference the same proxy calling through undici's client, as the engine does. Runs
// alternate; the report gives req/s, p50/p99 of each, the engine/direct throughput ratio (and floor/direct,
// engine/floor, engine/undici floor) and the latency the engine adds (medians of the rounds). Run it under
// `flock /tmp/engine-bench.lock` on a shared machine.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { spawnEngine, type SpawnedProcess } from './engine.js';
import { withDatabase } from './config.js';
import { processCpuSeconds } from './load.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const opts = {
  duration: arg('duration', 10), warmup: arg('warmup', 3), rounds: arg('rounds', 3), connections: arg('connections', 10), handlerWorkMs: arg('handler-work-ms', 0),
};
const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const strArg = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
// A shared machine gives each user a database prefix and a port range.
const DB = strArg('db', 'engine_bench_actions');
const PORT = arg('port', 0);

const ENGINE_BODY = JSON.stringify({ query: 'query bench_action { echo(id: 1) { id name } }', operationName: 'bench_action' });
// What the engine POSTs to the handler for that query (admin session).
const DIRECT_BODY = JSON.stringify({ action: { name: 'echo' }, input: { id: 1 }, session_variables: { 'x-engine-role': 'admin' } });

/** A bench helper process (tsx) that prints `{"msg":"<ready>","url":...}` when it listens. */
async function spawnHelper(file: string, ready: string, env: NodeJS.ProcessEnv): Promise<SpawnedProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, file)], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (c: Buffer) => {
      buf += c.toString('utf8');
      const line = buf.split('\n').find((l) => l.includes(ready));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`${file} exited with code ${code}`)));
  });
  return { child, url, logFile: '', stop: async () => void child.kill('SIGTERM') };
}

/**
 * One run against `server` (the process answering: its CPU per request is the steadier figure on a busy machine,
 * where req/s moves with the other load).
 */
async function load(server: SpawnedProcess, path: string, body: string, duration: number) {
  const cpuBefore = processCpuSeconds(server.child.pid!);
  const r = await autocannon({
    url: `${server.url}${path}`, method: 'POST', headers: { 'content-type': 'application/json' }, body, connections: opts.connections, duration, timeout: 30,
  });
  const cpuAfter = processCpuSeconds(server.child.pid!);
  const cpuUs = cpuBefore === null || cpuAfter === null || r.requests.total === 0 ? null : Math.round(((cpuAfter - cpuBefore) * 1e6) / r.requests.total);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, cpuUsPerRequest: cpuUs, errors: r.errors + r.non2xx + r.timeouts };
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  const ident = `"${DB.replace(/"/g, '""')}"`;
  await admin.query(`DROP DATABASE IF EXISTS ${ident} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${ident}`);
  await admin.end();
  const resultsDir = join(ROOT, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const started: SpawnedProcess[] = [];
  try {
    const handler = await spawnHelper('bench/action-handler.ts', 'handler.ready', { BENCH_HANDLER_PORT: String(PORT ? PORT + 1 : 0), BENCH_HANDLER_WORK_MS: String(opts.handlerWorkMs) });
    started.push(handler);
    const proxy = await spawnHelper('bench/action-proxy.ts', 'proxy.ready', { BENCH_PROXY_PORT: String(PORT ? PORT + 2 : 0), BENCH_PROXY_TARGET: `${handler.url}/echo` });
    started.push(proxy);
    const undiciProxy = await spawnHelper('bench/action-proxy.ts', 'proxy.ready', {
      BENCH_PROXY_PORT: String(PORT ? PORT + 3 : 0), BENCH_PROXY_TARGET: `${handler.url}/echo`, BENCH_PROXY_CLIENT: 'undici',
    });
    started.push(undiciProxy);
    const engine = await spawnEngine({
      databaseUrl: withDatabase(baseUrl, DB), port: PORT, logFile: join(resultsDir, `actions-engine-${stamp}.log`), env: { ENGINE_GRAPHQL_LOG_LEVEL: 'error' },
      nodeArgs: process.argv.includes('--cpu-prof') ? ['--cpu-prof', `--cpu-prof-dir=${resultsDir}`] : [],
      root: process.argv.includes('--engine-root') ? strArg('engine-root', ROOT) : null,
    });
    started.push(engine);
    const meta = await fetch(`${engine.url}/v1/query`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'bulk',
        args: [
          { type: 'set_custom_types', args: { objects: [{ name: 'Out', fields: [{ name: 'id', type: 'Int!' }, { name: 'name', type: 'String' }] }] } },
          { type: 'create_action', args: { name: 'echo', definition: { type: 'query', arguments: [{ name: 'id', type: 'Int!' }], output_type: 'Out', handler: `${handler.url}/echo` } } },
        ],
      }),
    });
    if (meta.status !== 200) throw new Error(`metadata setup failed: ${await meta.text()}`);
    const check = await (await fetch(`${engine.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ENGINE_BODY })).text();
    if (check !== '{"data":{"echo":{"id":1,"name":"bench"}}}') throw new Error(`unexpected engine answer: ${check}`);

    const viaProxy = await (await fetch(`${proxy.url}/`, { method: 'POST', body: ENGINE_BODY })).text();
    if (viaProxy !== check) throw new Error(`unexpected floor answer: ${viaProxy}`);
    const viaUndici = await (await fetch(`${undiciProxy.url}/`, { method: 'POST', body: ENGINE_BODY })).text();
    if (viaUndici !== check) throw new Error(`unexpected undici floor answer: ${viaUndici}`);

    await load(engine, '/v1/graphql', ENGINE_BODY, opts.warmup);
    await load(handler, '/echo', DIRECT_BODY, opts.warmup);
    await load(proxy, '/', ENGINE_BODY, opts.warmup);
    await load(undiciProxy, '/', ENGINE_BODY, opts.warmup);
    const rounds: Record<'engine' | 'direct' | 'floor' | 'undiciFloor', Array<Awaited<ReturnType<typeof load>>>> = { engine: [], direct: [], floor: [], undiciFloor: [] };
    for (let i = 0; i < opts.rounds; i++) {
      rounds.engine.push(await load(engine, '/v1/graphql', ENGINE_BODY, opts.duration));
      rounds.direct.push(await load(handler, '/echo', DIRECT_BODY, opts.duration));
      rounds.floor.push(await load(proxy, '/', ENGINE_BODY, opts.duration));
      rounds.undiciFloor.push(await load(undiciProxy, '/', ENGINE_BODY, opts.duration));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
    const summary = (rs: typeof rounds.engine) => ({
      rps: median(rs.map((r) => r.rps)), p50: median(rs.map((r) => r.p50)), p99: median(rs.map((r) => r.p99)),
      cpuUsPerRequest: median(rs.map((r) => r.cpuUsPerRequest ?? NaN)), errors: rs.reduce((a, r) => a + r.errors, 0),
    });
    const e = summary(rounds.engine);
    const d = summary(rounds.direct);
    const f = summary(rounds.floor);
    const u = summary(rounds.undiciFloor);
    const report = {
      options: opts, engine: e, direct: d, floor: f, ratio: Number((e.rps / d.rps).toFixed(3)), floorRatio: Number((f.rps / d.rps).toFixed(3)),
      engineToFloor: Number((e.rps / f.rps).toFixed(3)), cpuEngineToFloor: Number((e.cpuUsPerRequest / f.cpuUsPerRequest).toFixed(3)),
      undiciFloor: u, engineToUndiciFloor: Number((e.rps / u.rps).toFixed(3)), cpuEngineToUndiciFloor: Number((e.cpuUsPerRequest / u.cpuUsPerRequest).toFixed(3)), addedP99Ms: e.p99 - d.p99, addedP50Ms: e.p50 - d.p50, rounds,
    };
    const line = (s: typeof e) => `${s.rps.toFixed(0)} req/s p50 ${s.p50} ms p99 ${s.p99} ms, ${s.cpuUsPerRequest} µs CPU/req${s.errors ? ` errors ${s.errors}` : ''}`;
    console.log(`sync action through the engine: ${line(e)}`);
    console.log(`handler called directly:        ${line(d)} (the handler's)`);
    console.log(`floor (bare node:http proxy):   ${line(f)} (the proxy's)`);
    console.log(`floor with undici's client:     ${line(u)} (the proxy's; engine/this floor ${report.engineToUndiciFloor}, CPU ${report.cpuEngineToUndiciFloor})`);
    console.log(`engine/direct throughput ${report.ratio} (floor/direct ${report.floorRatio}, engine/floor ${report.engineToFloor}; CPU per request engine/floor ${report.cpuEngineToFloor}); added latency p50 ${report.addedP50Ms} ms, p99 ${report.addedP99Ms} ms (${opts.connections} connections${opts.handlerWorkMs ? `, handler works ${opts.handlerWorkMs} ms per call` : ''})`);
    writeFileSync(join(resultsDir, `actions-${stamp}.json`), JSON.stringify(report, null, 2));
  } finally {
    for (const s of started.reverse()) await s.stop();
  }
}

await main();
