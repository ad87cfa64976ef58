// buildSchemaCache: resolution of tables, relationships, computed fields, permissions and functions, and the
// inconsistencies (with the original's reasons) for what does not resolve.
import test from 'ava';
import { buildSchemaCache } from '../../src/cache/build.js';
import { publicInconsistencies } from '../../src/cache/objects.js';
import { NO_REMOTE_SCHEMAS } from '../../src/cache/types.js';
import { ev, type Event, type Permission } from '../../events/types.js';
import { emptyMetadata } from '../../projections/metadata.js';
import { fold } from '../../projections/replay.js';
import { blogCatalog, catalog, col, fn, table } from '../events/fixtures.js';

const T = (name: string, schema = 'public') => ({ schema, name });
const noConfig = { custom_root_fields: {}, custom_column_names: {} };
const track = (name: string, extra: Partial<{ is_enum: boolean; configuration: typeof noConfig }> = {}) =>
  ev('table_tracked', { table: T(name), is_enum: false, configuration: noConfig, ...extra });
const build = (events: Event[], cat = blogCatalog()) => buildSchemaCache(fold(emptyMetadata(), events), cat, NO_REMOTE_SCHEMAS, []);

test('tables resolve with columns, custom names and root fields', (t) => {
  const c = build([track('author', { configuration: { custom_root_fields: { select: 'Authors' }, custom_column_names: { id: 'AuthorId' } } })]);
  const a = c.tables['public.author'];
  t.deepEqual(a.columns.map((x) => [x.name, x.graphqlName]), [['id', 'AuthorId'], ['name', 'name']]);
  t.deepEqual(a.customRootFields, { select: 'Authors' });
  t.deepEqual(c.inconsistent, []);
});

test('a tracked table missing from Postgres is inconsistent', (t) => {
  const c = build([track('nope')]);
  t.deepEqual(publicInconsistencies(c.inconsistent), [{ reason: 'no such table/view exists in postgres: "nope"', type: 'table', definition: T('nope') }]);
  t.falsy(c.tables['public.nope']);
});

test('relationships resolve through foreign keys both ways', (t) => {
  const c = build([
    track('author'), track('article'),
    ev('relationship_created', { table: T('article'), kind: 'object', relationship: { name: 'author', using: { foreign_key_constraint_on: 'author_id' }, comment: null } }),
    ev('relationship_created', { table: T('author'), kind: 'array', relationship: { name: 'articles', using: { foreign_key_constraint_on: { table: T('article'), column: 'author_id' } }, comment: null } }),
  ]);
  t.deepEqual(c.tables['public.article'].relationships.author, { name: 'author', kind: 'object', remoteTable: T('author'), mapping: [['author_id', 'id']], insertRemoteFirst: true, comment: null });
  t.deepEqual(c.tables['public.author'].relationships.articles.mapping, [['id', 'author_id']]);
  t.deepEqual(c.inconsistent, []);
});

test('relationship without a foreign key, or to an untracked table, is inconsistent', (t) => {
  const c = build([
    track('author'), track('article'),
    ev('relationship_created', { table: T('article'), kind: 'object', relationship: { name: 'a', using: { foreign_key_constraint_on: 'title' }, comment: null } }),
    ev('relationship_created', { table: T('author'), kind: 'array', relationship: { name: 'b', using: { manual_configuration: { remote_table: T('zzz'), column_mapping: { id: 'x' } } }, comment: null } }),
  ]);
  t.deepEqual(publicInconsistencies(c.inconsistent), [
    {
      reason: 'in table "article": in relationship "a": no foreign constraint exists on the given column',
      type: 'object_relation',
      definition: { name: 'a', using: { foreign_key_constraint_on: 'title' }, comment: null, table: T('article') },
    },
    {
      reason: 'table "zzz" is not tracked',
      type: 'array_relation',
      definition: { name: 'b', using: { manual_configuration: { remote_table: T('zzz'), column_mapping: { id: 'x' } } }, comment: null, table: T('author') },
    },
  ]);
});

test('relationship clashing with a custom column name is inconsistent', (t) => {
  const c = build([
    track('author', { configuration: { custom_root_fields: {}, custom_column_names: { id: 'articles' } } }), track('article'),
    ev('relationship_created', { table: T('author'), kind: 'array', relationship: { name: 'articles', using: { foreign_key_constraint_on: { table: T('article'), column: 'author_id' } }, comment: null } }),
  ]);
  t.is(c.inconsistent[0].reason, 'field definition conflicts with custom field name for postgres column "id"');
});

