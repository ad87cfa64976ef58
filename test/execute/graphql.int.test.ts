// End to end over HTTP: tracked tables, role permissions, the whole request path into one SQL statement.
import test from 'ava';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';
import { planCacheStats } from '../../src/execute/plan.js';

let e: TestEngine;

test.before(async () => {
  e = await startTestEngine({ stringifyNumericTypes: true });
  const r = await e.query({ type: 'bulk', args: [
    { type: 'run_sql', args: { sql: `
      CREATE TABLE author (id serial PRIMARY KEY, name text, big bigint, rating numeric);
      CREATE TABLE article (id serial PRIMARY KEY, title text, author_id int REFERENCES author(id), published boolean);
      INSERT INTO author (name, big, rating) VALUES ('Ann', 9007199254740993, 4.5), ('Bob', 2, NULL);
      INSERT INTO article (title, author_id, published) VALUES ('a1', 1, true), ('a2', 1, false), ('b1', 2, true);` } },
    { type: 'track_table', args: { schema: 'public', name: 'author' } },
    { type: 'track_table', args: { schema: 'public', name: 'article' } },
    { type: 'create_object_relationship', args: { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } } },
    { type: 'create_array_relationship', args: { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } } },
    { type: 'create_select_permission', args: { table: 'article', role: 'user', permission: { columns: ['id', 'title'], filter: { published: { _eq: true } }, limit: 1 } } },
  ] });
  if (r.status !== 200) throw new Error(`setup failed: ${r.text}`);
});
test.after.always(async () => {
  await e?.close();
});

test('nested query with stringified numerics, keys in query order', async (t) => {
  const r = await e.graphql({ query: '{ author(order_by: {id: asc}) { name big rating articles(order_by: {id: desc}) { title author { id } } } }' });
  t.is(r.status, 200);
  t.deepEqual(r.body, { data: { author: [
    { name: 'Ann', big: '9007199254740993', rating: '4.5', articles: [{ title: 'a2', author: { id: 1 } }, { title: 'a1', author: { id: 1 } }] },
    { name: 'Bob', big: '2', rating: null, articles: [{ title: 'b1', author: { id: 2 } }] },
  ] } });
  t.regex(r.text, /^\{"data":\{"author":\[\{"name"/);
});

test('role permissions: filter and limit are applied', async (t) => {
  const r = await e.graphql({ query: '{ article(order_by: {id: asc}) { id title } }' }, { 'X-Engine-Role': 'user' });
  t.deepEqual(r.body, { data: { article: [{ id: 1, title: 'a1' }] } });
});

test('variables, plan reuse, and variable errors', async (t) => {
  const q = 'query Q($id: Int!) { author_by_pk(id: $id) { name } }';
  const a = await e.graphql({ query: q, variables: { id: 1 }, operationName: 'Q' });
  const before = planCacheStats(e.engine.state());
  const b = await e.graphql({ query: q, variables: { id: 2 }, operationName: 'Q' });
  const after = planCacheStats(e.engine.state());
  t.deepEqual(a.body, { data: { author_by_pk: { name: 'Ann' } } });
  t.deepEqual(b.body, { data: { author_by_pk: { name: 'Bob' } } });
  t.is(after.hits, before.hits + 1);
  const c = await e.graphql({ query: q, variables: { id: 3 }, operationName: 'Q' });
  t.deepEqual(c.body, { data: { author_by_pk: null } });
  const bad = await e.graphql({ query: q, variables: {}, operationName: 'Q' });
  t.is(bad.status, 200);
  t.is((bad.body as { errors: Array<{ extensions: { code: string } }> }).errors[0].extensions.code, 'validation-failed');
});

test('batch of requests answers an array in order', async (t) => {
  const r = await e.graphql([{ query: '{ author_aggregate { aggregate { count } } }' }, { query: '{ nope }' }, { query: '{ __typename }' }]);
  t.is(r.status, 200);
  const body = r.body as unknown[];
  t.deepEqual(body[0], { data: { author_aggregate: { aggregate: { count: 2 } } } });
  t.like(body[1], { errors: [{ extensions: { code: 'validation-failed' } }] });
  t.deepEqual(body[2], { data: { __typename: 'query_root' } });
});

test('database errors map to the original codes', async (t) => {
  const r = await e.graphql({ query: '{ author(where: {name: {_like: "A\\\\"}}) { id } }' });
  t.deepEqual(r.body, { errors: [{ extensions: { path: '$', code: 'bad-request' }, message: 'LIKE pattern must not end with escape character' }] });
});
