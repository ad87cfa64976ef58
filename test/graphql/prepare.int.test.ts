// Request → IR: validation errors with the original's messages and paths, and the IR of representative queries.
import test from 'ava';
import type { TestEngine } from '../helpers/engine.js';
import { startFixture, prep, prepError, admin, user } from './fixture.js';

let e: TestEngine;
test.before(async () => {
  e = await startFixture();
});
test.after.always(async () => {
  await e?.close();
});

const vf = (message: string, path: string) => ({ code: 'validation-failed', message, path });

test('syntax errors and operation selection', (t) => {
  t.deepEqual(prepError(e, admin, '{ author { id }'), vf('not a valid graphql query', '$.query'));
  const two = 'query a { author { id } } query b { article { id } }';
  t.deepEqual(prepError(e, admin, two), vf('exactly one operation has to be present in the document when operationName is not specified', '$'));
  t.deepEqual(prepError(e, admin, { query: two, operationName: 'c' }), vf('no such operation found in the document: "c"', '$'));
  t.is(prep(e, admin, { query: two, operationName: 'b' }).ir.fields[0][0], 'article');
  t.deepEqual(prepError(e, user, 'mutation { x }'), vf('no mutations exist', '$'));
});

test('operationName with a shorthand query, fragment definitions', (t) => {
  t.deepEqual(prepError(e, admin, { query: '{ author { id } } query b { article { id } }', operationName: 'b' }),
    vf('operationName cannot be used when an anonymous operation exists in the document', '$'));
  t.deepEqual(prepError(e, admin, '{ author { id } } { article { id } }'),
    vf('exactly one operation has to be present in the document when operationName is not specified', '$'));
  t.deepEqual(prepError(e, admin, '{ author { ...f } } fragment f on author { id } fragment f on author { name }'),
    vf('the following fragments are defined more than once: f', '$'));
  t.deepEqual(prepError(e, admin, '{ author { ...g } }'), vf("fragment 'g' not found", '$.selectionSet.author.selectionSet'));
  t.deepEqual(prepError(e, admin, '{ author { ...f } } fragment f on article { id }'),
    vf("cannot spread fragment  defined on 'article' when selecting fields of type 'author'", '$.selectionSet.author.selectionSet.f'));
  t.deepEqual(prepError(e, admin, '{ author { ... on author { nope } } }'),
    vf('field "nope" not found in type: \'author\'', '$.selectionSet.author.selectionSet.inlineFragment.selectionSet.nope'));
});

test('selection sets, arguments, directives, merging', (t) => {
  t.deepEqual(prepError(e, admin, '{ author }'), vf('field "author" of type [author!]! must have a selection of subfields', '$.selectionSet.author'));
  t.deepEqual(prepError(e, admin, '{ author { id { x } } }'), vf('field "id" must not have a selection since type Int! has no subfields', '$.selectionSet.author.selectionSet.id'));
  t.deepEqual(prepError(e, admin, '{ author(foo: 1) { id } }'), vf('no such argument "foo" is expected', '$.selectionSet.author.args.foo'));
  t.deepEqual(prepError(e, admin, '{ author_by_pk { id } }'), vf('the required argument "id" is missing', '$.selectionSet.author_by_pk.args'));
  t.deepEqual(prepError(e, admin, '{ author(limit: 1, limit: 2) { id } }'), vf('the following arguments are defined more than once: limit', '$.selectionSet.author.args'));
  t.deepEqual(prepError(e, admin, '{ author { id @foo } }'), vf('unexpected directive: "foo"', '$.selectionSet.author.selectionSet.id.directives.foo'));
  t.deepEqual(prepError(e, admin, '{ author { id @skip } }'), vf('the required argument "if" is missing', '$.selectionSet.author.selectionSet.id.directives.skip.args'));
  t.deepEqual(prepError(e, admin, '{ a: author { id } a: article { id } }'), vf('cannot merge different fields under the same alias ("a"): author, article', '$.selectionSet'));
  t.deepEqual(prepError(e, admin, '{ a: author(limit: 1) { id } a: author { id } }'), vf('cannot merge fields with different arguments under the same alias: "a"', '$.selectionSet'));
  // a skipped field is still checked
  t.deepEqual(prepError(e, admin, '{ author @skip(if: true) { id nope } }'), vf('field "nope" not found in type: \'author\'', '$.selectionSet.author.selectionSet.nope'));
  t.deepEqual(prepError(e, admin, '{ author(bad: 1) @include(if: false) { id } }'), vf('no such argument "bad" is expected', '$.selectionSet.author.args.bad'));
  const merged = prep(e, admin, '{ author { id } author { name } }').ir.fields;
  t.is(merged.length, 1);
  t.deepEqual((merged[0][1] as { select: { fields: Array<[string, unknown]> } }).select.fields.map(([k]) => k), ['id', 'name']);
});

