// `npm run bench:replicas [-- --scale 0.1] [--seconds 3] [--rotations 4] [--connections 10] [--only Q1,Q2]`
// (issue 32): what routing reads to a replica costs. It starts its own primary and streaming replica (test/helpers/
// pg-cluster.ts), generates the bench dataset on the primary (bench/dataset.ts) and starts two engines on it: one on
// the primary alone, one with the replica as its read replica (default consistency). Per query Q1–Q6: both bodies
// must be identical; then `--rotations` runs of `--seconds` per engine, alternately (the order turned each rotation),
// and the ratio replica-engine / primary-engine of req/s per rotation; reported: the median ratio, and that the
// replica engine's reads went to the replica. Target ≥ 0.95 (routing costs nothing measurable). A third engine,
// "router", has the primary itself as its read replica: not a standby, it stays out of the rotation, so every read
// takes the router's path to the primary: its ratio is the routing's own cost, apart from any difference between the
// two Postgres servers. Engine CPU per request is reported too (steadier than req/s on a busy machine). Both
// Postgres servers share this machine's cores with the engines and the load driver: on a shared machine the
// figures are noisy.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { clusterDatabase, startCluster, testPort } from '../test/helpers/pg-cluster.js';
import { generateDataset } from './dataset.js';
import { runBenchMain, setupEngineMetadata, spawnEngine, type SpawnedProcess } from './engine.js';
import { graphqlLoad, median, processCpuSeconds } from './load.js';
import { graphqlBody, selectQueries } from './queries.js';
import { log } from './log.js';
import { routedReads } from './replica-metrics.js';

const { values: args } = parseArgs({
  options: {
    scale: { type: 'string', default: '0.1' },
    seed: { type: 'string', default: '42' },
    seconds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '2' },
    rotations: { type: 'string', default: '4' },
    connections: { type: 'string', default: '10' },
    only: { type: 'string' },
    'results-dir': { type: 'string', default: 'bench/results' },
  },
});

