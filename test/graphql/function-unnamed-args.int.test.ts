// SQL functions with unnamed arguments (issue 8): exposed as arg_1, arg_2, ... by position, as the original, and
// errors for unknown or missing function arguments point at the `args` object.
import test from 'ava';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';

let e: TestEngine;

test.before(async () => {
  e = await startTestEngine();
  const r = await e.query({
    type: 'bulk',
    args: [
      { type: 'run_sql', args: { sql: `
        CREATE TABLE post (id int PRIMARY KEY, title text NOT NULL, likes int NOT NULL);
        INSERT INTO post VALUES (1, 'alpha', 5), (2, 'beta', 15), (3, 'alphabet', 25);
        CREATE FUNCTION posts_between(int, int) RETURNS SETOF post AS 'SELECT * FROM post WHERE likes BETWEEN $1 AND $2' LANGUAGE sql STABLE;
        CREATE FUNCTION posts_matching(text, min_likes int, int DEFAULT 1000) RETURNS SETOF post
          AS 'SELECT * FROM post WHERE title LIKE $1 AND likes >= min_likes AND likes <= $3' LANGUAGE sql STABLE;
        CREATE FUNCTION post_scaled(post, int) RETURNS int AS 'SELECT $1.likes * $2' LANGUAGE sql STABLE;` } },
      { type: 'track_table', args: 'post' },
      { type: 'track_function', args: 'posts_between' },
      { type: 'track_function', args: 'posts_matching' },
      { type: 'add_computed_field', args: { table: 'post', name: 'scaled', definition: { function: 'post_scaled' } } },
    ],
  });
  if (r.status !== 200) throw new Error(r.text);
});
test.after.always(async () => {
  await e?.close();
});

test('unnamed arguments are arg_1, arg_2 in the args input type', async (t) => {
  const r = await e.graphql({ query: '{ __type(name: "posts_between_args") { inputFields { name type { name } } } }' });
  t.deepEqual(r.body, { data: { __type: { inputFields: [{ name: 'arg_1', type: { name: 'Int' } }, { name: 'arg_2', type: { name: 'Int' } }] } } });
  const m = await e.graphql({ query: '{ __type(name: "posts_matching_args") { inputFields { name } } }' });
  t.deepEqual(m.body, { data: { __type: { inputFields: [{ name: 'arg_1' }, { name: 'arg_2' }, { name: 'min_likes' }] } } });
  // the table argument of a computed field takes no number
  const c = await e.graphql({ query: '{ __type(name: "post_scaled_args") { inputFields { name } } }' });
  t.deepEqual(c.body, { data: { __type: { inputFields: [{ name: 'arg_1' }] } } });
});

test('a query passing unnamed arguments gets its rows', async (t) => {
  const r = await e.graphql({ query: '{ posts_between(args: {arg_1: 10, arg_2: 30}, order_by: {id: asc}) { id } }' });
  t.deepEqual(r.body, { data: { posts_between: [{ id: 2 }, { id: 3 }] } });
  const v = await e.graphql({
    query: 'query ($lo: Int!) { posts_between_aggregate(args: {arg_1: $lo, arg_2: 100}) { aggregate { count } } }',
    variables: { lo: 1 },
  });
  t.deepEqual(v.body, { data: { posts_between_aggregate: { aggregate: { count: 3 } } } });
  const m = await e.graphql({ query: '{ posts_matching(args: {arg_1: "alpha%", min_likes: 10}) { id } }' });
  t.deepEqual(m.body, { data: { posts_matching: [{ id: 3 }] } });
  const d = await e.graphql({ query: '{ posts_matching(args: {arg_1: "%", min_likes: 1, arg_2: 20}, order_by: {id: asc}) { id } }' });
  t.deepEqual(d.body, { data: { posts_matching: [{ id: 1 }, { id: 2 }] } });
  const c = await e.graphql({ query: '{ post(order_by: {id: asc}, limit: 2) { id scaled(args: {arg_1: 3}) } }' });
  t.deepEqual(c.body, { data: { post: [{ id: 1, scaled: 15 }, { id: 2, scaled: 45 }] } });
});

test('an unknown or missing function argument: the error path is the args object', async (t) => {
  const unknown = await e.graphql({ query: '{ posts_between(args: {arg_1: 1, arg_2: 2, arg_3: 3}) { id } }' });
  t.deepEqual(unknown.body, {
    errors: [{ extensions: { path: '$.selectionSet.posts_between.args.args', code: 'validation-failed' }, message: 'field "arg_3" not found in type: \'posts_between_args\'' }],
  });
  const missing = await e.graphql({ query: '{ posts_between(args: {arg_1: 1}) { id } }' });
  t.deepEqual(missing.body, { errors: [{ extensions: { path: '$.selectionSet.posts_between.args.args', code: 'not-supported' }, message: 'Non default arguments cannot be omitted' }] });
});