test('unknown fields and operators', (t) => {
  t.deepEqual(prepError(e, admin, '{ random { id } }'), vf('field "random" not found in type: \'query_root\'', '$.selectionSet.random'));
  t.deepEqual(
    prepError(e, admin, '{ author { id notPresentCol } }'),
    vf('field "notPresentCol" not found in type: \'author\'', '$.selectionSet.author.selectionSet.notPresentCol'),
  );
  t.deepEqual(
    prepError(e, admin, '{ author(where: {name: {_ne: "x"}}) { id } }'),
    vf('field "_ne" not found in type: \'String_comparison_exp\'', '$.selectionSet.author.args.where.name._ne'),
  );
  // a column the role may not select does not exist in its schema
  t.deepEqual(
    prepError(e, user, '{ author { id info } }'),
    vf('field "info" not found in type: \'author\'', '$.selectionSet.author.selectionSet.info'),
  );
  t.deepEqual(prepError(e, user, '{ colors { value } }'), vf('field "colors" not found in type: \'query_root\'', '$.selectionSet.colors'));
});

test('argument values', (t) => {
  t.deepEqual(prepError(e, admin, '{ author(limit: "3") { id } }'), vf('expecting Integer value for "limit"', '$.selectionSet.author.args.limit'));
  t.deepEqual(prepError(e, admin, '{ author(limit: -1) { id } }'), { code: 'not-supported', message: 'unexpected negative value', path: '$.selectionSet.author.args.limit' });
  t.deepEqual(
    prepError(e, admin, '{ author(where: {fav: {_eq: purple}}) { id } }'),
    vf('unexpected value "purple" for enum: \'colors_enum\'', '$.selectionSet.author.args.where.fav._eq'),
  );
  t.deepEqual(prepError(e, admin, '{ author(where: {fav: {_eq: "red"}}) { id } }'), vf('expecting an enum', '$.selectionSet.author.args.where.fav._eq'));
  t.deepEqual(prepError(e, admin, '{ author_by_pk(id: null) { id } }'), vf('null value found for non-nullable type: Int!', '$.selectionSet.author_by_pk.args.id'));
  t.deepEqual(prepError(e, admin, '{ author(where: 3) { id } }'), vf('expecting an object', '$.selectionSet.author.args.where'));
  const big = prepError(e, admin, '{ author(where: {id: {_eq: 2147483648}}) { id } }');
  t.is(big?.code, 'parse-failed');
  t.is(big?.path, '$.selectionSet.author.args.where.id._eq');
});

test('variables', (t) => {
  const q = 'query ($id: Int!, $c: colors_enum) { author(where: {id: {_eq: $id}, fav: {_eq: $c}}) { id } }';
  t.deepEqual(prepError(e, admin, { query: q, variables: { id: null } }), vf('null value found for non-nullable type: Int!', '$.variableValues.id'));
  t.deepEqual(prepError(e, admin, { query: q, variables: { id: 1, x: 2 } }), vf('unexpected variables in variableValues: x', '$.variableValues'));
  t.deepEqual(prepError(e, admin, { query: q, variables: {} }), vf('expecting a value for non-nullable variable: id of type: Int! in variableValues', '$.variableValues'));
  t.deepEqual(
    prepError(e, admin, { query: q, variables: { id: 1, c: 'purple' } }),
    vf('unexpected value "purple" for enum: \'colors_enum\'', '$.variableValues.c'),
  );
  t.deepEqual(prepError(e, admin, { query: 'query ($x: nope) { author { id } }' }), vf("no such type exists in the schema: 'nope'", '$.variableValues'));
  t.deepEqual(prepError(e, admin, '{ author(where: {id: {_eq: $y}}) { id } }'), vf('no such variable defined in the operation: "y"', '$.selectionSet.author.args.where.id._eq'));
  t.deepEqual(prepError(e, admin, { query: 'query ($id: Int) { author_by_pk(id: $id) { id } }', variables: { id: 1 } }),
    vf('variable id of type Int is used in position expecting Int!', '$.selectionSet.author_by_pk.args.id'));
  t.deepEqual(prepError(e, admin, { query: 'query ($id: Int!) { author(where: {id: {_in: $id}}) { id } }', variables: { id: 1 } }),
    vf('variable id of type Int! is used in position expecting [Int!]', '$.selectionSet.author.args.where.id._in'));
  t.deepEqual(prepError(e, admin, { query: 'query ($s: String!) { search_articles(args: {search: $s}) { id } }', variables: { s: 'T' } }), null);
  t.deepEqual(prepError(e, admin, { query: 'query ($j: jsonb) { author(where: {info: {_contains: {a: $j}}}) { id } }', variables: { j: 1 } }),
    vf('variables are not allowed in scalars', '$.selectionSet.author.args.where.info._contains.a'));
  // a cached plan re-checks variables on every execution
  const p = prep(e, admin, { query: q, variables: { id: 1 } });
  t.deepEqual(p.coerceVariables({ id: 2, c: 'red' }), { id: '2', c: 'red' });
  t.deepEqual(p.coerceVariables({ id: 2 }), { id: '2', c: null });
  const err = t.throws(() => p.coerceVariables({ id: 'x', c: 'green' })) as unknown as { path: string; message: string };
  t.is(err.path, '$.variableValues.c');
});

