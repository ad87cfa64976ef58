// The allow-list end to end: an engine started with enableAllowlist, queries as a role and as admin, on
// /v1/graphql, /v1alpha1/graphql (400) and /v1beta1/relay; edits take effect at once; off means no check.
import test from 'ava';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';

const engines: TestEngine[] = [];
test.after.always(async () => {
  await Promise.all(engines.map((e) => e.close()));
});

const SETUP = {
  type: 'bulk',
  args: [
    { type: 'run_sql', args: { sql: `CREATE TABLE "user" (id serial PRIMARY KEY, name text); INSERT INTO "user" (name) VALUES ('a'), ('b');` } },
    { type: 'track_table', args: 'user' },
    { type: 'create_select_permission', args: { table: 'user', role: 'user', permission: { columns: '*', filter: {} } } },
    { type: 'create_query_collection', args: { name: 'c1', definition: { queries: [{ name: 'q1', query: 'query { user(order_by: {id: asc}) { id name } }' }] } } },
    { type: 'add_collection_to_allowlist', args: { collection: 'c1' } },
  ],
};

const USER = { 'X-Engine-Role': 'user' };
const NOT_ALLOWED = { errors: [{ extensions: { path: '$', code: 'validation-failed' }, message: 'query is not allowed' }] };

async function engine(enableAllowlist: boolean): Promise<TestEngine> {
  const e = await startTestEngine({ enableAllowlist });
  engines.push(e);
  const r = await e.query(SETUP);
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return e;
}

test('allow-list on: listed queries run (formatting and __typename aside), others are rejected, admin bypasses', async (t) => {
  const e = await engine(true);
  const ok = await e.graphql({ query: 'query {\n  user(order_by: {id: asc}) { id, name __typename }\n}' }, USER);
  t.deepEqual(ok.body, { data: { user: [{ id: 1, name: 'a', __typename: 'user' }, { id: 2, name: 'b', __typename: 'user' }] } });
  const no = await e.graphql({ query: 'query { user { id } }' }, USER);
  t.is(no.status, 200);
  t.deepEqual(no.body, NOT_ALLOWED);
  // twice: a rejected query leaves nothing cached that would let it through
  t.deepEqual((await e.graphql({ query: 'query { user { id } }' }, USER)).body, NOT_ALLOWED);
  const legacy = await e.post('/v1alpha1/graphql', { query: 'query { user { id } }' }, USER);
  t.is(legacy.status, 400);
  t.deepEqual(legacy.body, NOT_ALLOWED);
  t.deepEqual((await e.post('/v1beta1/relay', { query: 'query { user_connection { edges { node { id } } } }' }, USER)).body, NOT_ALLOWED);
  const admin = await e.graphql({ query: 'query { user(order_by: {id: asc}) { id } }' });
  t.deepEqual(admin.body, { data: { user: [{ id: 1 }, { id: 2 }] } });
  // edits apply immediately: add the query, then drop the collection from the list
  t.is((await e.query({ type: 'add_query_to_collection', args: { collection_name: 'c1', query_name: 'q2', query: 'query { user { id } }' } })).status, 200);
  t.deepEqual((await e.graphql({ query: 'query { user { id } }' }, USER)).body, { data: { user: [{ id: 1 }, { id: 2 }] } });
  t.is((await e.query({ type: 'drop_collection_from_allowlist', args: { collection: 'c1' } })).status, 200);
  t.deepEqual((await e.graphql({ query: 'query { user { id } }' }, USER)).body, NOT_ALLOWED);
});

test('allow-list off: nothing is checked', async (t) => {
  const e = await engine(false);
  t.deepEqual((await e.graphql({ query: 'query { user(where: {id: {_eq: 2}}) { name } }' }, USER)).body, { data: { user: [{ name: 'b' }] } });
});
