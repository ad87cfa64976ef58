// End to end through POST /v1/graphql: the front's IR compiled and run by the executor, for a few representative
// queries and errors.
import test from 'ava';
import type { TestEngine } from '../helpers/engine.js';
import { startFixture } from './fixture.js';

let e: TestEngine;
test.before(async () => {
  e = await startFixture();
});
test.after.always(async () => {
  await e?.close();
});

const userHeaders = { 'X-Engine-Role': 'user', 'X-Engine-User-Id': '1' };

test('nested relationships, aggregates, computed fields, order_by and variables', async (t) => {
  const r = await e.graphql({
    query: `query ($n: String!) {
      author(order_by: {id: asc}) { id name shout(args: {suffix: "?"}) articles(order_by: {id: desc}) { title } articles_aggregate { aggregate { count } } }
      a1: author(where: {name: {_eq: $n}}) { id fav }
      article(where: {author: {name: {_eq: "A2"}}}) { title author { name } }
    }`,
    variables: { n: 'A1' },
  });
  t.is(r.status, 200);
  t.deepEqual(r.body, {
    data: {
      author: [
        { id: 1, name: 'A1', shout: 'A1?', articles: [{ title: 'T2' }, { title: 'T1' }], articles_aggregate: { aggregate: { count: 2 } } },
        { id: 2, name: 'A2', shout: 'A2?', articles: [{ title: 'T3' }], articles_aggregate: { aggregate: { count: 1 } } },
      ],
      a1: [{ id: 1, fav: 'red' }],
      article: [{ title: 'T3', author: { name: 'A2' } }],
    },
  });
  // the same plan with other variable values
  const again = await e.graphql({ query: 'query ($n: String!) { author(where: {name: {_eq: $n}}) { id } }', variables: { n: 'A2' } });
  t.deepEqual(again.body, { data: { author: [{ id: 2 }] } });
});

test('a role gets its permission filters and sees only its fields', async (t) => {
  const r = await e.graphql({ query: '{ author { id name } article(order_by: {id: asc}) { id title } }' }, userHeaders);
  t.deepEqual(r.body, { data: { author: [{ id: 1, name: 'A1' }], article: [{ id: 1, title: 'T1' }, { id: 2, title: 'T2' }, { id: 3, title: 'T3' }] } });
  const other = await e.graphql({ query: '{ article(order_by: {id: asc}) { id } }' }, { 'X-Engine-Role': 'user', 'X-Engine-User-Id': '2' });
  t.deepEqual(other.body, { data: { article: [{ id: 1 }, { id: 3 }] } });
  const hidden = await e.graphql({ query: '{ author { info } }' }, userHeaders);
  t.deepEqual(hidden.body, {
    errors: [{ extensions: { path: '$.selectionSet.author.selectionSet.info', code: 'validation-failed' }, message: 'field "info" not found in type: \'author\'' }],
  });
});

test('introspection and __typename in a response', async (t) => {
  const r = await e.graphql({ query: '{ __typename author(limit: 1) { __typename id } __type(name: "colors_enum") { enumValues { name } } }' });
  t.deepEqual(r.body, {
    data: { __typename: 'query_root', author: [{ __typename: 'author', id: 1 }], __type: { enumValues: [{ name: 'blue' }, { name: 'red' }] } },
  });
});