test('fragments, inline fragments, directives and cycles', (t) => {
  const q = `query ($yes: Boolean!) {
    author { ...A ... on author { name } id @skip(if: true) big @include(if: $yes) }
  }
  fragment A on author { id info }`;
  const p = prep(e, admin, { query: q, variables: { yes: false } });
  const sel = p.ir.fields[0][1] as { kind: 'select'; select: { fields: Array<[string, unknown]> } };
  t.deepEqual(sel.select.fields.map(([k]) => k), ['id', 'info', 'name']);
  t.false(p.ir.reusable, 'a directive variable shapes the plan');
  const cycle = `query { author { ...a } }
    fragment a on author { id articles { ...b } }
    fragment b on article { title author { ...a } }`;
  t.deepEqual(
    prepError(e, admin, cycle),
    vf('cannot spread fragment "a" within itself via b,a', '$.selectionSet.author.selectionSet.a.selectionSet.articles.selectionSet.b.selectionSet.author.selectionSet'),
  );
});

test('IR: a select with where, order_by through a relationship, limit, offset, distinct_on', (t) => {
  const p = prep(e, admin, `{
    x: article(where: {_or: [{title: {_like: "T%"}}, {author: {name: {_in: ["A1"]}}}], tags: {_is_null: true}},
               order_by: [{author: {name: desc_nulls_last}}, {id: asc}], limit: 2, offset: 1) {
      id __typename author { name }
    }
  }`);
  t.true(p.ir.reusable);
  t.is(p.ir.operation, 'query');
  const [alias, root] = p.ir.fields[0];
  t.is(alias, 'x');
  if (root.kind !== 'select') return t.fail();
  const { args, fields, source } = root.select;
  t.deepEqual(source, { kind: 'table', table: { schema: 'public', name: 'article' } });
  t.like(args.where, { kind: 'and' });
  const and = args.where as { kind: 'and'; items: Array<Record<string, unknown>> };
  t.is(and.items[0].kind, 'or');
  t.deepEqual(and.items[1], { kind: 'column', column: 'tags', op: '_is_null', value: { kind: 'literal', value: true, pgType: { type: 'bool', typeSchema: 'pg_catalog', array: false } } });
  const or = and.items[0] as unknown as { items: Array<Record<string, unknown>> };
  t.deepEqual(or.items[0], { kind: 'column', column: 'title', op: '_like', value: { kind: 'literal', value: 'T%', pgType: { type: 'text', typeSchema: 'pg_catalog', array: false } } });
  t.like(or.items[1], { kind: 'relationship', where: { kind: 'column', column: 'name', op: '_in', value: { kind: 'literal', value: ['A1'] } } });
  t.deepEqual(args.orderBy.map((o) => [o.target.kind, o.direction, o.nulls]), [['object_relationship', 'desc', 'last'], ['column', 'asc', 'last']]);
  t.like(args.limit, { kind: 'literal', value: '2' });
  t.like(args.offset, { kind: 'literal', value: '1' });
  t.is(args.permissionLimit, null);
  t.deepEqual(fields.map(([k, f]) => [k, f.kind]), [['id', 'column'], ['__typename', 'typename'], ['author', 'object_relationship']]);
  const d = prep(e, admin, '{ article(distinct_on: author_id, order_by: [{author_id: asc}, {id: desc}]) { id } }').ir.fields[0][1];
  t.like(d, { kind: 'select', select: { args: { distinctOn: ['author_id'] } } });
  t.deepEqual(
    prepError(e, admin, '{ article(distinct_on: author_id, order_by: {id: desc}) { id } }'),
    vf('"distinct_on" columns must match initial "order_by" columns', '$.selectionSet.article.args'),
  );
});

