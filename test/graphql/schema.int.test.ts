// Role schemas built from a real catalog and metadata: names, types, descriptions, what each role sees.
import test from 'ava';
import { getNamedType, isNonNullType, lexicographicSortSchema, printSchema, validateSchema, type GraphQLObjectType, type GraphQLInputObjectType, type GraphQLEnumType } from 'graphql';
import type { TestEngine } from '../helpers/engine.js';
import { buildRoleSchema, roleSchema } from '../../src/graphql/schema/build.js';
import { startFixture } from './fixture.js';
import { schemaTypes } from '../../src/graphql/schema-types.js';

let e: TestEngine;
test.before(async () => {
  e = await startFixture();
});
test.after.always(async () => {
  await e?.close();
});

const schemaFor = (role: string) => roleSchema(e.engine.runtime.store.get(), role, e.engine.runtime.features.extensions).schema;
const fieldNames = (t: unknown) => Object.keys((t as GraphQLObjectType).getFields());

test('admin query_root: select, by_pk and aggregate per table, functions', (t) => {
  const s = schemaFor('admin');
  const q = s.getQueryType()!;
  t.deepEqual(fieldNames(q), [
    'author', 'author_aggregate', 'author_by_pk',
    'article', 'article_aggregate', 'article_by_pk',
    'colors', 'colors_aggregate', 'colors_by_pk',
    'other_thing', 'other_thing_aggregate', 'other_thing_by_pk',
    'search_articles', 'search_articles_aggregate',
  ].sort());
  t.is(s.getSubscriptionType()?.name, 'subscription_root');
  const f = q.getFields();
  t.is(f.author.description, 'fetch data from the table: "author"');
  t.is(f.author_by_pk.description, 'fetch data from the table: "author" using primary key columns');
  t.is(f.author_aggregate.description, 'fetch aggregated fields from the table: "author"');
  t.is(f.other_thing.description, 'fetch data from the table: "other.thing"');
  t.is(f.search_articles.description, 'execute function "search_articles" which returns "article"');
  t.is(String(f.author.type), '[author!]!');
  t.is(String(f.author_by_pk.type), 'author');
  t.deepEqual(f.author_by_pk.args.map((a) => `${a.name}: ${String(a.type)}`), ['id: Int!']);
  t.deepEqual(f.author.args.map((a) => `${a.name}: ${String(a.type)}`), [
    'distinct_on: [author_select_column!]', 'limit: Int', 'offset: Int', 'order_by: [author_order_by!]', 'where: author_bool_exp',
  ]);
  t.deepEqual(f.search_articles.args.map((a) => `${a.name}: ${String(a.type)}`)[0], 'args: search_articles_args!');
});

test('table object type: columns with scalar mapping, relationships, computed fields, enum references', (t) => {
  const s = schemaFor('admin');
  const author = s.getType('author') as GraphQLObjectType;
  t.is(author.description, 'columns and relationships of "author"');
  const f = author.getFields();
  t.deepEqual(Object.keys(f), ['all_articles', 'articles', 'articles_aggregate', 'big', 'fav', 'id', 'info', 'name', 'rating', 'shout']);
  t.is(String(f.id.type), 'Int!');
  t.is(String(f.name.type), 'String!');
  t.is(f.name.description, 'full name');
  t.is(String(f.big.type), 'bigint');
  t.is(String(f.rating.type), 'numeric');
  t.is(String(f.info.type), 'jsonb');
  t.deepEqual(f.info.args.map((a) => a.name), ['path']);
  t.is(String(f.fav.type), 'colors_enum');
  t.is(String(f.articles.type), '[article!]!');
  t.is(f.articles.description, 'An array relationship');
  t.is(String(f.articles_aggregate.type), 'article_aggregate!');
  t.is(String(f.shout.type), 'String');
  t.deepEqual(f.shout.args.map((a) => `${a.name}: ${String(a.type)}`), ['args: author_shout_args']);
  t.is(String(f.all_articles.type), '[article!]!');
  const article = (s.getType('article') as GraphQLObjectType).getFields();
  t.is(String(article.author.type), 'author');
  t.is(article.author.description, 'An object relationship');
  t.is(String(article.tags.type), '_text');
  const colors = s.getType('colors_enum') as GraphQLEnumType;
  t.deepEqual(colors.getValues().map((v) => [v.name, v.description]), [['blue', 'the blue one'], ['red', 'the red one']]);
});

