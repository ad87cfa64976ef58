// Remote schemas' introspections are kept with each engine's state (src/remote/introspections.ts): what a write
// introspects goes with it when it rolls back, and two engines in one process each introspect for themselves.
// Real engines, real Postgres, real graphql-js servers on loopback.
import test from 'ava';
import { createTestDatabase } from '../helpers/db.js';
import { queryOk, startTestEngine } from '../helpers/engine.js';
import { startRemote, type RemoteServer } from './server.js';

const introspections = (r: RemoteServer): number => r.received.filter((x) => x.body.query.includes('__schema')).length;

test('a reload_remote_schema rolled back with its bulk leaves the schema the engine had', async (t) => {
  const v1 = await startRemote('type Query { a: String }', { a: () => 'A' });
  const port = Number(new URL(v1.url).port);
  const e = await startTestEngine();
  t.teardown(() => e.close());
  await queryOk(e, { type: 'add_remote_schema', args: { name: 'r', definition: { url: v1.url } } });
  await v1.close();
  const v2 = await startRemote('type Query { a: String, b: String }', { a: () => 'A2', b: () => 'B' }, port);
  t.teardown(() => v2.close());

  // The reload introspects v2, then the bulk fails: nothing of it stays.
  const failed = await e.query({
    type: 'bulk',
    args: [{ type: 'reload_remote_schema', args: { name: 'r' } }, { type: 'remove_remote_schema', args: { name: 'no_such_remote' } }],
  });
  t.is(failed.status, 400, failed.text);
  t.is(introspections(v2), 1);
  // A later write rebuilds the schema cache: from the state's introspection (v1's), not from the rolled-back one.
  await queryOk(e, { type: 'create_query_collection', args: { name: 'c', definition: { queries: [] } } });
  t.is((await e.graphql({ query: '{ b }' })).body.errors?.[0]?.extensions?.code, 'validation-failed');
  t.deepEqual((await e.graphql({ query: '{ a }' })).body, { data: { a: 'A2' } });

  await queryOk(e, { type: 'reload_remote_schema', args: { name: 'r' } });
  t.deepEqual((await e.graphql({ query: '{ b }' })).body, { data: { b: 'B' } });
});

test('two engines in one process: the one that folds another\'s add_remote_schema introspects the remote itself', async (t) => {
  const db = await createTestDatabase('intro');
  t.teardown(() => db.drop());
  const remote = await startRemote('type Query { a: String }', { a: () => 'A' });
  t.teardown(() => remote.close());
  const first = await startTestEngine({ database: db });
  t.teardown(() => first.close());
  const second = await startTestEngine({ database: db });
  t.teardown(() => second.close());

  await queryOk(first, { type: 'add_remote_schema', args: { name: 'r', definition: { url: remote.url } } });
  // The second engine may fold the event (NOTIFY) and introspect before the first one's answer is read here: one
  // so far at least; the count below, with each engine asking at least once, says each asked exactly once.
  t.true(introspections(remote) >= 1);
  const seq = first.seq();
  for (let i = 0; i < 100 && second.seq() < seq; i++) await new Promise((r) => setTimeout(r, 50));
  t.is(second.seq(), seq, 'the second engine caught up');
  t.deepEqual((await second.graphql({ query: '{ a }' })).body, { data: { a: 'A' } });
  t.is(introspections(remote), 2, 'the second engine introspected the remote when it folded the event');
});