const post = async (url: string, body: string): Promise<string> =>
  (await fetch(`${url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text();

interface Run {
  rps: number;
  /** The engine process's CPU per request (µs): steadier than req/s on a busy machine. */
  cpuUs: number;
}

async function measure(e: SpawnedProcess, body: string, seconds: number, connections: number, expectBody: string): Promise<Run> {
  const cpu0 = processCpuSeconds(e.child.pid!) ?? 0;
  const r = await graphqlLoad({ url: e.url, body, connections, duration: seconds, expectBody });
  const cpu1 = processCpuSeconds(e.child.pid!) ?? 0;
  if (r.errors || r.non2xx || r.mismatches) throw new Error(`load on ${e.url}: ${r.errors} errors, ${r.non2xx} non-2xx, ${r.mismatches} mismatches`);
  return { rps: r.requests.average, cpuUs: r.requests.total ? ((cpu1 - cpu0) * 1e6) / r.requests.total : 0 };
}

await runBenchMain('replicas', async (started) => {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  mkdirSync(args['results-dir'], { recursive: true });
  const cluster = await startCluster([{}]);
  try {
    log('replicas.cluster', { primary: cluster.primary.port, replica: cluster.replicas[0].port, method: cluster.method });
    const db = await clusterDatabase(cluster, 'engine_bench_replicas');
    const size = await generateDataset(db.url, { scale: Number(args.scale), seed: Number(args.seed) });
    await cluster.caughtUp(cluster.replicas[0], 300_000);
    const spawn = async (name: string, env: Record<string, string>): Promise<SpawnedProcess> => {
      const e = await spawnEngine({
        databaseUrl: db.url, port: await testPort(), logFile: join(args['results-dir'], `replicas-${stamp}-${name}.log`),
        env: { ENGINE_GRAPHQL_PG_CONNECTIONS: '20', ENGINE_GRAPHQL_ENABLED_LOG_TYPES: 'startup', ...env },
      });
      started.push(e);
      return e;
    };
    const primary = await spawn('primary', {});
    await setupEngineMetadata(primary.url);
    const replica = await spawn('replica', { ENGINE_GRAPHQL_READ_REPLICA_URLS: db.replicaUrls[0], ENGINE_GRAPHQL_READ_REPLICA_POOL_SIZE: '20' });
    const router = await spawn('router', { ENGINE_GRAPHQL_READ_REPLICA_URLS: db.url, ENGINE_GRAPHQL_READ_REPLICA_POOL_SIZE: '20' });
    const engines = { primary, replica, router };
    type Name = keyof typeof engines;
    await cluster.caughtUp(cluster.replicas[0]);
    const seconds = Number(args.seconds);
    const connections = Number(args.connections);
    const rows: Record<string, unknown>[] = [];
    process.stdout.write(`dataset: ${JSON.stringify(size)}; ${args.rotations} rotations of ${seconds} s per engine, ${connections} connections\n`);
    process.stdout.write('query  req/s: primary  via replica  router only   ratio replica/primary (rotations)   ratio router/primary   engine CPU µs/req: primary, replica, router\n');
    for (const q of selectQueries(args.only ? args.only.split(',') : null)) {
      const body = graphqlBody(q);
      const expected = await post(primary.url, body);
      for (const name of ['replica', 'router'] as const) {
        if ((await post(engines[name].url, body)) !== expected) throw new Error(`${q.name}: the ${name} engine answers differently`);
      }
      for (const e of Object.values(engines)) await measure(e, body, Number(args.warmup), connections, expected);
      const routedBefore = await routedReads(replica.url);
      const ratios: number[] = [];
      const routerRatios: number[] = [];
      const runs: Record<Name, Run[]> = { primary: [], replica: [], router: [] };
      const names: Name[] = ['primary', 'replica', 'router'];
      for (let i = 0; i < Number(args.rotations); i++) {
        // Each engine takes each place in the order equally often.
        const order = names.map((_, k) => names[(k + i) % names.length]);
        const r = {} as Record<Name, Run>;
        for (const which of order) r[which] = await measure(engines[which], body, seconds, connections, expected);
        for (const n of names) runs[n].push(r[n]);
        ratios.push(r.replica.rps / r.primary.rps);
        routerRatios.push(r.router.rps / r.primary.rps);
      }
      const routedAfter = await routedReads(replica.url);
      const med = (xs: Run[], k: keyof Run): number => median(xs.map((x) => x[k]));
      const row = {
        query: q.name, primary_rps: med(runs.primary, 'rps'), replica_rps: med(runs.replica, 'rps'), router_rps: med(runs.router, 'rps'),
        ratio: median(ratios), ratios, router_ratio: median(routerRatios), router_ratios: routerRatios,
        cpu_us: { primary: med(runs.primary, 'cpuUs'), replica: med(runs.replica, 'cpuUs'), router: med(runs.router, 'cpuUs') },
        replica_engine_reads: { on_replica: routedAfter.replicas - routedBefore.replicas, on_primary: routedAfter.primary - routedBefore.primary },
      };
      rows.push(row);
      const f = (x: number, w: number): string => x.toFixed(0).padStart(w);
      process.stdout.write(`${q.name.padEnd(6)} ${f(row.primary_rps, 14)} ${f(row.replica_rps, 12)} ${f(row.router_rps, 12)}   ${row.ratio.toFixed(3)} (${ratios.map((x) => x.toFixed(2)).join(' ')})   ${row.router_ratio.toFixed(3)} (${routerRatios.map((x) => x.toFixed(2)).join(' ')})   ${[row.cpu_us.primary, row.cpu_us.replica, row.cpu_us.router].map((x) => x.toFixed(0)).join(', ')}  (replica engine's reads: ${row.replica_engine_reads.on_replica} on the replica, ${row.replica_engine_reads.on_primary} on the primary)\n`);
    }
    const file = join(args['results-dir'], `replicas-${stamp}.json`);
    writeFileSync(file, JSON.stringify({ size, seconds, connections, method: cluster.method, rows }, null, 2));
    log('replicas.done', { file });
    return 0;
  } finally {
    for (const p of started) await p.stop();
    await cluster.stop();
  }
});