test('bool_exp, comparison, order_by and aggregate types', (t) => {
  const s = schemaFor('admin');
  const be = s.getType('author_bool_exp') as GraphQLInputObjectType;
  t.is(be.description, 'Boolean expression to filter rows from the table "author". All fields are combined with a logical \'AND\'.');
  t.deepEqual(Object.keys(be.getFields()), ['_and', '_not', '_or', 'articles', 'big', 'fav', 'id', 'info', 'name', 'rating']);
  t.is(String(be.getFields().name.type), 'String_comparison_exp');
  t.is(String(be.getFields().fav.type), 'colors_enum_comparison_exp');
  t.is(String(be.getFields().articles.type), 'article_bool_exp');
  const str = s.getType('String_comparison_exp') as GraphQLInputObjectType;
  t.deepEqual(Object.keys(str.getFields()), ['_eq', '_gt', '_gte', '_ilike', '_in', '_is_null', '_like', '_lt', '_lte', '_neq', '_nilike', '_nin', '_nlike', '_nsimilar', '_similar']);
  t.is(String(str.getFields()._in.type), '[String!]');
  const jsonb = s.getType('jsonb_comparison_exp') as GraphQLInputObjectType;
  t.deepEqual(Object.keys(jsonb.getFields()).filter((k) => k.startsWith('_c') || k.startsWith('_has')), ['_contained_in', '_contains', '_has_key', '_has_keys_all', '_has_keys_any']);
  t.deepEqual(Object.keys((s.getType('Int_comparison_exp') as GraphQLInputObjectType).getFields()), ['_eq', '_gt', '_gte', '_in', '_is_null', '_lt', '_lte', '_neq', '_nin']);
  const ob = s.getType('author_order_by') as GraphQLInputObjectType;
  t.deepEqual(Object.keys(ob.getFields()), ['articles_aggregate', 'big', 'fav', 'id', 'info', 'name', 'rating']);
  t.is(String(ob.getFields().articles_aggregate.type), 'article_aggregate_order_by');
  const aob = s.getType('article_aggregate_order_by') as GraphQLInputObjectType;
  t.deepEqual(Object.keys(aob.getFields()), ['avg', 'count', 'max', 'min', 'stddev', 'stddev_pop', 'stddev_samp', 'sum', 'var_pop', 'var_samp', 'variance']);
  const orderBy = s.getType('order_by') as GraphQLEnumType;
  t.deepEqual(orderBy.getValues().map((v) => v.name), ['asc', 'asc_nulls_first', 'asc_nulls_last', 'desc', 'desc_nulls_first', 'desc_nulls_last']);
  const af = (s.getType('author_aggregate_fields') as GraphQLObjectType).getFields();
  t.deepEqual(Object.keys(af), ['avg', 'count', 'max', 'min', 'stddev', 'stddev_pop', 'stddev_samp', 'sum', 'var_pop', 'var_samp', 'variance']);
  t.deepEqual(af.count.args.map((a) => `${a.name}: ${String(a.type)}`), ['columns: [author_select_column!]', 'distinct: Boolean']);
  const sum = (s.getType('author_sum_fields') as GraphQLObjectType).getFields();
  t.deepEqual(Object.keys(sum), ['big', 'id', 'rating']);
  t.is(String(sum.big.type), 'bigint');
  t.is(String((s.getType('author_avg_fields') as GraphQLObjectType).getFields().big.type), 'Float');
  t.deepEqual(Object.keys((s.getType('author_max_fields') as GraphQLObjectType).getFields()), ['big', 'id', 'name', 'rating']);
  const sel = s.getType('author_select_column') as GraphQLEnumType;
  t.is(sel.description, 'select columns of table "author"');
  t.deepEqual(sel.getValues().map((v) => [v.name, v.value]), [['big', 'big'], ['fav', 'fav'], ['id', 'id'], ['info', 'info'], ['name', 'name'], ['rating', 'rating']]);
});

test('a role sees only what its select permissions allow', (t) => {
  const s = schemaFor('user');
  t.deepEqual(fieldNames(s.getQueryType()), ['article', 'article_aggregate', 'article_by_pk', 'author', 'author_by_pk', 'search_articles', 'search_articles_aggregate']);
  t.is(s.getMutationType(), undefined, 'no insert/update/delete permissions: no mutation_root');
  // only permitted columns, the granted scalar computed field, relationships to selectable tables, table-returning
  // computed fields follow the returned table's permission
  t.deepEqual(fieldNames(s.getType('author')), ['all_articles', 'articles', 'articles_aggregate', 'id', 'name', 'shout']);
  t.deepEqual(fieldNames(s.getType('article')), ['author', 'id', 'title']);
  t.is(s.getType('colors'), undefined);
  t.is(s.getType('author_aggregate_fields'), undefined);
  t.deepEqual(Object.keys((s.getType('author_bool_exp') as GraphQLInputObjectType).getFields()), ['_and', '_not', '_or', 'articles', 'id', 'name']);
  const unknownRole = schemaFor('nobody');
  t.deepEqual(fieldNames(unknownRole.getQueryType()), ['no_queries_available']);
  t.is(unknownRole.getSubscriptionType(), undefined);
});