test('enum tables: values, integrity errors, enum-referencing columns', (t) => {
  const cat = catalog([
    table('colors', [col('value', 'text'), col('comment', 'text')], { pk: ['value'] }),
    table('bad', [col('id'), col('a', 'text'), col('b', 'text')], { pk: ['id'] }),
    table('shirts', [col('id'), col('color', 'text')], { pk: ['id'], fks: [{ columns: ['color'], ref: 'colors', refColumns: ['value'] }] }),
  ]);
  cat.enumValues = { 'public.colors': [{ value: 'red', comment: '#f00' }] };
  const c = build([track('colors', { is_enum: true }), track('bad', { is_enum: true }), track('shirts')], cat);
  t.deepEqual(c.tables['public.colors'].enumValues, [{ value: 'red', comment: '#f00' }]);
  t.deepEqual(c.tables['public.shirts'].columns[1].enumReference, T('colors'));
  t.is(
    c.inconsistent[0].reason,
    'the table "bad" cannot be used as an enum for the following reasons:\n' +
      '  • the table’s primary key ("id") must have type "text", not type "integer"\n' +
      '  • the table must have exactly one primary key and optionally one comment column, not 3 columns (a, b, id)\n',
  );
  cat.enumValues = { 'public.colors': [{ value: 'not+valid', comment: null }] };
  const c2 = build([track('colors', { is_enum: true })], cat);
  t.is(c2.inconsistent[0].reason, 'the table "colors" cannot be used as an enum because the value "not+valid" is not a valid GraphQL enum value name');
});

test('computed fields: scalar and set-returning; validation reasons', (t) => {
  const cat = blogCatalog();
  cat.functions['public.fetch_articles'] = [fn('fetch_articles', {
    args: [
      { name: 'search', type: 'text', typeSchema: 'pg_catalog', mode: 'in', hasDefault: false },
      { name: 'author_row', type: 'author', typeSchema: 'public', mode: 'in', hasDefault: false },
    ],
  })];
  const cf = (name: string, def: Record<string, unknown>) => ev('computed_field_added', { table: T('author'), computed_field: { name, definition: def as never, comment: null } });
  const c = build([
    track('author'), track('article'),
    cf('full_name', { function: T('author_full_name') }),
    cf('get_articles', { function: T('fetch_articles'), table_argument: 'author_row' }),
    cf('bad1', { function: T('fetch_articles') }),
    cf('bad2', { function: T('random_function') }),
    cf('name', { function: T('author_full_name') }),
  ], cat);
  const a = c.tables['public.author'];
  t.deepEqual(a.computedFields.full_name.returns, { kind: 'scalar', type: 'text', typeSchema: 'pg_catalog' });
  t.deepEqual(a.computedFields.get_articles.returns, { kind: 'table', table: T('article'), set: true });
  t.is(a.computedFields.get_articles.tableArgIndex, 1);
  t.deepEqual(c.inconsistent.map((i) => i.reason), [
    'in table "author": in computed field "bad1": the computed field "bad1" cannot be added to table "author" for the following reasons:\n' +
      '  • first argument of the function "fetch_articles" is not COMPOSITE type\n' +
      '  • first argument of the function "fetch_articles" of type "pg_catalog.text" is not the table to which the computed field is being added\n',
    'in table "author": in computed field "bad2": no such function exists in postgres : "random_function"',
    'field definition conflicts with postgres column',
  ]);
});

test('permissions resolve; bad columns, computed fields and operators are inconsistent', (t) => {
  const perm = (role: string, kind: 'select' | 'insert' | 'update' | 'delete', permission: Permission) =>
    ev('permission_created', { table: T('article'), kind, role, permission, comment: null });
  const c = build([
    track('author'), track('article'),
    ev('relationship_created', { table: T('article'), kind: 'object', relationship: { name: 'author', using: { foreign_key_constraint_on: 'author_id' }, comment: null } }),
    perm('user', 'select', { columns: '*', computed_fields: [], filter: { author: { id: { _eq: 'X-Engine-User-Id' } } }, allow_aggregations: true, limit: 3 }),
    perm('user', 'update', { columns: ['title'], filter: {}, set: { author_id: 'X-Engine-User-Id' } }),
    perm('a', 'select', { columns: ['nope'], computed_fields: [], filter: {}, allow_aggregations: false }),
    perm('b', 'select', { columns: '*', computed_fields: ['zz'], filter: {}, allow_aggregations: false }),
    perm('c', 'delete', { filter: { id: { _foo: 1 } } }),
    perm('d', 'delete', { filter: { nope: { _eq: 1 } } }),
  ]);
  t.deepEqual(c.tables['public.article'].permissions.user.select, { columns: ['id', 'title', 'author_id'], computedFields: [], filter: { author: { id: { _eq: 'X-Engine-User-Id' } } }, limit: 3, allowAggregations: true });
  t.deepEqual(c.tables['public.article'].permissions.user.update, { columns: ['title'], filter: {}, check: null, set: { author_id: 'X-Engine-User-Id' } });
  t.deepEqual(c.roles, ['user']);
  t.deepEqual(c.inconsistent.map((i) => i.reason), [
    'in table "article": in permission for role "a": column "nope" does not exist',
    'in table "article": in permission for role "b": computed field "zz" does not exist',
    'in table "article": in permission for role "c": Unknown operator : _foo',
    'in table "article": in permission for role "d": "nope" does not exist',
  ]);
  t.deepEqual(Object.keys(publicInconsistencies(c.inconsistent)[0] as object).sort(), ['definition', 'reason', 'type']);
});

