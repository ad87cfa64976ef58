// The response bytes, as the original writes them: a row's object is row_to_json's text (`{"k":v}`, no spaces),
// while aggregate objects, Relay connections, mutation responses and live-query roots are json_build_object's
// (`{"k" : v}`), and arrays are json_agg's (`[{...}, {...}]`). Keys come in the order asked, aliases included; keys
// that cannot be column names (over 63 bytes: Postgres truncates identifiers) still come out whole.
import test from 'ava';
import WebSocket from 'ws';
import { queryOk, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { wsUrl } from '../helpers/ws.js';

let e: TestEngine;
const USER = { 'x-engine-role': 'user' };

test.before(async () => {
  e = await startTestEngine();
  await queryOk(e, {
    type: 'bulk',
    args: [
      { type: 'run_sql', args: { sql: `
        CREATE TABLE author (id int PRIMARY KEY, name text, rating numeric);
        CREATE TABLE article (id int PRIMARY KEY, title text, author_id int REFERENCES author(id));
        INSERT INTO author VALUES (1, 'Ann', 4.50), (2, 'Bob', NULL);
        INSERT INTO article VALUES (1, 'a1', 1), (2, 'a2', 1), (3, 'b1', 2);
        CREATE TABLE odd (id int PRIMARY KEY, "say ""hi""" text, "${'x'.repeat(63)}" int);
        INSERT INTO odd VALUES (1, 'hi', 7);` } },
      // The GraphQL name of the quoted column is a custom one (it is no GraphQL name); v1 DML keys by column names.
      { type: 'track_table', version: 2, args: { table: 'odd', configuration: { custom_column_names: { 'say "hi"': 'say_hi' } } } },
      { type: 'track_table', args: 'author' },
      { type: 'track_table', args: 'article' },
      { type: 'create_object_relationship', args: { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } } },
      { type: 'create_array_relationship', args: { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } } },
      { type: 'create_select_permission', args: { table: 'article', role: 'user', permission: { columns: ['id', 'title'], filter: {}, limit: 2, allow_aggregations: true } } },
    ],
  });
});
test.after.always(async () => {
  await e?.close();
});

/** The response text of a GraphQL request that must succeed. */
async function text(query: string, headers: Record<string, string> = {}, path = '/v1/graphql'): Promise<string> {
  const r = await e.post(path, { query }, headers);
  if (r.status !== 200 || r.text.includes('"errors"')) throw new Error(`${query} -> ${r.status} ${r.text}`);
  return r.text;
}

test.serial('rows and nested object and array relationships are row objects; lists are json_agg arrays', async (t) => {
  t.is(
    await text('{ author(order_by: {id: asc}) { id name rating articles(order_by: {id: asc}) { id title author { name } } } }'),
    '{"data":{"author":[' +
      '{"id":1,"name":"Ann","rating":4.50,"articles":[{"id":1,"title":"a1","author":{"name":"Ann"}}, {"id":2,"title":"a2","author":{"name":"Ann"}}]}, ' +
      '{"id":2,"name":"Bob","rating":null,"articles":[{"id":3,"title":"b1","author":{"name":"Bob"}}]}]}}',
  );
  t.is(await text('{ author_by_pk(id: 2) { name id } article_by_pk(id: 9) { id } }'), '{"data":{"author_by_pk":{"name":"Bob","id":2},"article_by_pk":null}}');
});

test.serial('the same field under two aliases, and __typename, keep the order asked', async (t) => {
  t.is(await text('{ author_by_pk(id: 1) { b: id a: id __typename n: name } }'), '{"data":{"author_by_pk":{"b":1,"a":1,"__typename":"author","n":"Ann"}}}');
});

test.serial('keys of 63 bytes name columns; a longer key makes the object json_build_object\'s, every key whole', async (t) => {
  const k63 = 'k'.repeat(62);
  t.is(await text(`{ author_by_pk(id: 1) { id ${k63}x: name } }`), `{"data":{"author_by_pk":{"id":1,"${k63}x":"Ann"}}}`);
  // Two keys alike in their first 63 bytes: truncated, they would be one column name.
  t.is(
    await text(`{ author_by_pk(id: 1) { ${k63}xa: id ${k63}xb: name } }`),
    `{"data":{"author_by_pk":{"${k63}xa" : 1, "${k63}xb" : "Ann"}}}`,
  );
});

test.serial('more than 100 fields: one object, keys in order (past json_build_object\'s 100 arguments)', async (t) => {
  const keys = Array.from({ length: 120 }, (_, i) => `f${i}`);
  const fields = keys.map((k, i) => `${k}: ${i % 2 === 0 ? 'id' : 'name'}`).join(' ');
  const values = keys.map((k, i) => `"${k}":${i % 2 === 0 ? '1' : '"Ann"'}`);
  t.is(await text(`{ author_by_pk(id: 1) { ${fields} } }`), `{"data":{"author_by_pk":{${values.join(',')}}}}`);
  // With a key over 63 bytes the whole object is written as json_build_object writes one.
  const long = 'l'.repeat(64);
  t.is(
    await text(`{ author_by_pk(id: 1) { ${fields} ${long}: id } }`),
    `{"data":{"author_by_pk":{${[...keys.map((k, i) => `"${k}" : ${i % 2 === 0 ? '1' : '"Ann"'}`), `"${long}" : 1`].join(', ')}}}}`,
  );
});

