// The graphql-transport-ws protocol (graphql-ws library client against our engine): auth from connectionParams,
// queries, mutations, validation errors as `error`, live subscriptions that update and stop on `complete`.
import test from 'ava';
import type { Client } from 'graphql-ws';
import type { TestEngine } from '../helpers/engine.js';
import { graphqlWsClient, startLiveEngine } from '../helpers/ws.js';

const SECRET = 'tws-admin-secret';
const ADMIN = { 'x-engine-admin-secret': SECRET };
let e: TestEngine;

test.before(async () => {
  e = await startLiveEngine(SECRET, [
    { type: 'run_sql', args: { sql: 'CREATE TABLE item (id int PRIMARY KEY, n int NOT NULL); INSERT INTO item VALUES (1, 10), (2, 20);' } },
    { type: 'track_table', args: 'item' },
  ]);
});
test.after.always(() => e?.close());

/** What iterating the operation threw (graphql-ws rejects with error arrays and close events, not Errors). */
async function thrown(c: Client, query: string): Promise<unknown> {
  try {
    for await (const r of c.iterate({ query })) return { unexpectedResult: r };
  } catch (e) {
    return e;
  }
  return 'completed without error';
}

const client = (headers: Record<string, string> = ADMIN, path = '/v1/graphql'): Client =>
  graphqlWsClient(e.url, headers, { path, retryAttempts: 0, lazy: true });

test('a query: one next with the data, then complete', async (t) => {
  const c = client();
  const results: unknown[] = [];
  for await (const r of c.iterate({ query: 'query ($id: Int!) { item_by_pk(id: $id) { n } }', variables: { id: 2 } })) results.push(r);
  t.deepEqual(results, [{ data: { item_by_pk: { n: 20 } } }]);
  await c.dispose();
});

test('a validation error is the protocol error message with our error objects', async (t) => {
  const c = client();
  const err = await thrown(c, '{ item { nope } }');
  t.deepEqual(err, [{ message: 'field "nope" not found in type: \'item\'', extensions: { path: '$.selectionSet.item.selectionSet.nope', code: 'validation-failed' } }]);
  await c.dispose();
});

test('bad credentials close the socket with 4403', async (t) => {
  const c = client({ 'x-engine-admin-secret': 'wrong' });
  const err = (await thrown(c, '{ item { id } }')) as { code: number; reason: string };
  t.is(err.code, 4403);
  t.is(err.reason, 'Forbidden');
  await c.dispose();
});

test('a live subscription: current result at once, a new one after an update, nothing after complete', async (t) => {
  const c = client();
  const it = c.iterate({ query: 'subscription ($id: Int!) { item(where: {id: {_eq: $id}}) { id n } }', variables: { id: 1 } });
  t.deepEqual((await it.next()).value, { data: { item: [{ id: 1, n: 10 }] } });
  const m = await e.graphql({ query: 'mutation { update_item(where: {id: {_eq: 1}}, _inc: {n: 5}) { affected_rows } }' }, ADMIN);
  t.is(m.body.data.update_item.affected_rows, 1);
  t.deepEqual((await it.next()).value, { data: { item: [{ id: 1, n: 15 }] } });
  await it.return!(undefined);
  // Released once the server has handled the complete message: wait for it rather than for a fixed pause.
  for (const end = Date.now() + 30_000; e.engine.websockets.live.stats().subscribers !== 0 && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
  t.is(e.engine.websockets.live.stats().subscribers, 0, 'complete released the live query');
  await c.dispose();
});
