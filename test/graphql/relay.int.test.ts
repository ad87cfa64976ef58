// POST /v1beta1/relay: connections (edges, cursors, pageInfo), forward and backward pagination with cursors, order_by
// in cursors, array relationship and function connections, node(id:) with fragments, global ids, permissions, the
// original's error messages; and /v1/graphql left as it was.
import test from 'ava';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';

let e: TestEngine;

const SQL = `
CREATE TABLE author (id serial PRIMARY KEY, name text UNIQUE NOT NULL);
CREATE TABLE article (id serial PRIMARY KEY, title text, author_id int REFERENCES author(id), published boolean NOT NULL DEFAULT true);
CREATE TABLE person (first_name text, last_name text, age int, PRIMARY KEY (first_name, last_name));
CREATE TABLE note (body text);
CREATE FUNCTION search_articles(search text) RETURNS SETOF article AS $$
  SELECT * FROM article WHERE title ilike ('%' || search || '%')
$$ LANGUAGE sql STABLE;
INSERT INTO author (name) VALUES ('Ann'), ('Bob'), ('Cid'), ('Dee');
INSERT INTO article (title, author_id, published) VALUES
  ('a1', 1, true), ('a2', 1, true), ('a3', 1, false), ('b1', 2, true), ('b2', 2, true), ('c1', 3, true);
INSERT INTO person VALUES ('f1', 'l1', 30), ('f2', 'l2', NULL);
INSERT INTO note VALUES ('hello');
`;

test.before(async () => {
  e = await startTestEngine();
  const r = await e.query({
    type: 'bulk',
    args: [
      { type: 'run_sql', args: { sql: SQL } },
      { type: 'track_table', args: 'author' },
      { type: 'track_table', args: 'article' },
      { type: 'track_table', args: 'person' },
      { type: 'track_table', args: 'note' },
      { type: 'track_function', args: 'search_articles' },
      { type: 'create_object_relationship', args: { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } } },
      { type: 'create_array_relationship', args: { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } } },
      { type: 'create_select_permission', args: { table: 'article', role: 'reader', permission: { columns: ['id', 'title', 'author_id'], filter: { published: { _eq: true } } } } },
      { type: 'create_select_permission', args: { table: 'author', role: 'reader', permission: { columns: ['id', 'name'], filter: {} } } },
    ],
  });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
});

test.after.always(async () => {
  await e?.close();
});

const relay = async (query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}) => {
  const r = await e.post('/v1beta1/relay', { query, variables }, headers);
  if (r.status !== 200) throw new Error(`status ${r.status}`);
  return r.body;
};
const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64');
const unb64 = (s: string): unknown => JSON.parse(Buffer.from(s, 'base64').toString('utf8'));

const PAGE = `
  pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  edges { cursor node { id title } }`;

test('a connection: edges with global ids and primary-key cursors, pageInfo of the whole set', async (t) => {
  const r = await relay(`{ article_connection { ${PAGE} } }`);
  const c = r.data.article_connection;
  t.is(c.edges.length, 6);
  t.deepEqual(c.edges.map((x: any) => x.node.title), ['a1', 'a2', 'a3', 'b1', 'b2', 'c1']);
  t.deepEqual(unb64(c.edges[0].node.id), [1, 'public', 'article', 1]);
  // Postgres's json text, as the original's cursors are
  t.is(Buffer.from(c.edges[0].cursor, 'base64').toString(), '{"id" : 1}');
  t.is(Buffer.from(c.edges[0].node.id, 'base64').toString(), '[1, "public", "article", 1]');
  t.deepEqual(c.pageInfo, { hasNextPage: false, hasPreviousPage: false, startCursor: c.edges[0].cursor, endCursor: c.edges[5].cursor });
});