test.serial('aggregates: json_build_object objects around row objects; nodes capped by a permission limit stay a json_agg array', async (t) => {
  t.is(
    await text('{ article_aggregate(where: {author_id: {_eq: 1}}, order_by: {id: asc}) { aggregate { count max { id } } nodes { id title } } }'),
    '{"data":{"article_aggregate":{"aggregate" : {"count" : 2, "max" : {"id" : 2}}, "nodes" : [{"id":1,"title":"a1"}, {"id":2,"title":"a2"}]}}}',
  );
  t.is(
    await text('{ author(where: {id: {_eq: 2}}) { id articles_aggregate { aggregate { count } } } }'),
    '{"data":{"author":[{"id":2,"articles_aggregate":{"aggregate" : {"count" : 1}}}]}}',
  );
  t.is(
    await text('{ article_aggregate(order_by: {id: asc}) { aggregate { count } nodes { id } } }', USER),
    '{"data":{"article_aggregate":{"aggregate" : {"count" : 3}, "nodes" : [{"id":1}, {"id":2}]}}}',
  );
});

test.serial('mutations: the response object is json_build_object\'s, returning rows and by-pk rows are row objects', async (t) => {
  t.is(
    await text('mutation { insert_article(objects: [{id: 4, title: "n", author_id: 2}]) { affected_rows returning { id author { name } } } }'),
    '{"data":{"insert_article":{"affected_rows" : 1, "returning" : [{"id":4,"author":{"name":"Bob"}}]}}}',
  );
  t.is(await text('mutation { insert_article_one(object: {id: 5, title: "m", author_id: 1}) { title id } }'), '{"data":{"insert_article_one":{"title":"m","id":5}}}');
  t.is(await text('mutation { delete_article(where: {id: {_gte: 4}}) { affected_rows } }'), '{"data":{"delete_article":{"affected_rows" : 2}}}');
});

test.serial('relay: the connection, edges and pageInfo are json_build_object\'s, nodes row objects', async (t) => {
  // The cursor is base64 of {"id" : 1}; the node id base64 of [1, "public", "author", 1].
  t.is(
    await text('{ author_connection(first: 1, order_by: {id: asc}) { edges { cursor node { id name } } pageInfo { hasNextPage } } }', {}, '/v1beta1/relay'),
    '{"data":{"author_connection":{"edges" : [{"cursor" : "eyJpZCIgOiAxfQ==", "node" : {"id":"WzEsICJwdWJsaWMiLCAiYXV0aG9yIiwgMV0=","name":"Ann"}}], "pageInfo" : {"hasNextPage" : true}}}}',
  );
});

test.serial('a live query\'s data: the root object json_build_object\'s (as the original\'s multiplexed query), rows row objects', async (t) => {
  const socket = new WebSocket(wsUrl(e.url), ['graphql-ws']);
  const frames: string[] = [];
  socket.on('message', (d) => frames.push(String(d)));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'connection_init', payload: {} }));
  socket.send(JSON.stringify({ id: '1', type: 'start', payload: { query: 'subscription { author(order_by: {id: asc}) { id name } }' } }));
  const end = Date.now() + 30_000;
  while (!frames.some((f) => f.includes('"type":"data"')) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  socket.close();
  t.is(frames.find((f) => f.includes('"type":"data"')), '{"type":"data","id":"1","payload":{"data":{"author" : [{"id":1,"name":"Ann"}, {"id":2,"name":"Bob"}]}}}');
});

test.serial('v1 select, count and mutations on /v1/query answer the database\'s text (numbers keep their digits)', async (t) => {
  const select = { type: 'select', args: { table: 'author', columns: ['id', 'rating', { name: 'articles', columns: ['title'], order_by: ['id'] }], order_by: ['id'] } };
  const r = await e.query(select);
  t.is(r.text, '[{"id":1,"rating":4.50,"articles":[{"title":"a1"}, {"title":"a2"}]}, {"id":2,"rating":null,"articles":[{"title":"b1"}]}]');
  const bulk = await e.query({
    type: 'bulk',
    args: [
      { type: 'insert', args: { table: 'article', objects: [{ id: 6, title: 'v', author_id: 2 }], returning: ['id', 'title'] } },
      { type: 'count', args: { table: 'article' } },
      { type: 'delete', args: { table: 'article', where: { id: 6 } } },
    ],
  });
  t.is(bulk.text, '[{"affected_rows" : 1, "returning" : [{"id":6,"title":"v"}]},{"count":4},{"affected_rows" : 1}]');
  // Column names with quotes, and of 63 bytes, are keys as they are.
  t.is((await e.query({ type: 'select', args: { table: 'odd', columns: ['*'] } })).text, `[{"id":1,"say \\"hi\\"":"hi","${'x'.repeat(63)}":7}]`);
});
