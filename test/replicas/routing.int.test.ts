// Read replicas (issue 32) on real servers: a primary and a streaming replica started by the test. Queries, live-query
// polls and explains are served by the replica (its table counters move, the primary's do not); mutations and
// metadata by the primary, whose answers carry x-engine-write-lsn; a replica stopped under load costs the clients
// nothing (the primary serves, reads in flight are retried) and rejoins once it is back.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { graphqlWsClient } from '../helpers/ws.js';
import { clusterDatabase, clusterUnavailable, startCluster, type Cluster } from '../helpers/pg-cluster.js';
import type { TestEngine } from '../helpers/engine.js';
import { metric, replicaEngine, replicaState, routed, runSql, tableCounters, until } from './fixture.js';

const skip = clusterUnavailable();
let cluster: Cluster;
const DB = `replica_routing_${randomBytes(4).toString('hex')}`;

test.before(async (t) => {
  if (skip) return;
  cluster = await startCluster([{}]);
  t.log(`primary on ${cluster.primary.port}, replica on ${cluster.replicas[0].port} (${cluster.method})`);
  await clusterDatabase(cluster, DB);
  const c = new pg.Client({ connectionString: cluster.primary.url(DB) });
  await c.connect();
  await c.query('CREATE TABLE article (id int PRIMARY KEY, title text NOT NULL)');
  await c.query("INSERT INTO article SELECT i, 'title ' || i FROM generate_series(1, 20) i");
  // A read that takes a while: some are in flight whenever the replica is stopped.
  await c.query('CREATE FUNCTION slow_article(ms int) RETURNS SETOF article LANGUAGE sql STABLE AS $$ SELECT pg_sleep(ms / 1000.0); SELECT * FROM article $$');
  await c.end();
});

test.after.always(async () => {
  await cluster?.stop();
});

const track = async (e: TestEngine): Promise<void> => {
  const r = await e.query({ type: 'track_table', args: { schema: 'public', name: 'article' } });
  if (r.status !== 200 && !String(r.text).includes('already-tracked')) throw new Error(r.text);
};

/** Reads of slow_article running on a server now (other than the asking session). */
const SLOW_RUNNING = "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%slow_article%' AND pid <> pg_backend_pid()";

const one = (e: TestEngine, id: number) => e.graphql({ query: `query { article_by_pk(id: ${id}) { id title } }` });

const serial = skip ? test.skip : test.serial;
if (skip) test('read replica tests', (t) => t.log(`skipped: ${skip}`));

