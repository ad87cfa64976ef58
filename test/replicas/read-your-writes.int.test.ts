// Read-your-writes on a replica that applies every commit 500 ms late (recovery_min_apply_delay), started by the test.
// 1,000 rounds of "insert a row, then read it with the returned x-engine-write-lsn as x-engine-min-lsn" read the row
// every time, and the replica served them (the wait allowed exceeds the delay: each read waited for the replica
// rather than falling back); the same rounds without the header read stale rows (counted); with the default
// consistency (`instance`) no header is needed; a replica lagging more than --replica-max-lag-ms leaves the
// rotation and returns once it has caught up.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { clusterDatabase, clusterUnavailable, startCluster, type Cluster } from '../helpers/pg-cluster.js';
import type { TestEngine } from '../helpers/engine.js';
import { metric, replicaEngine, replicaState, routed, until } from './fixture.js';
import { staleRounds } from '../../bench/stale-rounds.js';

const DELAY_MS = 500;
const skip = clusterUnavailable();
let cluster: Cluster;
const DB = `replica_ryw_${randomBytes(4).toString('hex')}`;

test.before(async (t) => {
  if (skip) return;
  cluster = await startCluster([{ applyDelayMs: DELAY_MS }]);
  t.log(`primary on ${cluster.primary.port}, replica on ${cluster.replicas[0].port} applying ${DELAY_MS} ms late (${cluster.method})`);
  await clusterDatabase(cluster, DB);
  const c = new pg.Client({ connectionString: cluster.primary.url(DB) });
  await c.connect();
  await c.query('CREATE TABLE note (id serial PRIMARY KEY, body text NOT NULL)');
  await c.end();
  await cluster.caughtUp(cluster.replicas[0]);
});

test.after.always(async () => {
  await cluster?.stop();
});

async function tracked(e: TestEngine): Promise<void> {
  const r = await e.query({ type: 'track_table', args: { schema: 'public', name: 'note' } });
  if (r.status !== 200 && !String(r.text).includes('already-tracked')) throw new Error(r.text);
}

const serial = skip ? test.skip : test.serial;
if (skip) test('read-your-writes tests', (t) => t.log(`skipped: ${skip}`));

serial('1,000 rounds with x-engine-min-lsn read their row every time, served by the delayed replica; without it, stale reads', async (t) => {
  // Consistency `header`: only requests sending the header wait. The wait allowed exceeds the replica's delay, so a
  // read waits for the replica to apply its write instead of falling back to the primary.
  const e = await replicaEngine(cluster, DB, { replicaConsistency: 'header', replicaWaitMs: 3000, pgConnections: 20, readReplicaPoolSize: 20 });
  try {
    await tracked(e);
    t.true(await until(async () => (await replicaState(e)) === 'up'));
    const before = await routed(e);
    const withLsn = await staleRounds(e.url, 1000, 50, true);
    const ms = withLsn.ms;
    const mid = await routed(e);
    const waited = (await metric(e, 'engine_read_primary_fallbacks_total')).get('reason="waited"') ?? 0;
    t.log(`with the header: 1000 rounds in ${ms} ms, ${withLsn.stale} stale; reads on the replica ${mid.replicas - before.replicas}, on the primary ${mid.primary - before.primary} (${waited} after waiting out)`);
    t.deepEqual(withLsn.errors, []);
    t.is(withLsn.stale, 0, 'no stale read with the header');
    // Nearly all of them came from the replica (a read may still outwait the allowance on a starved machine).
    t.true(mid.replicas - before.replicas >= 900, 'the replica served the reads, after applying each write');

    const without = await staleRounds(e.url, 200, 1, false);
    const after = await routed(e);
    t.log(`without the header: 200 rounds, ${without.stale} stale; reads on the replica ${after.replicas - mid.replicas}, on the primary ${after.primary - mid.primary}`);
    t.deepEqual(without.errors, []);
    t.true(without.stale > 0, 'a read right after a write, on a replica 500 ms behind, misses the row');
  } finally {
    await e.close();
  }
});

serial('with the default consistency (instance) no header is needed: 0 stale reads', async (t) => {
  const e = await replicaEngine(cluster, DB);
  try {
    await tracked(e);
    t.true(await until(async () => (await replicaState(e)) === 'up'));
    const before = await routed(e);
    const r = await staleRounds(e.url, 200, 4, false);
    const after = await routed(e);
    t.log(`instance consistency: 200 rounds, ${r.stale} stale; reads on the replica ${after.replicas - before.replicas}, on the primary ${after.primary - before.primary}`);
    t.deepEqual(r.errors, []);
    t.is(r.stale, 0);
    // Once the writes stop and the replica has applied them, reads go back to it.
    await cluster.caughtUp(cluster.replicas[0]);
    await new Promise((res) => setTimeout(res, 200));
    const idle = await routed(e);
    t.falsy((await e.graphql({ query: 'query { note(limit: 1) { id } }' })).body.errors);
    t.is((await routed(e)).replicas - idle.replicas, 1, 'the replica serves again once it has every write of this instance');
  } finally {
    await e.close();
  }
});

serial('a replica lagging more than --replica-max-lag-ms leaves the rotation and returns once caught up', async (t) => {
  const e = await replicaEngine(cluster, DB, { replicaMaxLagMs: 200, replicaConsistency: 'none' });
  const writer = new pg.Client({ connectionString: cluster.primary.url(DB) });
  await writer.connect();
  try {
    await tracked(e);
    t.true(await until(async () => (await replicaState(e)) === 'up'), 'in rotation while idle');
    let writing = true;
    const writes = (async () => {
      while (writing) {
        await writer.query("INSERT INTO note (body) VALUES ('w')");
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    try {
      t.true(await until(async () => (await replicaState(e)) === 'lagging', 10_000), 'writes keep it 500 ms behind: it leaves');
      const before = await routed(e);
      t.falsy((await e.graphql({ query: 'query { note(limit: 1) { id } }' })).body.errors);
      const after = await routed(e);
      t.deepEqual([after.primary - before.primary, after.replicas - before.replicas], [1, 0], 'the primary serves while it lags');
      const lag = (await metric(e, 'engine_read_replica_lag_seconds')).values().next().value ?? 0;
      t.true(lag > 0.2, `lag reported: ${lag} s`);
    } finally {
      writing = false;
      await writes;
    }
    t.true(await until(async () => (await replicaState(e)) === 'up', 10_000), 'caught up: it returns');
  } finally {
    await writer.end();
    await e.close();
  }
});