test('a relationship named as a permission column or preset: the original\'s askPGColInfo reasons, per use', (t) => {
  const perm = (role: string, kind: 'select' | 'insert' | 'update', permission: Permission) =>
    ev('permission_created', { table: T('article'), kind, role, permission, comment: null });
  const c = build([
    track('author'), track('article'),
    ev('relationship_created', { table: T('article'), kind: 'object', relationship: { name: 'author', using: { foreign_key_constraint_on: 'author_id' }, comment: null } }),
    perm('s', 'select', { columns: ['id', 'author'], computed_fields: [], filter: {}, allow_aggregations: false }),
    perm('i', 'insert', { check: {}, columns: ['author'] }),
    perm('u', 'update', { columns: ['author'], filter: {} }),
    perm('p', 'insert', { check: {}, set: { author: 'X-Engine-User-Id' }, columns: ['title'] }),
    // Row expressions are checked before columns, as the original does: the filter's problem is the one reported.
    perm('f', 'select', { columns: ['author'], computed_fields: [], filter: { nope: { _eq: 1 } }, allow_aggregations: false }),
  ]);
  const ctx = (role: string) => `in table "article": in permission for role "${role}": `;
  t.deepEqual(c.inconsistent.map((i) => i.reason), [
    `${ctx('i')}expecting a postgres column; but, "author" is a relationship; `,
    `${ctx('p')}expecting a postgres column; but, "author" is a relationship; column "author" not found in table "article"`,
    `${ctx('s')}expecting a postgres column; but, "author" is a relationship; permissions for relationships are automatically inferred`,
    `${ctx('f')}"nope" does not exist`,
    `${ctx('u')}expecting a postgres column; but, "author" is a relationship; relationships can't be used in update`,
  ]);
});

test('tracked functions resolve; bad ones are inconsistent', (t) => {
  const cat = blogCatalog();
  cat.functions['public.vol'] = [fn('vol', { volatility: 'volatile' })];
  const c = build([
    track('article'),
    ev('function_tracked', { function: T('search_articles'), configuration: {} }),
    ev('function_tracked', { function: T('vol'), configuration: {} }),
    ev('function_tracked', { function: T('missing'), configuration: {} }),
  ], cat);
  t.deepEqual(c.functions['public.search_articles'].returnsTable, T('article'));
  t.deepEqual(c.inconsistent.map((i) => i.reason), [
    'in function "vol": the function "vol" cannot be tracked because function of type "VOLATILE" is not supported now',
    'in function "missing": no such function exists in postgres : "missing"',
  ]);
});

test('mutation permissions on a view Postgres cannot write through are inconsistent', (t) => {
  const cat = blogCatalog();
  const v = table('author_view', [col('id'), col('name', 'text')], { kind: 'view' });
  v.insertable = false;
  cat.tables['public.author_view'] = v;
  const c = build([
    track('author_view'),
    ev('permission_created', { table: T('author_view'), kind: 'insert', role: 'u', permission: { check: {} }, comment: null }),
    ev('permission_created', { table: T('author_view'), kind: 'select', role: 'u', permission: { columns: '*', computed_fields: [], filter: {}, allow_aggregations: false }, comment: null }),
  ], cat);
  t.deepEqual(c.inconsistent.map((i) => i.reason), ['in table "author_view": in permission for role "u": view "author_view" is not insertable']);
  t.deepEqual(Object.keys(c.tables['public.author_view'].permissions.u), ['select'], 'the insertable-view error drops the insert permission only');
});

test('roles and fields named like Object.prototype members', (t) => {
  const c = build([
    track('article'),
    ev('permission_created', { table: T('article'), kind: 'select', role: 'constructor', permission: { columns: '*', computed_fields: [], filter: { toString: { _eq: 1 } }, allow_aggregations: false }, comment: null }),
    ev('permission_created', { table: T('article'), kind: 'select', role: 'valueOf', permission: { columns: '*', computed_fields: [], filter: {}, allow_aggregations: false }, comment: null }),
  ]);
  t.deepEqual(c.roles, ['valueOf']);
  t.is(c.inconsistent[0].reason, 'in table "article": in permission for role "constructor": "toString" does not exist');
  t.deepEqual(c.tables['public.article'].columns.map((x) => x.graphqlName), ['id', 'title', 'author_id']);
});
