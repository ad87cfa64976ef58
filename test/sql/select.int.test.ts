import test from 'ava';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import type { BoolExpIR, FieldIR } from '../../src/ir/types.js';
import { runOperation } from './db.js';
import {
  asc, col, cols, desc, eq, lit, query, rel, rootAgg, rootOne, rootSelect, select, table, T, variable,
} from './ir.js';

let db: TestDatabase;
let pool: pg.Pool;

const SETUP = `
CREATE TABLE author (id serial PRIMARY KEY, name text, rating numeric, big bigint, score float8, born date,
  created timestamptz, meta jsonb, tags text[], "Quoted ""Col""" text);
CREATE TABLE article (id serial PRIMARY KEY, title text, author_id int REFERENCES author(id), published boolean, likes int);
INSERT INTO author (name, rating, big, score, born, created, meta, tags, "Quoted ""Col""") VALUES
  ('Ann', 4.50, 9223372036854775807, 16.0001220703125, '2014-09-14', '2015-10-17 14:42:43+00', '{"a":{"b":[1,2]}}', '{x,y}', 'q1'),
  ('Bob', 3.25, 1, 0.5, NULL, NULL, NULL, NULL, NULL),
  ('Cid', NULL, NULL, NULL, NULL, NULL, '{"k":1}', '{}', NULL);
INSERT INTO article (title, author_id, published, likes) VALUES
  ('a1', 1, true, 10), ('a2', 1, false, 5), ('b1', 2, true, 7), ('a3', 1, true, 1);
CREATE FUNCTION search_articles(search text) RETURNS SETOF article LANGUAGE sql STABLE AS
  $$ SELECT * FROM article WHERE title ILIKE search || '%' $$;
CREATE FUNCTION author_label(a author, sep text) RETURNS text LANGUAGE sql STABLE AS $$ SELECT a.name || sep || a.id $$;
CREATE FUNCTION author_published(a author) RETURNS SETOF article LANGUAGE sql STABLE AS
  $$ SELECT * FROM article WHERE author_id = a.id AND published $$;
CREATE FUNCTION session_role(s json) RETURNS SETOF author LANGUAGE sql STABLE AS
  $$ SELECT * FROM author WHERE name = s->>'x-engine-user-name' $$;
`;

test.before(async () => {
  db = await createTestDatabase('c2sel');
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  await pool.query(SETUP);
});
test.after.always(async () => {
  await pool?.end();
  await db?.drop();
});

const articles = rel('articles', 'array', 'article', [['id', 'author_id']]);
const author = rel('author', 'object', 'author', [['author_id', 'id']]);

test('columns in query order, typename, several root fields', async (t) => {
  const out = await runOperation(pool, query(
    ['__typename', { kind: 'typename', name: 'query_root' }],
    ['a', rootSelect(select(table('author'), [['name', col('name', 'text')], ['id', col('id')], ['__typename', { kind: 'typename', name: 'author' }]], { orderBy: [asc('id')] }))],
    ['intro', { kind: 'raw', json: '{"x":1}' }],
  ));
  t.is(out, '{"__typename":"query_root","a":[{"name":"Ann","id":1,"__typename":"author"},{"name":"Bob","id":2,"__typename":"author"},{"name":"Cid","id":3,"__typename":"author"}],"intro":{"x":1}}');
});

test('output encoding: stringify numerics, dates, json, arrays, quoted column names, json path', async (t) => {
  const f: Array<[string, FieldIR]> = [
    ['rating', col('rating', 'numeric', { stringify: true })],
    ['ratingNum', col('rating', 'numeric')],
    ['big', col('big', 'int8', { stringify: true })],
    ['score', col('score', 'float8', { stringify: true })],
    ['born', col('born', 'date')],
    ['created', col('created', 'timestamptz')],
    ['meta', col('meta', 'jsonb')],
    ['metaB', col('meta', 'jsonb', { jsonPath: ['a', 'b', 1] })],
    ['tags', col('tags', 'text', { isArray: true })],
    ['q', col('Quoted "Col"', 'text')],
  ];
  const out = await runOperation(pool, query(['a', rootOne(select(table('author'), f, { where: eq('id', lit(1)) }))]));
  t.is(out, '{"a":{"rating":"4.50","ratingNum":4.50,"big":"9223372036854775807","score":"16.0001220703125","born":"2014-09-14",' +
    '"created":"2015-10-17T14:42:43+00:00","meta":{"a":{"b":[1,2]}},"metaB":2,"tags":["x","y"],"q":"q1"}}');
});