test('types a role would see without any field are left out; no order_by without orderable fields', (t) => {
  const s = schemaFor('narrow');
  // article keeps a field (its relationship to author); author has no orderable field (no column, no aggregates)
  t.deepEqual(fieldNames(s.getType('article')), ['author']);
  t.deepEqual(fieldNames(s.getType('author')), ['all_articles', 'articles', 'shout']);
  t.deepEqual(s.getQueryType()!.getFields().author.args.map((a) => a.name), ['limit', 'offset', 'where']);
  t.is(s.getType('author_order_by'), undefined);
  // with no visible field at all a table disappears, and so do the relationships leading to it
  const cache = structuredClone(e.engine.runtime.store.get().cache);
  cache.tables['public.article'].relationships = {};
  cache.tables['public.author'].permissions.narrow!.select!.computedFields = [];
  const pruned = buildRoleSchema(cache, 'narrow', e.engine.runtime.features.extensions).schema;
  t.is(pruned.getType('article'), undefined);
  t.deepEqual(fieldNames(pruned.getQueryType()), ['no_queries_available']);
  t.deepEqual(validateSchema(s).map((x) => x.message), []);
});

test('schemas are memoised per state and role', (t) => {
  const state = e.engine.runtime.store.get();
  t.is(roleSchema(state, 'user', e.engine.runtime.features.extensions), roleSchema(state, 'user', e.engine.runtime.features.extensions));
  t.not(roleSchema(state, 'user', e.engine.runtime.features.extensions), roleSchema(state, 'admin', e.engine.runtime.features.extensions));
  const fresh = buildRoleSchema(state.cache, 'user', e.engine.runtime.features.extensions);
  t.not(fresh, roleSchema(state, 'user', e.engine.runtime.features.extensions));
  t.true(isNonNullType((fresh.schema.getQueryType()!.getFields().author.type)));
  t.is(getNamedType(fresh.schema.getQueryType()!.getFields().author.type).name, 'author');
});

// Note [Lazy role schemas]: a role schema's types are looked up, and its root fields defined, before the whole
// GraphQLSchema exists; the whole schema, built after, must hold those very objects and print as one built at once (type order aside).
test('lazy role schemas: lookups before the whole schema is built give the objects it holds; it prints the same', (t) => {
  const { cache } = e.engine.runtime.store.get();
  const ext = e.engine.runtime.features.extensions;
  // Looked up in this order: the first name the role's types made so far do not hold builds the whole schema.
  const names = ['Int', 'String', 'Boolean', 'query_root', 'mutation_root', 'subscription_root', 'article', 'article_bool_exp',
    'article_aggregate', 'article_insert_input', 'author', 'author_mutation_response', 'colors_enum', 'Float', 'ID', 'no_such_type'];
  for (const role of ['admin', 'user', 'narrow', 'nobody']) {
    const rs = buildRoleSchema(cache, role, ext);
    const types = schemaTypes(rs);
    // What a request reads first: root fields (the types they name are made then), then types by name.
    const roots = [types.getQueryType(), types.getMutationType(), types.getSubscriptionType()];
    const fields = roots.map((r) => (r ? Object.keys(r.getFields()).slice(0, 3).map((n) => [n, r.getFields()[n]] as const) : []));
    const seen = names.map((n) => types.getType(n));
    const whole = rs.schema;
    t.deepEqual(names.filter((n, i) => whole.getType(n) !== seen[i]), [], role);
    t.deepEqual([whole.getQueryType(), whole.getMutationType(), whole.getSubscriptionType()], roots, role);
    roots.forEach((r, i) => fields[i].forEach(([n, f]) => t.is(r!.getFields()[n], f, `${role} ${r!.name}.${n}`)));
    // (The order of types differs with the order they were made in: introspection lists them by name.)
    t.is(printSchema(lexicographicSortSchema(whole)), printSchema(lexicographicSortSchema(buildRoleSchema(cache, role, ext).schema)), role);
    t.deepEqual(validateSchema(whole).map((x) => x.message), [], role);
  }
});
