// Golden tests: the SQL text the compiler generates (deterministic aliases make it stable).
import test from 'ava';
import { compileOperation, dataText, splice } from '../../src/sql/operation.js';
import { asc, col, cols, desc, eq, lit, query, rel, rootAgg, rootOne, rootSelect, select, table, variable } from './ir.js';

const articles = rel('articles', 'array', 'article', [['id', 'author_id']]);
const author = rel('author', 'object', 'author', [['author_id', 'id']]);

test('simple select', (t) => {
  const c = compileOperation(query(['author', rootSelect(select(table('author'), cols('id', 'name')))]));
  t.is(c.statement?.text,
    'SELECT (SELECT coalesce(json_agg(row_to_json("_0_e")), \'[]\') AS "json" ' +
    'FROM (SELECT "_root"."id", "_root"."name" FROM "public"."author" AS "_root") AS "_root" ' +
    'CROSS JOIN LATERAL (SELECT "_root"."id" AS "id", "_root"."name" AS "name") AS "_0_e")::text AS "0"');
  t.deepEqual(c.pieces, ['{"author":', 0, '}']);
});

test('where, order, literal limit (user and permission) and offset written as integers', (t) => {
  const c = compileOperation(query(['a', rootSelect(select(table('author'), cols('id'), {
    where: eq('id', variable('id')), orderBy: [desc('id')], limit: lit(5), permissionLimit: 3, offset: lit(1),
  }))]));
  t.is(c.statement?.text,
    'SELECT (SELECT coalesce(json_agg(row_to_json("_0_e") ORDER BY "_root"."id" DESC NULLS FIRST), \'[]\') AS "json" ' +
    'FROM (SELECT "_root"."id" FROM "public"."author" AS "_root" WHERE ("_root"."id" = $1::"int4") ORDER BY "_root"."id" DESC NULLS FIRST ' +
    'LIMIT least(5, 3) OFFSET 1) AS "_root" CROSS JOIN LATERAL (SELECT "_root"."id" AS "id") AS "_0_e")::text AS "0"');
  t.deepEqual(c.statement?.slots.map((s) => s.kind), ['variable']);
});

test('relationships are lateral joins with counter-named aliases', (t) => {
  const c = compileOperation(query(['a', rootSelect(select(table('author'), [
    ['id', col('id')],
    ['articles', { kind: 'array_relationship', relationship: articles, select: select(table('article'), [
      ['author', { kind: 'object_relationship', relationship: author, select: select(table('author'), cols('name')) }],
    ], { orderBy: [asc('id')] }) }],
  ]))]));
  t.is(c.statement?.text,
    'SELECT (SELECT coalesce(json_agg(row_to_json("_4_e")), \'[]\') AS "json" ' +
    'FROM (SELECT "_root"."id" FROM "public"."author" AS "_root") AS "_root" ' +
    'LEFT JOIN LATERAL (SELECT coalesce(json_agg(row_to_json("_3_e") ORDER BY "_0_articles"."id" ASC NULLS LAST), \'[]\') AS "json" ' +
    'FROM (SELECT "_0_articles"."author_id", "_0_articles"."id" FROM "public"."article" AS "_0_articles" WHERE "_0_articles"."author_id" = "_root"."id") AS "_0_articles" ' +
    'LEFT JOIN LATERAL (SELECT row_to_json("_2_e") AS "json" ' +
    'FROM (SELECT "_1_author"."name" FROM "public"."author" AS "_1_author" WHERE "_1_author"."id" = "_0_articles"."author_id" LIMIT 1) AS "_1_author" ' +
    'CROSS JOIN LATERAL (SELECT "_1_author"."name" AS "name") AS "_2_e") AS "_1_author.j" ON true ' +
    'CROSS JOIN LATERAL (SELECT "_1_author.j"."json" AS "author") AS "_3_e") AS "_0_articles.j" ON true ' +
    'CROSS JOIN LATERAL (SELECT "_root"."id" AS "id", "_0_articles.j"."json" AS "articles") AS "_4_e")::text AS "0"');
});