test('by_pk with no row is null', async (t) => {
  const out = await runOperation(pool, query(['a', rootOne(select(table('author'), cols('id'), { where: eq('id', variable('id')) }))]), { id: 99 });
  t.is(out, '{"a":null}');
});

test('nested object and array relationships with their own args', async (t) => {
  const out = await runOperation(pool, query(['authors', rootSelect(select(table('author'), [
    ['id', col('id')],
    ['articles', { kind: 'array_relationship', relationship: articles, select: select(table('article'), [
      ['title', col('title', 'text')],
      ['author', { kind: 'object_relationship', relationship: author, select: select(table('author'), [['name', col('name', 'text')]]) }],
    ], { orderBy: [desc('likes')], limit: lit(2), where: eq('published', lit(true, 'bool')) }) }],
  ], { orderBy: [asc('id')] }))]));
  t.is(out, '{"authors":[{"id":1,"articles":[{"title":"a1","author":{"name":"Ann"}},{"title":"a3","author":{"name":"Ann"}}]},' +
    '{"id":2,"articles":[{"title":"b1","author":{"name":"Bob"}}]},{"id":3,"articles":[]}]}');
});

test('empty result is []', async (t) => {
  const out = await runOperation(pool, query(['a', rootSelect(select(table('author'), cols('id'), { where: eq('id', lit(42)) }))]));
  t.is(out, '{"a":[]}');
});

test('limit least(user, permission), offset, variables', async (t) => {
  const q = query(['a', rootSelect(select(table('article'), cols('id'), { orderBy: [asc('id')], limit: variable('l'), permissionLimit: 3, offset: variable('o') }))]);
  t.is(await runOperation(pool, q, { l: 10, o: 0 }), '{"a":[{"id":1},{"id":2},{"id":3}]}');
  t.is(await runOperation(pool, q, { l: 1, o: 1 }), '{"a":[{"id":2}]}');
  t.is(await runOperation(pool, q, { o: 2 }), '{"a":[{"id":3},{"id":4}]}');
});

test('distinct_on keeps the first row per value in order', async (t) => {
  const out = await runOperation(pool, query(['a', rootSelect(select(table('article'), [['author_id', col('author_id')], ['title', col('title', 'text')]], {
    distinctOn: ['author_id'], orderBy: [asc('author_id'), desc('likes')],
  }))]));
  t.is(out, '{"a":[{"author_id":1,"title":"a1"},{"author_id":2,"title":"b1"}]}');
});

test('order by object relationship column and array aggregate', async (t) => {
  const byAuthorName = query(['a', rootSelect(select(table('article'), cols('id'), {
    orderBy: [{ target: { kind: 'object_relationship', relationship: author, filter: { kind: 'true' }, target: { kind: 'column', column: 'name' } }, direction: 'desc', nulls: 'last' }, asc('id')],
    limit: lit(3),
  }))]);
  t.is(await runOperation(pool, byAuthorName), '{"a":[{"id":3},{"id":1},{"id":2}]}');
  const byCount = query(['a', rootSelect(select(table('author'), cols('id'), {
    orderBy: [{ target: { kind: 'array_aggregate', relationship: articles, filter: { kind: 'true' }, op: 'count' }, direction: 'asc', nulls: 'last' }, asc('id')],
  }))]);
  t.is(await runOperation(pool, byCount), '{"a":[{"id":3},{"id":2},{"id":1}]}');
  const bySum = query(['a', rootSelect(select(table('author'), cols('id'), {
    orderBy: [{ target: { kind: 'array_aggregate', relationship: articles, filter: { kind: 'true' }, op: 'sum', column: 'likes' }, direction: 'desc', nulls: 'last' }],
  }))]);
  t.is(await runOperation(pool, bySum), '{"a":[{"id":1},{"id":2},{"id":3}]}');
});