test('forward pagination with first/after walks every row once', async (t) => {
  const seen: string[] = [];
  let after: string | null = null;
  const flags: Array<[boolean, boolean]> = [];
  for (let i = 0; i < 5; i++) {
    const r: any = await relay(`query($after: String) { article_connection(first: 4, after: $after) { ${PAGE} } }`, { after });
    const c = r.data.article_connection;
    seen.push(...c.edges.map((x: any) => x.node.title));
    flags.push([c.pageInfo.hasPreviousPage, c.pageInfo.hasNextPage]);
    if (!c.pageInfo.hasNextPage) break;
    after = c.pageInfo.endCursor;
  }
  t.deepEqual(seen, ['a1', 'a2', 'a3', 'b1', 'b2', 'c1']);
  t.deepEqual(flags, [[false, true], [true, false]]);
});

test('backward pagination with last/before', async (t) => {
  const p1 = (await relay(`{ article_connection(last: 2) { ${PAGE} } }`)).data.article_connection;
  t.deepEqual(p1.edges.map((x: any) => x.node.title), ['b2', 'c1']);
  t.deepEqual([p1.pageInfo.hasPreviousPage, p1.pageInfo.hasNextPage], [true, false]);
  const p2 = (await relay(`query($b: String) { article_connection(last: 3, before: $b) { ${PAGE} } }`, { b: p1.pageInfo.startCursor })).data.article_connection;
  t.deepEqual(p2.edges.map((x: any) => x.node.title), ['a2', 'a3', 'b1']);
  t.deepEqual([p2.pageInfo.hasPreviousPage, p2.pageInfo.hasNextPage], [true, true]);
  const p3 = (await relay(`query($b: String) { article_connection(last: 3, before: $b) { ${PAGE} } }`, { b: p2.pageInfo.startCursor })).data.article_connection;
  t.deepEqual(p3.edges.map((x: any) => x.node.title), ['a1']);
  t.deepEqual([p3.pageInfo.hasPreviousPage, p3.pageInfo.hasNextPage], [false, true]);
});

test('order_by goes into the cursor (primary key appended) and pages follow it', async (t) => {
  const q = `query($after: String) { author_connection(first: 2, after: $after, order_by: {articles_aggregate: {count: desc}}) {
    pageInfo { hasNextPage endCursor } edges { cursor node { name } } } }`;
  const p1 = (await relay(q, { after: null })).data.author_connection;
  t.deepEqual(p1.edges.map((x: any) => x.node.name), ['Ann', 'Bob']);
  t.deepEqual(unb64(p1.edges[0].cursor), { articles_aggregate: { count: 3 }, id: 1 });
  const p2 = (await relay(q, { after: p1.pageInfo.endCursor })).data.author_connection;
  t.deepEqual(p2.edges.map((x: any) => x.node.name), ['Cid', 'Dee']);
  t.false(p2.pageInfo.hasNextPage);
  const byName = (await relay(`{ author_connection(order_by: {name: desc}, first: 1) { edges { cursor } } }`)).data.author_connection;
  t.deepEqual(unb64(byName.edges[0].cursor), { name: 'Dee', id: 4 });
});

test('where narrows the set that pageInfo describes', async (t) => {
  const c = (await relay(`{ article_connection(where: {author_id: {_eq: 1}}, first: 2) { ${PAGE} } }`)).data.article_connection;
  t.deepEqual(c.edges.map((x: any) => x.node.title), ['a1', 'a2']);
  t.deepEqual([c.pageInfo.hasPreviousPage, c.pageInfo.hasNextPage], [false, true]);
});

test('array relationships as connections, function connections, object relationships inside nodes', async (t) => {
  const r = await relay(`{
    author_connection(where: {id: {_lte: 2}}) { edges { node { name articles_connection(last: 1) { edges { node { title author { name } } } } } } }
    search_articles_connection(args: {search: "b"}) { edges { node { title } } }
  }`);
  t.deepEqual(r.data.author_connection.edges.map((x: any) => x.node.articles_connection.edges.map((y: any) => [y.node.title, y.node.author.name])), [
    [['a3', 'Ann']], [['b2', 'Bob']],
  ]);
  t.deepEqual(r.data.search_articles_connection.edges.map((x: any) => x.node.title), ['b1', 'b2']);
});

