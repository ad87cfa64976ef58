// Real clients against the engine: Apollo Client with GraphQLWsLink (graphql-transport-ws) and with the legacy
// WebSocketLink (subscriptions-transport-ws, the original's protocol), and graphql-ws's own client: each queries,
// subscribes, receives a live update, and unsubscribes (the engine releases the live query).
import test from 'ava';
import { ApolloClient, InMemoryCache, gql, type ApolloLink } from '@apollo/client/core/index.js';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions/index.js';
import { WebSocketLink } from '@apollo/client/link/ws/index.js';
import { SubscriptionClient } from 'subscriptions-transport-ws';
import WebSocket from 'ws';
import type { TestEngine } from '../helpers/engine.js';
import { graphqlWsClient, startLiveEngine, until, wsUrl } from '../helpers/ws.js';

const SECRET = 'clients-admin-secret';
const HEADERS = { 'x-engine-admin-secret': SECRET };
let e: TestEngine;

test.before(async () => {
  e = await startLiveEngine(SECRET, [
    { type: 'run_sql', args: { sql: 'CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL); INSERT INTO counter VALUES (1, 0), (2, 0), (3, 0);' } },
    { type: 'track_table', args: 'counter' },
  ]);
});
test.after.always(() => e?.close());

const bump = (id: number) => e.graphql({ query: `mutation { update_counter(where: {id: {_eq: ${id}}}, _inc: {n: 1}) { affected_rows } }` }, HEADERS);
const subscribers = () => e.engine.websockets.live.stats().subscribers;

const SUB = gql`subscription ($id: Int!) { counter_by_pk(id: $id) { id n } }`;
const QUERY = gql`query ($id: Int!) { counter_by_pk(id: $id) { id n } }`;

/** Queries row `id`, subscribes to it, bumps it once, and returns what the client saw; unsubscribes at the end. */
async function exercise(link: ApolloLink, id: number): Promise<{ query: unknown; values: unknown[] }> {
  const client = new ApolloClient({ link, cache: new InMemoryCache() });
  const q = await client.query({ query: QUERY, variables: { id }, fetchPolicy: 'no-cache' });
  const values: unknown[] = [];
  let resolveTwo!: () => void;
  const two = new Promise<void>((r) => (resolveTwo = r));
  const sub = client.subscribe({ query: SUB, variables: { id } }).subscribe({
    next: (v) => {
      values.push(v.data);
      if (values.length === 1) void bump(id);
      if (values.length === 2) resolveTwo();
    },
  });
  await two;
  sub.unsubscribe();
  client.stop();
  return { query: q.data, values };
}

test.serial('Apollo Client + GraphQLWsLink (graphql-transport-ws): query, live update, unsubscribe', async (t) => {
  const wsClient = graphqlWsClient(e.url, HEADERS);
  const r = await exercise(new GraphQLWsLink(wsClient), 1);
  t.deepEqual(r.query, { counter_by_pk: { __typename: 'counter', id: 1, n: 0 } });
  t.deepEqual(r.values, [{ counter_by_pk: { __typename: 'counter', id: 1, n: 0 } }, { counter_by_pk: { __typename: 'counter', id: 1, n: 1 } }]);
  t.true(await until(() => subscribers() === 0), 'unsubscribe released the live query');
  await wsClient.dispose();
});

test.serial('Apollo Client + legacy WebSocketLink (subscriptions-transport-ws): query, live update, unsubscribe', async (t) => {
  const sc = new SubscriptionClient(wsUrl(e.url), { connectionParams: { headers: HEADERS } }, WebSocket);
  const r = await exercise(new WebSocketLink(sc), 2);
  t.deepEqual(r.query, { counter_by_pk: { __typename: 'counter', id: 2, n: 0 } });
  t.deepEqual(r.values, [{ counter_by_pk: { __typename: 'counter', id: 2, n: 0 } }, { counter_by_pk: { __typename: 'counter', id: 2, n: 1 } }]);
  t.true(await until(() => subscribers() === 0), 'unsubscribe (stop) released the live query');
  sc.close();
});

test.serial('graphql-ws client: subscribe, receive an update, unsubscribe', async (t) => {
  const client = graphqlWsClient(e.url, HEADERS);
  const seen: unknown[] = [];
  const done = new Promise<void>((resolve, reject) => {
    const unsubscribe = client.subscribe(
      { query: 'subscription { counter_by_pk(id: 3) { n } }' },
      {
        next: (v) => {
          seen.push(v);
          if (seen.length === 1) void bump(3);
          if (seen.length === 2) {
            unsubscribe();
            resolve();
          }
        },
        error: reject,
        complete: () => undefined,
      },
    );
  });
  await done;
  t.deepEqual(seen, [{ data: { counter_by_pk: { n: 0 } } }, { data: { counter_by_pk: { n: 1 } } }]);
  t.true(await until(() => subscribers() === 0));
  await client.dispose();
});