test('IR: variables in leaf positions stay variables; a variable giving a whole object keys the plan by its shape', (t) => {
  const leaf = prep(e, admin, { query: 'query ($n: String, $l: Int) { author(where: {name: {_eq: $n}}, limit: $l) { id } }', variables: { n: 'A1' } });
  t.true(leaf.ir.reusable);
  const sel = (leaf.ir.fields[0][1] as { kind: 'select'; select: { args: { where: unknown; limit: unknown } } }).select;
  t.deepEqual(sel.args.where, { kind: 'column', column: 'name', op: '_eq', value: { kind: 'variable', name: 'n', path: [], pgType: { type: 'text', typeSchema: 'pg_catalog', array: false } } });
  t.like(sel.args.limit, { kind: 'variable', name: 'l' });
  const whole = prep(e, admin, { query: 'query ($w: author_bool_exp) { author(where: $w) { id } }', variables: { w: { id: { _eq: 2 } } } });
  t.false(whole.ir.reusable);
  // its leaves are paths into the variable (Note [Shape-keyed plans]); the plan holds for the same shape
  t.deepEqual((whole.ir.fields[0][1] as { kind: 'select'; select: { args: { where: unknown } } }).select.args.where,
    { kind: 'column', column: 'id', op: '_eq', value: { kind: 'variable', name: 'w', path: ['id', '_eq'], pgType: { type: 'int4', typeSchema: 'pg_catalog', array: false } } });
  const shape = (w: unknown) => whole.coerceWithShape!({ w }).shape;
  t.is(shape({ id: { _eq: 2 } }), shape({ id: { _eq: 5 } }));
  t.deepEqual(whole.coerceWithShape!({ w: { id: { _eq: 5 } } }).variables, { w: { id: { _eq: '5' } } });
  t.not(shape({ id: { _eq: 2 } }), shape({ id: { _eq: null } }));
  t.not(shape({ id: { _eq: 2 } }), shape({ id: { _gt: 2 } }));
  t.not(shape({ id: { _eq: 2 } }), shape({ id: { _eq: 2, _lt: 3 } }));
  t.not(shape({ _or: [{ id: { _eq: 2 } }] }), shape({ _or: [{ id: { _eq: 2 } }, { id: { _eq: 2 } }] }));
  t.is(leaf.coerceWithShape, undefined, 'a reusable plan needs no shape');
  // a leaf variable read for its value still makes the plan single-use
  const dir = prep(e, admin, { query: 'query ($d: Boolean!) { author @include(if: $d) { id } }', variables: { d: true } });
  t.false(dir.ir.reusable);
  t.is(dir.coerceWithShape, undefined);
});

test('IR: permissions are baked in (filter with session variables, relationship filters, limit)', (t) => {
  const p = prep(e, user, '{ author { id articles { title } } article { author { name } } }');
  const [[, a], [, b]] = p.ir.fields;
  if (a.kind !== 'select' || b.kind !== 'select') return t.fail();
  t.deepEqual(a.select.args.where, { kind: 'column', column: 'id', op: '_eq', value: { kind: 'session', name: 'x-engine-user-id', pgType: { type: 'int4', typeSchema: 'pg_catalog', array: false } } });
  t.is(a.select.args.permissionLimit, 5);
  const articles = a.select.fields[1][1];
  t.like(articles, { kind: 'array_relationship', select: { args: { where: { kind: 'or' } } } });
  const author = b.select.fields[0][1];
  t.like(author, { kind: 'object_relationship', select: { args: { where: { kind: 'column', column: 'id' } } } });
  // user where AND permission filter
  const w = prep(e, user, '{ author(where: {name: {_eq: "A1"}}) { id } }').ir.fields[0][1];
  t.like(w, { kind: 'select', select: { args: { where: { kind: 'and' } } } });
});

