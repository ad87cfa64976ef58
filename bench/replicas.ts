// `npm run bench:replicas [-- --scale 0.1] [--seconds 3] [--rotations 4] [--connections 10] [--only Q1,Q2]`
// (issue 32): what routing reads to a replica costs. It starts its own primary and streaming replica (test/helpers/
// pg-cluster.ts), generates the bench dataset on the primary (bench/dataset.ts) and starts two engines on it: one on
// the primary alone, one with the replica as its read replica (default consistency). Per query Q1–Q6: both bodies
// must be identical; then `--rotations` runs of `--seconds` per engine, alternately (the order swapped each rotation),
// and the ratio replica-engine / primary-engine of req/s per rotation; reported: the median ratio, and that the
// replica engine's reads went to the replica. Target ≥ 0.95 (routing costs nothing measurable). Both Postgres servers
// share this machine's cores with the engines and the load driver: on a shared machine the figures are noisy.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { clusterDatabase, startCluster, testPort } from '../test/helpers/pg-cluster.js';
import { generateDataset } from './dataset.js';
import { runBenchMain, setupEngineMetadata, spawnEngine, type SpawnedProcess } from './engine.js';
import { graphqlLoad, median } from './load.js';
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

async function reqPerSecond(url: string, body: string, seconds: number, connections: number, expectBody: string): Promise<number> {
  const r = await graphqlLoad({ url, body, connections, duration: seconds, expectBody });
  if (r.errors || r.non2xx || r.mismatches) throw new Error(`load on ${url}: ${r.errors} errors, ${r.non2xx} non-2xx, ${r.mismatches} mismatches`);
  return r.requests.average;
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
    await cluster.caughtUp(cluster.replicas[0]);
    const seconds = Number(args.seconds);
    const connections = Number(args.connections);
    const rows: Record<string, unknown>[] = [];
    process.stdout.write(`dataset: ${JSON.stringify(size)}; ${args.rotations} rotations of ${seconds} s per engine, ${connections} connections\n`);
    process.stdout.write('query  primary req/s  via replica req/s  ratio (median)  ratios\n');
    for (const q of selectQueries(args.only ? args.only.split(',') : null)) {
      const body = graphqlBody(q);
      const expected = await post(primary.url, body);
      const viaReplica = await post(replica.url, body);
      if (viaReplica !== expected) throw new Error(`${q.name}: the two engines answer differently`);
      for (const e of [primary, replica]) await reqPerSecond(e.url, body, Number(args.warmup), connections, expected);
      const routedBefore = await routedReads(replica.url);
      const ratios: number[] = [];
      const rates = { primary: [] as number[], replica: [] as number[] };
      for (let i = 0; i < Number(args.rotations); i++) {
        const order = i % 2 ? (['replica', 'primary'] as const) : (['primary', 'replica'] as const);
        const r: Record<string, number> = {};
        for (const which of order) r[which] = await reqPerSecond(which === 'primary' ? primary.url : replica.url, body, seconds, connections, expected);
        rates.primary.push(r.primary);
        rates.replica.push(r.replica);
        ratios.push(r.replica / r.primary);
      }
      const routedAfter = await routedReads(replica.url);
      const row = {
        query: q.name, primary_rps: median(rates.primary), replica_rps: median(rates.replica), ratio: median(ratios), ratios,
        replica_engine_reads: { on_replica: routedAfter.replicas - routedBefore.replicas, on_primary: routedAfter.primary - routedBefore.primary },
      };
      rows.push(row);
      process.stdout.write(`${q.name.padEnd(6)} ${row.primary_rps.toFixed(0).padStart(13)}  ${row.replica_rps.toFixed(0).padStart(17)}  ${row.ratio.toFixed(3).padStart(14)}  ${ratios.map((x) => x.toFixed(2)).join(' ')}  (reads on the replica ${row.replica_engine_reads.on_replica}, on the primary ${row.replica_engine_reads.on_primary})\n`);
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