test('bool exps: and/or/not, in/nin, like, is_null, relationship, exists, jsonb ops, column compare', async (t) => {
  const ids = async (where: BoolExpIR, vars: Record<string, unknown> = {}): Promise<string> =>
    runOperation(pool, query(['a', rootSelect(select(table('author'), cols('id'), { where, orderBy: [asc('id')] }))]), vars);
  t.is(await ids({ kind: 'column', column: 'id', op: '_in', value: lit([1, 3], 'int4', true) }), '{"a":[{"id":1},{"id":3}]}');
  t.is(await ids({ kind: 'column', column: 'id', op: '_nin', value: variable('v', 'int4', [], true) }, { v: [1] }), '{"a":[{"id":2},{"id":3}]}');
  t.is(await ids({ kind: 'column', column: 'id', op: '_in', value: lit([], 'int4', true) }), '{"a":[]}');
  t.is(await ids({ kind: 'column', column: 'name', op: '_ilike', value: lit('%B', 'text') }), '{"a":[{"id":2}]}');
  t.is(await ids({ kind: 'column', column: 'rating', op: '_is_null', value: lit(true, 'bool') }), '{"a":[{"id":3}]}');
  t.is(await ids({ kind: 'column', column: 'rating', op: '_is_null', value: variable('n', 'bool') }, { n: false }), '{"a":[{"id":1},{"id":2}]}');
  t.is(await ids({ kind: 'or', items: [eq('id', lit(1)), { kind: 'not', item: { kind: 'column', column: 'id', op: '_lt', value: lit(3) } }] }), '{"a":[{"id":1},{"id":3}]}');
  t.is(await ids({ kind: 'relationship', relationship: articles, where: { kind: 'column', column: 'likes', op: '_gt', value: lit(6) } }), '{"a":[{"id":1},{"id":2}]}');
  t.is(await ids({ kind: 'exists', table: { schema: 'public', name: 'article' }, where: eq('title', lit('zz', 'text')) }), '{"a":[]}');
  t.is(await ids({ kind: 'column', column: 'meta', op: '_contains', value: variable('j', 'jsonb') }, { j: { k: 1 } }), '{"a":[{"id":3}]}');
  t.is(await ids({ kind: 'column', column: 'meta', op: '_has_key', value: lit('a', 'text') }), '{"a":[{"id":1}]}');
  t.is(await ids({ kind: 'column', column: 'meta', op: '_has_keys_any', value: lit(['k', 'zz'], 'text', true) }), '{"a":[{"id":3}]}');
  t.is(await ids({ kind: 'column', column: 'id', op: '_ceq', value: { kind: 'column', column: 'id' } }), '{"a":[{"id":1},{"id":2},{"id":3}]}');
  t.is(await ids({ kind: 'and', items: [] }), '{"a":[{"id":1},{"id":2},{"id":3}]}');
});

test('session variables and the session object', async (t) => {
  const op = query(['a', rootSelect(select(table('author'), cols('id'), { where: eq('name', { kind: 'session', name: 'x-engine-user-name', pgType: T('text') }) }))],
    ['b', rootSelect(select({ kind: 'function', function: { schema: 'public', name: 'session_role' }, args: [{ kind: 'value', name: null, value: { kind: 'session_object' } }] }, cols('id')))]);
  t.is(await runOperation(pool, op, {}, { 'x-engine-role': 'user', 'x-engine-user-name': 'Bob' }), '{"a":[{"id":2}],"b":[{"id":2}]}');
  const e = await t.throwsAsync(runOperation(pool, op, {}, { 'x-engine-role': 'user' }));
  t.is(e?.message, '"x-engine-user-name" header is expected but not found');
});