test('IR: by_pk, aggregates, functions, computed fields, json path, stringified numerics', (t) => {
  const p = prep(e, admin, `{
    author_by_pk(id: 1) { name shout(args: {suffix: "?"}) all_articles(limit: 1) { id } i: info(path: "a.b[0]") big rating }
    article_aggregate(where: {id: {_gt: 0}}) { aggregate { count(columns: [id], distinct: true) sum { id } avg { id } } nodes { id } }
    search_articles(args: {search: "T"}) { id }
    search_articles_aggregate(args: {search: "T"}) { aggregate { count } }
  }`, true);
  const [[, byPk], [, agg], [, fn], [, fnAgg]] = p.ir.fields;
  if (byPk.kind !== 'select_one') return t.fail();
  t.deepEqual(byPk.select.args.where, { kind: 'column', column: 'id', op: '_eq', value: { kind: 'literal', value: '1', pgType: { type: 'int4', typeSchema: 'pg_catalog', array: false } } });
  const f = Object.fromEntries(byPk.select.fields);
  t.like(f.shout, { kind: 'computed_scalar', function: { schema: 'public', name: 'author_shout' }, type: 'text', stringify: false });
  // given arguments are passed positionally (as the original does)
  t.deepEqual((f.shout as { args: unknown }).args, [
    { kind: 'row', name: null },
    { kind: 'value', name: null, value: { kind: 'literal', value: '?', pgType: { type: 'text', typeSchema: 'pg_catalog', array: false } } },
  ]);
  t.like(f.all_articles, { kind: 'computed_table', set: true, select: { source: { kind: 'function', args: [{ kind: 'row', name: null }] } } });
  t.like(f.i, { kind: 'column', column: 'info', jsonPath: ['a', 'b', 0] });
  t.like(f.big, { kind: 'column', type: 'int8', stringify: true });
  t.like(f.rating, { kind: 'column', type: 'numeric', stringify: true });
  if (agg.kind !== 'aggregate') return t.fail();
  t.deepEqual(agg.aggregate.fields[0], ['aggregate', {
    kind: 'aggregate',
    fields: [
      ['count', { kind: 'count', columns: ['id'], distinct: true }],
      ['sum', { kind: 'op', op: 'sum', fields: [['id', { kind: 'column', column: 'id', type: 'int4' }]] }],
      ['avg', { kind: 'op', op: 'avg', fields: [['id', { kind: 'column', column: 'id', type: 'float8' }]] }],
    ],
  }]);
  t.like(fn, { kind: 'select', select: { source: { kind: 'function', function: { name: 'search_articles' }, args: [{ kind: 'value', name: null }] } } });
  t.like(fnAgg, { kind: 'aggregate' });
});

test('IR: introspection is answered as raw JSON; __typename at the root', (t) => {
  const p = prep(e, user, '{ __typename t: __type(name: "article") { name fields { name } } s: __schema { queryType { name } mutationType { name } } }');
  t.deepEqual(p.ir.fields[0], ['__typename', { kind: 'typename', name: 'query_root' }]);
  const [, tr] = p.ir.fields[1];
  if (tr.kind !== 'raw') return t.fail();
  t.deepEqual(JSON.parse(tr.json), { name: 'article', fields: [{ name: 'author' }, { name: 'id' }, { name: 'title' }] });
  const [, sr] = p.ir.fields[2];
  if (sr.kind !== 'raw') return t.fail();
  t.deepEqual(JSON.parse(sr.json), { queryType: { name: 'query_root' }, mutationType: null });
  // built-in introspection types are listed in name order too, as the original does
  const kinds = prep(e, user, { query: 'query ($d: Boolean!) { __type(name: "__TypeKind") { enumValues(includeDeprecated: $d) { name } } }', variables: { d: true } });
  const kr = kinds.ir.fields[0][1];
  if (kr.kind !== 'raw') return t.fail();
  t.deepEqual(JSON.parse(kr.json).enumValues.map((v: { name: string }) => v.name), ['ENUM', 'INPUT_OBJECT', 'INTERFACE', 'LIST', 'NON_NULL', 'OBJECT', 'SCALAR', 'UNION']);
  t.false(kinds.ir.reusable);
  t.deepEqual(
    prepError(e, user, '{ __type(name: "article") { nope } }'),
    vf('field "nope" not found in type: \'__Type\'', '$.selectionSet.__type.selectionSet.nope'),
  );
});