test('by pk, aggregate and static fields in one statement', (t) => {
  const c = compileOperation(query(
    ['one', rootOne(select(table('author'), cols('id'), { where: eq('id', lit(1)) }))],
    ['__typename', { kind: 'typename', name: 'query_root' }],
    ['agg', rootAgg({ source: table('author'), args: select(table('author'), []).args, fields: [['aggregate', { kind: 'aggregate', fields: [['count', { kind: 'count', columns: ['id', 'name'], distinct: true }]] }]] })],
  ));
  t.is(c.statement?.text,
    'SELECT (SELECT row_to_json("_0_e") AS "json" FROM (SELECT "_root"."id" FROM "public"."author" AS "_root" WHERE ("_root"."id" = $1::"int4")) AS "_root" ' +
    'CROSS JOIN LATERAL (SELECT "_root"."id" AS "id") AS "_0_e")::text AS "0", ' +
    '(SELECT json_build_object(\'aggregate\', json_build_object(\'count\', count(DISTINCT ("_root"."id", "_root"."name")))) AS "json" FROM (SELECT "_root"."id", "_root"."name" FROM "public"."author" AS "_root") AS "_root")::text AS "1"');
  t.deepEqual(c.pieces, ['{"one":', 0, ',"__typename":"query_root","agg":', 1, '}']);
});

test('only static fields: no statement', (t) => {
  const c = compileOperation(query(['__typename', { kind: 'typename', name: 'query_root' }], ['__schema', { kind: 'raw', json: '{"a":1}' }]));
  t.is(c.statement, null);
  t.deepEqual(c.pieces, ['{"__typename":"query_root","__schema":{"a":1}}']);
});

test('distinct on orders by the distinct columns when there is no order by', (t) => {
  const c = compileOperation(query(['a', rootSelect(select(table('t'), cols('x'), { distinctOn: ['x'] }))]));
  t.regex(c.statement!.text, /SELECT DISTINCT ON \("_root"\."x"\) "_root"\."x" FROM "public"\."t" AS "_root" ORDER BY "_root"\."x"\)/);
});

test('aggregate op names are checked before they reach SQL', (t) => {
  t.throws(() => compileOperation(query(['a', rootAgg({ source: table('t'), args: select(table('t'), []).args, fields: [
    ['aggregate', { kind: 'aggregate', fields: [['x', { kind: 'op', op: 'pg_sleep' as never, fields: [['c', { kind: 'column', column: 'c', type: 'int4' }]] }]] }],
  ] })])));
});

test('variable limit and offset are parameters', (t) => {
  const c = compileOperation(query(['a', rootSelect(select(table('author'), cols('id'), { limit: variable('l'), offset: variable('o', 'int8'), permissionLimit: 2 }))]));
  t.regex(c.statement!.text, /LIMIT least\(\$1::"int4", 2\) OFFSET \$2::"int8"\)/);
});

test('the base selects only what the upper levels read, or * when a computed field takes the row', (t) => {
  const narrow = compileOperation(query(['a', rootSelect(select(table('t'), [['x', col('x')]], { orderBy: [desc('y')], limit: lit(3) }))]));
  t.regex(narrow.statement!.text, /\(SELECT "_root"\."x", "_root"\."y" FROM "public"\."t" AS "_root" ORDER BY "_root"\."y" DESC NULLS FIRST LIMIT 3\)/);
  const whole = compileOperation(query(['a', rootSelect(select(table('t'), [
    ['x', col('x')], ['c', { kind: 'computed_scalar', function: { schema: 'public', name: 'f' }, args: [{ kind: 'row', name: null }], type: 'int4', stringify: false }],
  ]))]));
  t.regex(whole.statement!.text, /\(SELECT \* FROM "public"\."t" AS "_root"\)/);
});

test('splice and dataText put the row\'s texts into the pieces, null for a missing or null value', (t) => {
  const pieces = ['{"a":', 0, ',"b":', 1, ',"c":', 2, '}'];
  t.is(splice(pieces, ['[1,2]', null]), '{"a":[1,2],"b":null,"c":null}');
  t.is(dataText(pieces, ['{"x":"y"}', '3', '"z"']), '{"data":{"a":{"x":"y"},"b":3,"c":"z"}}');
  t.is(dataText(['{"__typename":"query_root"}'], null), '{"data":{"__typename":"query_root"}}');
});