test('functions as sources (named and positional args) and computed fields', async (t) => {
  const fn = (name: string | null) => ({ kind: 'function' as const, function: { schema: 'public', name: 'search_articles' }, args: [{ kind: 'value' as const, name, value: variable('s', 'text') }] });
  const op = query(
    ['p', rootSelect(select(fn(null), cols('id'), { orderBy: [asc('id')] }))],
    ['n', rootSelect(select(fn('search'), cols('id'), { orderBy: [desc('id')], limit: lit(1) }))],
  );
  t.is(await runOperation(pool, op, { s: 'a' }), '{"p":[{"id":1},{"id":2},{"id":4}],"n":[{"id":4}]}');
  const cf = query(['a', rootSelect(select(table('author'), [
    ['label', { kind: 'computed_scalar', function: { schema: 'public', name: 'author_label' }, args: [{ kind: 'row', name: null }, { kind: 'value', name: null, value: lit('#', 'text') }], type: 'text', stringify: false }],
    ['pub', { kind: 'computed_table', set: true, select: select({ kind: 'function', function: { schema: 'public', name: 'author_published' }, args: [{ kind: 'row', name: 'a' }] }, cols('id'), { orderBy: [desc('id')] }) }],
  ], { orderBy: [asc('id')], limit: lit(2) }))]);
  t.is(await runOperation(pool, cf), '{"a":[{"label":"Ann#1","pub":[{"id":4},{"id":1}]},{"label":"Bob#2","pub":[{"id":3}]}]}');
});

test('aggregates: count variants, sum/avg/max, nodes, nested array aggregate', async (t) => {
  const agg = {
    source: table('article'),
    args: { where: null, orderBy: [asc('id')], limit: null, permissionLimit: null, offset: null, distinctOn: null },
    fields: [
      ['aggregate', { kind: 'aggregate', fields: [
        ['count', { kind: 'count', columns: null, distinct: false }],
        ['c2', { kind: 'count', columns: ['author_id'], distinct: true }],
        ['sum', { kind: 'op', op: 'sum', fields: [['likes', { kind: 'column', column: 'likes', type: 'int4' }]] }],
        ['max', { kind: 'op', op: 'max', fields: [['__typename', { kind: 'typename', name: 'article_max_fields' }], ['title', { kind: 'column', column: 'title', type: 'text' }]] }],
      ] }],
      ['nodes', { kind: 'nodes', fields: [['id', col('id')]] }],
    ],
  } as const;
  const out = await runOperation(pool, query(['x', rootAgg(structuredClone(agg) as never)]));
  t.is(out, '{"x":{"aggregate":{"count":4,"c2":2,"sum":{"likes":23},"max":{"__typename":"article_max_fields","title":"b1"}},"nodes":[{"id":1},{"id":2},{"id":3},{"id":4}]}}');
  const nested = await runOperation(pool, query(['a', rootSelect(select(table('author'), [
    ['id', col('id')],
    ['articles_aggregate', { kind: 'array_aggregate', relationship: articles, aggregate: {
      source: table('article'), args: { where: null, orderBy: [], limit: null, permissionLimit: null, offset: null, distinctOn: null },
      fields: [['aggregate', { kind: 'aggregate', fields: [['count', { kind: 'count', columns: null, distinct: false }], ['avg', { kind: 'op', op: 'avg', fields: [['likes', { kind: 'column', column: 'likes', type: 'int4' }]] }]] }]],
    } }],
  ], { orderBy: [asc('id')] }))]));
  t.is(nested, '{"a":[{"id":1,"articles_aggregate":{"aggregate":{"count":3,"avg":{"likes":5.3333333333333333}}}},' +
    '{"id":2,"articles_aggregate":{"aggregate":{"count":1,"avg":{"likes":7.0000000000000000}}}},{"id":3,"articles_aggregate":{"aggregate":{"count":0,"avg":{"likes":null}}}}]}');
});

test('objects wider than 50 keys keep their key order', async (t) => {
  const fields: Array<[string, FieldIR]> = [];
  for (let i = 0; i < 60; i++) fields.push([`k${i}`, i % 2 ? col('id') : col('name', 'text')]);
  const out = await runOperation(pool, query(['a', rootOne(select(table('author'), fields, { where: eq('id', lit(2)) }))]));
  t.is(out, `{"a":{${fields.map(([k], i) => `"${k}":${i % 2 ? 2 : '"Bob"'}`).join(',')}}}`);
});