test('node(id:) finds the row of the id\'s table; fragments on other types are left out; unknown rows are null', async (t) => {
  const q = `query($id: ID!) { node(id: $id) { __typename id ... on author { name } ... on article { title } } }`;
  const a = (await relay(q, { id: b64([1, 'public', 'author', 2]) })).data.node;
  t.deepEqual({ ...a, id: unb64(a.id) }, { __typename: 'author', id: [1, 'public', 'author', 2], name: 'Bob' });
  t.deepEqual((await relay(q, { id: b64([1, 'public', 'article', 4]) })).data.node.title, 'b1');
  t.is((await relay(q, { id: b64([1, 'public', 'article', 100]) })).data.node, null);
  const p = await relay(`{ node(id: "${b64([1, 'public', 'person', 'f2', 'l2'])}") { ... on person { first_name last_name age } } }`);
  t.deepEqual(p.data.node, { first_name: 'f2', last_name: 'l2', age: null });
});

test('node ids and cursors come back through node(id:)', async (t) => {
  const ids = (await relay(`{ person_connection { edges { node { id } } } }`)).data.person_connection.edges.map((x: any) => x.node.id);
  t.deepEqual(unb64(ids[0]), [1, 'public', 'person', 'f1', 'l1']);
  const back = await relay(`query($id: ID!) { node(id: $id) { ... on person { first_name } } }`, { id: ids[1] });
  t.deepEqual(back.data.node, { first_name: 'f2' });
});

test('pagination and node id errors have the original messages', async (t) => {
  const err = async (q: string) => (await relay(q)).errors[0];
  t.deepEqual(await err(`{ author_connection(first: 1, last: 1) { edges { cursor } } }`), {
    extensions: { path: '$.selectionSet.author_connection', code: 'validation-failed' }, message: '"first" and "last" are not allowed at once',
  });
  t.is((await err(`{ author_connection(after: "x", before: "y") { edges { cursor } } }`)).message, '"after" and "before" are not allowed at once');
  t.is((await err(`{ author_connection(after: "${b64({ name: 'x' })}") { edges { cursor } } }`)).message, 'the "after" or "before" cursor is invalid');
  t.deepEqual(await err(`{ node(id: "random") { id } }`), {
    extensions: { path: '$.selectionSet.node.args.id', code: 'validation-failed' },
    message: "the node id is invalid: Error in $: Failed reading: not a valid json value at '\u00ad\u00a9\u00dd\u00a2'",
  });
  t.is((await err(`{ node(id: "${b64({ id: 1 })}") { id } }`)).message, 'the node id is invalid: Error in $: parsing [] failed, expected Array, but encountered Object');
  t.is((await err(`{ node(id: "${b64([3, 'public', 'author', 1])}") { id } }`)).message, 'the node id is invalid: Error in $: unsupported GUID version: 3.0');
  t.is((await err(`{ node(id: "${b64(['1', 'public', 'author', 1])}") { id } }`)).message,
    'the node id is invalid: Error in $: unexpected GUID format, needs to start with a version number');
  t.is((await err(`{ node(id: "${b64([1, 'public', 'author'])}") { id } }`)).message,
    'the node id is invalid: Error in $: GUID version 1: expecting schema name, table name and at least one column value');
  t.deepEqual(await err(`{ node(id: "${b64([1, 'public', 'person', 'f1'])}") { id } }`), {
    extensions: { path: '$.selectionSet.node', code: 'validation-failed' }, message: 'the node id is invalid: primary key columns "last_name" are missing',
  });
  t.is((await err(`{ node(id: "${b64([1, 'public', 'author', 1, 2])}") { id } }`)).message, 'the node id is invalid: unexpected column values [2]');
  t.deepEqual(await err(`{ node(id: "${b64([1, 'public', 'person', 1, 'l1'])}") { id } }`), {
    extensions: { path: '$.selectionSet.node', code: 'parse-failed' },
    message: 'value of column "first_name" in node id: parsing Text failed, expected String, but encountered Number',
  });
});