serial('queries, live-query polls and explains are served by the replica; mutations and metadata by the primary', async (t) => {
  const e = await replicaEngine(cluster, DB);
  let before: { primary: Awaited<ReturnType<typeof tableCounters>>; replica: Awaited<ReturnType<typeof tableCounters>> };
  try {
    const cfg = await e.get('/v1alpha1/config');
    t.deepEqual(cfg.body.read_replicas, { count: 1, consistency: 'instance' });
    const meta = await e.query({ type: 'track_table', args: { schema: 'public', name: 'article' } });
    t.is(meta.status, 200, meta.text);
    t.regex(meta.headers.get('x-engine-write-lsn') ?? '', /^[0-9A-F]+\/[0-9A-F]+$/, 'a metadata write answers with its WAL position');
    t.true(await until(async () => (await replicaState(e)) === 'up'), 'the replica is in rotation');
    // The counters of this test's reads only: the sessions of the set-up have ended first.
    await e.close();
  } catch (err) {
    await e.close();
    throw err;
  }
  before = { primary: await tableCounters(cluster.primary, DB, 'article'), replica: await tableCounters(cluster.replicas[0], DB, 'article') };

  const e2 = await replicaEngine(cluster, DB);
  const N = 40;
  let lsn = '';
  try {
    for (let i = 1; i <= N; i++) {
      const r = await one(e2, (i % 20) + 1);
      t.deepEqual(r.body, { data: { article_by_pk: { id: (i % 20) + 1, title: `title ${(i % 20) + 1}` } } });
    }
    const explained = await e2.post('/v1/graphql/explain', { query: { query: 'query { article(where: {id: {_eq: 3}}) { id } }' } });
    t.is(explained.status, 200, explained.text);
    // A live query: its first result and two polls after a change.
    const ws = graphqlWsClient(e2.url, {});
    const results: unknown[] = [];
    const done = new Promise<void>((resolve, reject) => {
      const stop = ws.subscribe({ query: 'subscription { article(where: {id: {_eq: 1}}) { title } }' }, {
        next: (v) => {
          results.push(v);
          if (results.length === 2) {
            stop();
            resolve();
          }
        },
        error: reject,
        complete: () => undefined,
      });
    });
    await until(() => results.length === 1);
    const m = await e2.graphql({ query: 'mutation { update_article_by_pk(pk_columns: {id: 1}, _set: {title: "changed"}) { id } }' });
    t.is(m.status, 200);
    t.falsy(m.body.errors, m.text);
    lsn = m.headers.get('x-engine-write-lsn') ?? '';
    t.regex(lsn, /^[0-9A-F]+\/[0-9A-F]+$/, 'a mutation answers with the WAL position after its commit');
    await done;
    await ws.dispose();
    t.deepEqual(results, [{ data: { article: [{ title: 'title 1' }] } }, { data: { article: [{ title: 'changed' }] } }]);
    const r = await routed(e2);
    t.log(`reads routed: ${JSON.stringify(r)}`);
    t.true(r.replicas >= N + 2, 'the queries, the explain and the live query went to the replica');
    t.is(r.primary, 0, 'no read went to the primary');
  } finally {
    await e2.close();
  }
  const after = { primary: await tableCounters(cluster.primary, DB, 'article'), replica: await tableCounters(cluster.replicas[0], DB, 'article') };
  t.log(`article scans: primary ${before.primary.scans} → ${after.primary.scans}, replica ${before.replica.scans} → ${after.replica.scans}`);
  t.true(after.replica.scans - before.replica.scans >= N + 2, 'the replica read the table for every query and poll');
  // The mutation's UPDATE scanned the table (by its key) once on the primary, and nothing else did.
  t.is(after.primary.scans - before.primary.scans, 1, 'the primary read the table only for the mutation');
  t.is(after.primary.updated - before.primary.updated, 1, 'the mutation ran on the primary');
  const replayed = await new pg.Client({ connectionString: cluster.replicas[0].url(DB) });
  await replayed.connect();
  const caught = await until(async () => (await replayed.query('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [lsn])).rows[0].ok);
  await replayed.end();
  t.true(caught, 'the replica reaches the returned position');
});

serial('start-up names each replica without its password; a bad x-engine-min-lsn is a request error', async (t) => {
  const lines: string[] = [];
  const url = cluster.replicas[0].url(DB).replace('postgres@', 'postgres:hunter2secret@');
  const e = await replicaEngine(cluster, DB, { readReplicaUrls: [url], logSink: (l) => lines.push(l) });
  try {
    const startup = lines.map((l) => JSON.parse(l)).filter((l) => l.type === 'startup' && l.detail?.kind === 'read_replica');
    t.is(startup.length, 1);
    t.is(startup[0].detail.info.replica, `127.0.0.1:${cluster.replicas[0].port}/${DB}`);
    t.false(lines.some((l) => l.includes('hunter2secret')), 'the password appears in no log line');
    await track(e);
    const r = await e.graphql({ query: '{ article_by_pk(id: 1) { id } }' }, { 'x-engine-min-lsn': 'not-an-lsn' });
    t.is(r.body.errors?.[0]?.extensions?.code, 'invalid-headers');
  } finally {
    await e.close();
  }
});

serial('a replica stopped under load: no client error, the primary serves, and it rejoins when restarted', async (t) => {
  const e = await replicaEngine(cluster, DB, { replicaPollInterval: 50 });
  const replica = cluster.replicas[0];
  try {
    await track(e);
    const fn = await e.query({ type: 'track_function', args: { schema: 'public', name: 'slow_article' } });
    t.true(fn.status === 200 || fn.text.includes('already'), fn.text);
    t.true(await until(async () => (await replicaState(e)) === 'up'));
    let stopLoad = false;
    const failures: string[] = [];
    let answered = 0;
    const client = async (k: number): Promise<void> => {
      for (let i = 0; !stopLoad; i++) {
        const id = ((k * 7 + i) % 20) + 1;
        const r = await one(e, id);
        if (r.body?.data?.article_by_pk?.id !== id) failures.push(r.text);
        else answered++;
      }
    };
    const slow = async (): Promise<void> => {
      while (!stopLoad) {
        const r = await e.graphql({ query: 'query { slow_article(args: {ms: 500}, where: {id: {_eq: 2}}) { id } }' });
        if (r.body?.data?.slow_article?.[0]?.id !== 2) failures.push(r.text);
        else answered++;
      }
    };
    const load = Promise.all([...[0, 1, 2, 3, 4, 5].map(client), slow(), slow(), slow()]);
    await new Promise((r) => setTimeout(r, 700));
    const mid = await routed(e);
    // Stopped while a slow read runs on it (seen from the replica itself): one read at least is in flight, and is
    // retried. Without this wait, a loaded machine may stop it between reads, and there is no retry to see.
    const watch = new pg.Client({ connectionString: replica.url(DB) });
    await watch.connect();
    const slowRunning = await until(async () => (await watch.query(SLOW_RUNNING)).rows[0].n > 0, 10_000, 5);
    await watch.end();
    t.true(slowRunning, 'a slow read runs on the replica');
    await replica.stop();
    const stoppedAt = answered;
    await new Promise((r) => setTimeout(r, 1000));
    stopLoad = true;
    await load;
    const after = await routed(e);
    const retries = (await metric(e, 'engine_read_retries_total')).get('') ?? 0;
    t.log(`answered ${answered} (${answered - stoppedAt} after the stop), routed before the stop ${JSON.stringify(mid)}, after ${JSON.stringify(after)}, retried ${retries}`);
    t.deepEqual(failures, [], 'every request got its row');
    t.true(retries > 0, 'reads in flight on the replica when it stopped were retried on the primary');
    t.true(mid.replicas > 0, 'the replica served before it stopped');
    t.true(answered - stoppedAt > 0 && after.primary > mid.primary, 'the primary served once the replica was gone');
    t.is(await replicaState(e), 'down');
    await replica.start();
    t.true(await until(async () => (await replicaState(e)) === 'up', 20_000), 'the replica rejoins');
    const back = await routed(e);
    for (let i = 1; i <= 5; i++) t.is((await one(e, i)).body.data.article_by_pk.id, i);
    t.is((await routed(e)).replicas - back.replicas, 5, 'reads go to the replica again');
  } finally {
    if (!replica.running) await replica.start();
    await e.close();
  }
});
