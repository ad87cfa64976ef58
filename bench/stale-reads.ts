// `npm run bench:stale-reads [-- --rounds 1000] [--clients 50] [--delay 500]` (issue 32): the stale-read experiment
// on real servers it starts itself: a primary and a replica that applies every commit `--delay` ms late
// (recovery_min_apply_delay), and the engine with that replica as its read replica. Each round inserts a row, then
// reads it back at once; a read that misses the row is stale. Three runs:
//   1. consistency `header`, reads sending the write's x-engine-write-lsn as x-engine-min-lsn, a wait allowed
//      longer than the delay (each read waits for the replica);
//   2. the same engine, reads without the header;
//   3. consistency `instance` (the default, wait 100 ms), reads without the header.
// Prints one JSON line per run (rounds, stale, time, reads routed to the replica and to the primary) and writes
// bench/results/stale-reads-<time>.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { clusterDatabase, startCluster, testPort } from '../test/helpers/pg-cluster.js';
import { spawnEngine, runBenchMain } from './engine.js';
import { staleRounds } from './stale-rounds.js';
import { log } from './log.js';
import { routedReads } from './replica-metrics.js';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '1000' },
    clients: { type: 'string', default: '50' },
    delay: { type: 'string', default: '500' },
    'results-dir': { type: 'string', default: 'bench/results' },
  },
});
const ROUNDS = Number(args.rounds);
const CLIENTS = Number(args.clients);
const DELAY = Number(args.delay);

await runBenchMain('stale-reads', async (started) => {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  mkdirSync(args['results-dir'], { recursive: true });
  const cluster = await startCluster([{ applyDelayMs: DELAY }]);
  try {
    log('stale.cluster', { primary: cluster.primary.port, replica: cluster.replicas[0].port, method: cluster.method, delay_ms: DELAY });
    const db = await clusterDatabase(cluster, 'stale_reads');
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    await c.query('CREATE TABLE note (id serial PRIMARY KEY, body text NOT NULL)');
    await c.end();
    await cluster.caughtUp(cluster.replicas[0]);
    const engine = async (name: string, env: Record<string, string>) => {
      const e = await spawnEngine({
        databaseUrl: db.url, port: await testPort(), logFile: join(args['results-dir'], `stale-reads-${stamp}-${name}.log`),
        env: { ENGINE_GRAPHQL_READ_REPLICA_URLS: db.replicaUrls[0], ENGINE_GRAPHQL_PG_CONNECTIONS: '20', ENGINE_GRAPHQL_READ_REPLICA_POOL_SIZE: '20', ...env },
      });
      started.push(e);
      return e;
    };
    const results: Record<string, unknown>[] = [];
    const measure = async (url: string, run: string, withHeader: boolean): Promise<void> => {
      const before = await routedReads(url);
      const r = await staleRounds(url, ROUNDS, CLIENTS, withHeader);
      const after = await routedReads(url);
      const line = {
        run, rounds: r.rounds, stale: r.stale, errors: r.errors.length, ms: r.ms,
        reads_on_replica: after.replicas - before.replicas, reads_on_primary: after.primary - before.primary,
      };
      results.push(line);
      process.stdout.write(`${JSON.stringify(line)}\n`);
    };
    const header = await engine('header', { ENGINE_GRAPHQL_REPLICA_CONSISTENCY: 'header', ENGINE_GRAPHQL_REPLICA_WAIT_MS: String(DELAY * 3) });
    const track = await fetch(`${header.url}/v1/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'track_table', args: { schema: 'public', name: 'note' } }) });
    if (track.status !== 200) throw new Error(`track_table: ${await track.text()}`);
    await measure(header.url, 'consistency header, with x-engine-min-lsn', true);
    await measure(header.url, 'consistency header, without the header', false);
    await header.stop();
    const instance = await engine('instance', {});
    await measure(instance.url, 'consistency instance (default), without the header', false);
    writeFileSync(join(args['results-dir'], `stale-reads-${stamp}.json`), JSON.stringify({ delay_ms: DELAY, clients: CLIENTS, method: cluster.method, results }, null, 2));
    return 0;
  } finally {
    for (const p of started) await p.stop();
    await cluster.stop();
  }
});
