// The engine behind a real PgBouncer (Debian's, 1.18: no named prepared statements in transaction mode) in
// transaction mode, with --use-prepared-statements false: queries, mutations, a subscription and metadata work under
// concurrency; with --listen-database-url on the server itself (LISTEN needs a session connection), a metadata
// change reaches a second instance by NOTIFY (its poll is ten minutes away).
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { graphqlWsClient } from '../helpers/ws.js';
import { clusterDatabase, pgbouncerUnavailable, startCluster, startPgBouncer, type Cluster, type PgBouncer } from '../helpers/pg-cluster.js';
import { startTestEngine, type TestEngine, type TestEngineOptions } from '../helpers/engine.js';
import { clusterTestDatabase, runSql } from './fixture.js';

const skip = pgbouncerUnavailable();
let cluster: Cluster;
let bouncer: PgBouncer;
const DB = `replica_bouncer_${randomBytes(4).toString('hex')}`;

test.before(async (t) => {
  if (skip) return;
  cluster = await startCluster([]);
  await clusterDatabase(cluster, DB);
  // Fewer server connections than the engine's pool: statements of one engine connection land on several servers.
  bouncer = await startPgBouncer(cluster.primary, 'transaction', 3);
  t.log(`primary on ${cluster.primary.port}, PgBouncer (transaction mode, 3 server connections) on ${bouncer.port}`);
});

test.after.always(async () => {
  await bouncer?.stop();
  await cluster?.stop();
});

/** An engine whose pool goes through PgBouncer; LISTEN straight to the server. */
const behindBouncer = (options: TestEngineOptions = {}): Promise<TestEngine> =>
  startTestEngine({
    database: clusterTestDatabase(bouncer.url(DB), DB),
    usePreparedStatements: false,
    listenDatabaseUrl: cluster.primary.url(DB),
    syncPollInterval: 600_000,
    pgConnections: 10,
    liveQueries: { batchSize: 100, refetchInterval: 100 },
    ...options,
  });

const serial = skip ? test.skip : test.serial;
if (skip) test('PgBouncer tests', (t) => t.log(`skipped: ${skip}`));

serial('behind PgBouncer in transaction mode: query, mutation, subscription and metadata; metadata reaches a second instance', async (t) => {
  const a = await behindBouncer();
  const b = await behindBouncer();
  try {
    await runSql(a, 'CREATE TABLE item (id serial PRIMARY KEY, name text NOT NULL)');
    const tracked = await a.query({ type: 'track_table', args: { schema: 'public', name: 'item' } });
    t.is(tracked.status, 200, tracked.text);
    const seq = Number(tracked.headers.get('x-engine-metadata-version'));
    t.true(await b.engine.runtime.store.waitFor(seq, 20_000), 'the change reached the second instance by NOTIFY (its poll is 10 minutes away)');

    const ws = graphqlWsClient(b.url, {});
    const seen: unknown[] = [];
    const stop = ws.subscribe({ query: 'subscription { item_aggregate { aggregate { count } } }' }, {
      next: (v) => void seen.push(v), error: (e) => seen.push({ error: String(e) }), complete: () => undefined,
    });
    // Concurrent mutations and queries on both instances: each statement may land on any server connection.
    const results = await Promise.all(Array.from({ length: 40 }, async (_, i) => {
      const e = i % 2 ? a : b;
      const m = await e.graphql({ query: `mutation { insert_item_one(object: {name: "n${i}"}) { id name } }` });
      const q = await e.graphql({ query: 'query ($n: String!) { item(where: {name: {_eq: $n}}) { name } }', variables: { n: `n${i}` } });
      return [m.body, q.body];
    }));
    for (const [i, [m, q]] of results.entries()) {
      t.falsy((m as { errors?: unknown }).errors, JSON.stringify(m));
      t.deepEqual(q, { data: { item: [{ name: `n${i}` }] } });
    }
    const last = async (): Promise<unknown> => seen[seen.length - 1];
    for (let i = 0; i < 100 && JSON.stringify(await last()) !== JSON.stringify({ data: { item_aggregate: { aggregate: { count: 40 } } } }); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    t.deepEqual(await last(), { data: { item_aggregate: { aggregate: { count: 40 } } } }, 'the subscription followed the inserts');
    t.false(seen.some((s) => (s as { errors?: unknown; error?: unknown }).errors || (s as { error?: unknown }).error), JSON.stringify(seen));
    stop();
    await ws.dispose();

    // Metadata: a relationship made on b is served by a at once.
    await runSql(b, 'CREATE TABLE tag (id serial PRIMARY KEY, item_id int NOT NULL REFERENCES item(id), label text)');
    await b.query({ type: 'track_table', args: { schema: 'public', name: 'tag' } });
    const rel = await b.query({ type: 'create_object_relationship', args: { table: 'tag', name: 'item', using: { foreign_key_constraint_on: 'item_id' } } });
    t.is(rel.status, 200, rel.text);
    t.true(await a.engine.runtime.store.waitFor(Number(rel.headers.get('x-engine-metadata-version')), 20_000));
    const q = await a.graphql({ query: 'query { tag { label item { name } } }' });
    t.deepEqual(q.body, { data: { tag: [] } });
  } finally {
    await a.close();
    await b.close();
  }
});