test('permissions: filters apply to connections, pageInfo and node lookups', async (t) => {
  const h = { 'x-engine-role': 'reader' };
  const c = (await relay(`{ article_connection(first: 3) { ${PAGE} } }`, undefined, h)).data.article_connection;
  t.deepEqual(c.edges.map((x: any) => x.node.title), ['a1', 'a2', 'b1']);
  t.true(c.pageInfo.hasNextPage);
  const hidden = await relay(`query($id: ID!) { node(id: $id) { ... on article { title } } }`, { id: b64([1, 'public', 'article', 3]) }, h);
  t.is(hidden.data.node, null);
  // a table the role cannot select is not in its Relay schema
  const r = await relay(`{ person_connection { edges { cursor } } }`, undefined, h);
  t.is(r.errors[0].message, "field \"person_connection\" not found in type: 'query_root'");
});

test('the Relay schema has only connections and node; tables without a primary key are left out; /v1/graphql is unchanged', async (t) => {
  const fields = (await relay(`{ __schema { queryType { fields { name } } } }`)).data.__schema.queryType.fields.map((f: any) => f.name);
  t.deepEqual(fields, ['article_connection', 'author_connection', 'node', 'person_connection', 'search_articles_connection']);
  const q = `{ author(where: {id: {_eq: 1}}) { id name } }`;
  t.deepEqual((await e.graphql({ query: q })).body, { data: { author: [{ id: 1, name: 'Ann' }] } });
  t.is((await relay(q)).errors[0].message, "field \"author\" not found in type: 'query_root'");
  // the same text again on both endpoints: plans are not shared
  t.deepEqual((await e.graphql({ query: q })).body, { data: { author: [{ id: 1, name: 'Ann' }] } });
  t.is((await relay(q)).errors[0].message, "field \"author\" not found in type: 'query_root'");
  const g = (await e.graphql({ query: `{ author_connection { edges { cursor } } }` })).body;
  t.is(g.errors[0].message, "field \"author_connection\" not found in type: 'query_root'");
  const nodeType = (await relay(`{ __type(name: "Node") { kind possibleTypes { name } } }`)).data.__type;
  t.deepEqual(nodeType, { kind: 'INTERFACE', possibleTypes: [{ name: 'article' }, { name: 'author' }, { name: 'person' }] });
});

// serial: runs before the concurrent tests, and leaves the data as it found it
test.serial('mutations are served on the Relay schema too, returning global ids', async (t) => {
  const r = await relay(`mutation { insert_note(objects: [{body: "x"}]) { affected_rows } insert_author(objects: [{name: "Eve"}]) { returning { id name articles_connection { edges { cursor } } } } }`);
  t.is(r.errors[0].message, "field \"insert_note\" not found in type: 'mutation_root'", 'note has no primary key: not in the Relay schema');
  const ok = await relay(`mutation { insert_author(objects: [{name: "Eve"}]) { returning { id name articles_connection { edges { cursor } } } } }`);
  const row = ok.data.insert_author.returning[0];
  t.deepEqual({ ...row, id: unb64(row.id) }, { id: [1, 'public', 'author', 5], name: 'Eve', articles_connection: { edges: [] } });
  await e.query({ type: 'run_sql', args: { sql: "DELETE FROM author WHERE name = 'Eve'" } });
});

test('distinct_on and object relationship order_by in connections', async (t) => {
  const d = (await relay(`{ article_connection(distinct_on: [author_id]) { edges { node { title } } } }`)).data.article_connection;
  t.deepEqual(d.edges.map((x: any) => x.node.title), ['a1', 'b1', 'c1']);
  const o = (await relay(`{ article_connection(order_by: {author: {name: desc}}, first: 2) { pageInfo { endCursor } edges { node { title } } } }`)).data.article_connection;
  t.deepEqual(o.edges.map((x: any) => x.node.title), ['c1', 'b1']);
  t.deepEqual(unb64(o.pageInfo.endCursor), { author: { name: 'Bob' }, id: 4 });
  const next = (await relay(`query($a: String) { article_connection(order_by: {author: {name: desc}}, first: 2, after: $a) { edges { node { title } } } }`, { a: o.pageInfo.endCursor })).data.article_connection;
  t.deepEqual(next.edges.map((x: any) => x.node.title), ['b2', 'a1']);
});
