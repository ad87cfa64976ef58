// decide specs: given(events).when(command).then(events | error), for every metadata command and its errors. The
// events a spec starts from and the events it expects are written out by hand, from what each operation means.
import test from 'ava';
import { ev } from '../../events/types.js';
import { ARTICLE_AUTHOR, ARTICLE_TRACKED, AUTHOR_ARTICLES, AUTHOR_TRACKED, article, author, blogCatalog, given, type Query } from './fixtures.js';

const cat = blogCatalog();
const P = { schema: 'public' };
const noConfiguration = { custom_root_fields: {}, custom_column_names: {} };
const trackAuthor: Query = { type: 'track_table', args: { name: 'author', schema: 'public' } };
const objRel: Query = { type: 'create_object_relationship', args: { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } } };
const arrRel: Query = {
  type: 'create_array_relationship',
  args: { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } },
};
const selectPerm: Query = {
  type: 'create_select_permission',
  args: { table: 'article', role: 'user', permission: { columns: '*', filter: { author: { id: { _eq: 'X-Engine-User-Id' } } } } },
};
/** selectPerm as stored: every column, no computed field, the filter as given, no aggregations. */
const ARTICLE_USER_SELECT = ev('permission_created', {
  table: article, kind: 'select', role: 'user', comment: null,
  permission: { columns: '*', computed_fields: [], filter: { author: { id: { _eq: 'X-Engine-User-Id' } } }, allow_aggregations: false },
});
const SEARCH_TRACKED = ev('function_tracked', { function: { ...P, name: 'search_articles' }, configuration: {} });

// track_table ------------------------------------------------------------------------------------------------------

test('track_table v1 (object form) emits table_tracked', (t) => {
  given(cat).when(trackAuthor).then(t, [ev('table_tracked', { table: { ...P, name: 'author' }, is_enum: false, configuration: noConfiguration })]);
});

test('track_table v1 accepts a plain string and {table, is_enum}', (t) => {
  given(cat).when({ type: 'track_table', args: 'author' }).then(t, [ev('table_tracked', { table: { ...P, name: 'author' }, is_enum: false, configuration: noConfiguration })]);
  given(cat).when({ type: 'track_table', args: { table: 'author', is_enum: true } }).then(t, [
    ev('table_tracked', { table: { ...P, name: 'author' }, is_enum: true, configuration: noConfiguration }),
  ]);
});

test('track_table v2 carries the configuration', (t) => {
  given(cat)
    .when({ type: 'track_table', version: 2, args: { table: 'author', configuration: { custom_root_fields: { select: 'Authors' }, custom_column_names: { id: 'AuthorId' } } } })
    .then(t, [ev('table_tracked', { table: { ...P, name: 'author' }, is_enum: false, configuration: { custom_root_fields: { select: 'Authors' }, custom_column_names: { id: 'AuthorId' } } })]);
});

test('track_table twice is already-tracked', (t) => {
  given(cat, AUTHOR_TRACKED).when(trackAuthor).throws(t, { code: 'already-tracked', message: 'view/table already tracked : "author"', path: '$.args' });
});

test('track_table with the name of a tracked function is not-supported', (t) => {
  given(cat, SEARCH_TRACKED)
    .when({ type: 'track_table', args: 'search_articles' })
    .throws(t, { code: 'not-supported', message: 'function with name "search_articles" already exists' });
});

test('track_table of a table Postgres does not have: SPEC.md\'s not-exists, with its text (a space before the colon)', (t) => {
  for (const [table, shown] of [['nope', '"nope"'], [{ schema: 'other', name: 'nope' }, '"other.nope"']] as const) {
    const error = { code: 'not-exists', message: `no such table/view exists in postgres : ${shown}`, path: '$.args' };
    given(cat).when({ type: 'track_table', args: { table } }).throws(t, error);
    given(cat).when({ type: 'track_table', version: 2, args: { table } }).throws(t, error);
  }
});

test('track_table with bad args is parse-failed at the args path', (t) => {
  given(cat).when({ type: 'track_table', version: 2, args: { configuration: {} } }).throws(t, { code: 'parse-failed', message: 'key "table" not found', path: '$' });
  given(cat).when({ type: 'track_table', args: 42 }).throws(t, { code: 'parse-failed' });
});

// untrack_table ----------------------------------------------------------------------------------------------------

test('untrack_table removes a table without dependents', (t) => {
  given(cat, AUTHOR_TRACKED).when({ type: 'untrack_table', args: { table: 'author' } }).then(t, [ev('table_untracked', { table: { ...P, name: 'author' } })]);
});

test('untrack_table of an untracked table is already-untracked', (t) => {
  given(cat).when({ type: 'untrack_table', args: { table: 'author' } }).throws(t, { code: 'already-untracked', message: 'view/table already untracked : "author"', path: '$.args' });
});

test('untrack_table with a relationship of another table pointing at it is a dependency-error', (t) => {
  given(cat, AUTHOR_TRACKED, ARTICLE_TRACKED, ARTICLE_AUTHOR, AUTHOR_ARTICLES)
    .when({ type: 'untrack_table', args: { table: { name: 'author' } } })
    .throws(t, { code: 'dependency-error', message: 'cannot drop due to the following dependent objects : relationship article.author', path: '$.args' });
  given(cat, AUTHOR_TRACKED, ARTICLE_TRACKED, ARTICLE_AUTHOR, AUTHOR_ARTICLES)
    .when({ type: 'untrack_table', args: { table: { name: 'article' } } })
    .throws(t, { code: 'dependency-error', message: 'cannot drop due to the following dependent objects : relationship author.articles' });
});

test('untrack_table with cascade drops dependents first, transitively', (t) => {
  given(cat, AUTHOR_TRACKED, ARTICLE_TRACKED, ARTICLE_AUTHOR, AUTHOR_ARTICLES, ARTICLE_USER_SELECT)
    .when({ type: 'untrack_table', args: { table: 'author', cascade: true } })
    .then(t, [
      ev('permission_dropped', { table: { ...P, name: 'article' }, kind: 'select', role: 'user' }),
      ev('relationship_dropped', { table: { ...P, name: 'article' }, name: 'author' }),
      ev('table_untracked', { table: { ...P, name: 'author' } }),
    ]);
});

// set_table_is_enum / set_table_custom_fields ---------------------------------------------------------------------

test('set_table_is_enum on a tracked table; not-exists otherwise', (t) => {
  given(cat, AUTHOR_TRACKED).when({ type: 'set_table_is_enum', args: { table: 'author', is_enum: true } }).then(t, [
    ev('table_enum_set', { table: { ...P, name: 'author' }, is_enum: true }),
  ]);
  given(cat).when({ type: 'set_table_is_enum', args: { table: 'author', is_enum: true } }).throws(t, { code: 'not-exists', message: 'table "author" does not exist' });
  given(cat, AUTHOR_TRACKED).when({ type: 'set_table_is_enum', args: { table: 'author' } }).throws(t, { code: 'parse-failed', message: 'key "is_enum" not found' });
});

test('set_table_custom_fields replaces the configuration', (t) => {
  given(cat, AUTHOR_TRACKED)
    .when({ type: 'set_table_custom_fields', version: 2, args: { table: 'author', custom_root_fields: { select: 'Authors', select_by_pk: null }, custom_column_names: { id: 'AuthorId' } } })
    .then(t, [ev('table_custom_fields_set', { table: { ...P, name: 'author' }, configuration: { custom_root_fields: { select: 'Authors' }, custom_column_names: { id: 'AuthorId' } } })]);
  given(cat)
    .when({ type: 'set_table_custom_fields', version: 2, args: { table: 'author1', custom_root_fields: {} } })
    .throws(t, { code: 'not-exists', message: 'table "author1" does not exist', path: '$.args' });
});

test('custom root fields: unknown keys and duplicates are parse errors', (t) => {
  given(cat, AUTHOR_TRACKED)
    .when({ type: 'set_table_custom_fields', version: 2, args: { table: 'author', custom_root_fields: { select: 'a', select_by_pk: 'a' } } })
    .throws(t, { code: 'parse-failed', message: /duplicated/ });
});

// functions ---------------------------------------------------------------------------------------------------------

test('track_function v1 and v2; already tracked; table with the same name', (t) => {
  given(cat).when({ type: 'track_function', args: 'search_articles' }).then(t, [
    ev('function_tracked', { function: { ...P, name: 'search_articles' }, configuration: {} }),
  ]);
  given(cat)
    .when({ type: 'track_function', version: 2, args: { function: 'search_articles', configuration: { session_argument: 'engine_session' } } })
    .then(t, [ev('function_tracked', { function: { ...P, name: 'search_articles' }, configuration: { session_argument: 'engine_session' } })]);
  given(cat, SEARCH_TRACKED)
    .when({ type: 'track_function', args: 'search_articles' })
    .throws(t, { code: 'already-tracked', message: 'function already tracked : "search_articles"' });
  given(cat, AUTHOR_TRACKED).when({ type: 'track_function', args: 'author' }).throws(t, { code: 'not-supported', message: 'table with name "author" already exists' });
});

test('untrack_function', (t) => {
  given(cat, SEARCH_TRACKED)
    .when({ type: 'untrack_function', args: { schema: 'public', name: 'search_articles' } })
    .then(t, [ev('function_untracked', { function: { ...P, name: 'search_articles' } })]);
  given(cat).when({ type: 'untrack_function', args: 'nope' }).throws(t, { code: 'not-exists', message: 'function not found in cache "nope"' });
});

// relationships ------------------------------------------------------------------------------------------------------

test('create object/array relationships (fk and manual)', (t) => {
  given(cat, AUTHOR_TRACKED, ARTICLE_TRACKED).when(objRel).then(t, [
    ev('relationship_created', { table: { ...P, name: 'article' }, kind: 'object', relationship: { name: 'author', using: { foreign_key_constraint_on: 'author_id' }, comment: null } }),
  ]);
  given(cat, AUTHOR_TRACKED, ARTICLE_TRACKED).when(arrRel).then(t, [
    ev('relationship_created', {
      table: { ...P, name: 'author' }, kind: 'array',
      relationship: { name: 'articles', using: { foreign_key_constraint_on: { table: { ...P, name: 'article' }, column: 'author_id' } }, comment: null },
    }),
  ]);
  given(cat, AUTHOR_TRACKED, ARTICLE_TRACKED)
    .when({ type: 'create_array_relationship', args: { table: 'author', name: 'arts', comment: 'c', using: { manual_configuration: { remote_table: 'article', column_mapping: { id: 'author_id' } } } } })
    .then(t, [
      ev('relationship_created', {
        table: { ...P, name: 'author' }, kind: 'array',
        relationship: { name: 'arts', using: { manual_configuration: { remote_table: { ...P, name: 'article' }, column_mapping: { id: 'author_id' } } }, comment: 'c' },
      }),
    ]);
});

test('relationship name clashing with a column or relationship is already-exists', (t) => {
  given(cat, AUTHOR_TRACKED, ARTICLE_TRACKED)
    .when({ type: 'create_object_relationship', args: { table: 'article', name: 'title', using: { foreign_key_constraint_on: 'author_id' } } })
    .throws(t, { code: 'already-exists', message: 'column/relationship "title" of table "article" already exists' });
  given(cat, AUTHOR_TRACKED, ARTICLE_TRACKED, ARTICLE_AUTHOR).when(objRel).throws(t, { code: 'already-exists' });
});

test('relationship args: empty name, both/neither using keys', (t) => {
  given(cat, ARTICLE_TRACKED)
    .when({ type: 'create_object_relationship', args: { table: 'article', name: '', using: { foreign_key_constraint_on: 'author_id' } } })
    .throws(t, { code: 'parse-failed', message: 'empty string not allowed', path: '$.name' });
  given(cat, ARTICLE_TRACKED)
    .when({ type: 'create_object_relationship', args: { table: 'article', name: 'a', using: {} } })
    .throws(t, { code: 'parse-failed', message: /atleast one of foreign_key_constraint_on\/manual_configuration/, path: '$.using' });
  given(cat, ARTICLE_TRACKED)
    .when({ type: 'create_object_relationship', args: { table: 'article', name: 'a', using: { foreign_key_constraint_on: 'x', manual_configuration: { remote_table: 'author', column_mapping: {} } } } })
    .throws(t, { code: 'parse-failed', message: /only one of/ });
});

test('drop_relationship: dependents, cascade, unknown, column', (t) => {
  given(cat, AUTHOR_TRACKED, ARTICLE_TRACKED, ARTICLE_AUTHOR, ARTICLE_USER_SELECT)
    .when({ type: 'drop_relationship', args: { table: 'article', relationship: 'author' } })
    .throws(t, { code: 'dependency-error', message: 'cannot drop due to the following dependent objects : permission article.user.select' });
  given(cat, AUTHOR_TRACKED, ARTICLE_TRACKED, ARTICLE_AUTHOR, ARTICLE_USER_SELECT)
    .when({ type: 'drop_relationship', args: { table: 'article', relationship: 'author', cascade: true } })
    .then(t, [ev('permission_dropped', { table: { ...P, name: 'article' }, kind: 'select', role: 'user' }), ev('relationship_dropped', { table: { ...P, name: 'article' }, name: 'author' })]);
  given(cat, ARTICLE_TRACKED)
    .when({ type: 'drop_relationship', args: { table: 'article', relationship: 'nope' } })
    .throws(t, { code: 'not-exists', message: 'relationship "nope" does not exist' });
  given(cat, ARTICLE_TRACKED)
    .when({ type: 'drop_relationship', args: { table: 'article', relationship: 'title' } })
    .throws(t, { code: 'unexpected-payload', message: 'expecting a relationship; but, title is a postgres column; ' });
});

test('rename_relationship and set_relationship_comment', (t) => {
  given(cat, AUTHOR_TRACKED, ARTICLE_TRACKED, ARTICLE_AUTHOR)
    .when({ type: 'rename_relationship', args: { table: 'article', name: 'author', new_name: 'writer' } })
    .then(t, [ev('relationship_renamed', { table: { ...P, name: 'article' }, name: 'author', new_name: 'writer' })]);
  given(cat, AUTHOR_TRACKED, ARTICLE_TRACKED, ARTICLE_AUTHOR)
    .when({ type: 'rename_relationship', args: { table: 'article', name: 'author', new_name: 'title' } })
    .throws(t, { code: 'already-exists', message: 'cannot rename relationship "author" to "title" in table "article" as a column/relationship with the name already exists' });
  given(cat, AUTHOR_TRACKED, ARTICLE_TRACKED, ARTICLE_AUTHOR)
    .when({ type: 'set_relationship_comment', args: { table: 'article', relationship: 'author', comment: 'who wrote it' } })
    .then(t, [ev('relationship_comment_set', { table: { ...P, name: 'article' }, name: 'author', comment: 'who wrote it' })]);
  given(cat, AUTHOR_TRACKED, ARTICLE_TRACKED, ARTICLE_AUTHOR)
    .when({ type: 'set_relationship_comment', args: { table: 'article', name: 'author' } })
    .throws(t, { code: 'parse-failed', message: 'key "relationship" not found' });
});

// computed fields --------------------------------------------------------------------------------------------------

const addCf: Query = { type: 'add_computed_field', args: { table: 'author', name: 'full_name', definition: { function: 'author_full_name' } } };
const FULL_NAME_ADDED = ev('computed_field_added', {
  table: author, computed_field: { name: 'full_name', definition: { function: { ...P, name: 'author_full_name' } }, comment: null },
});

test('add_computed_field / drop_computed_field', (t) => {
  given(cat, AUTHOR_TRACKED).when(addCf).then(t, [
    ev('computed_field_added', { table: { ...P, name: 'author' }, computed_field: { name: 'full_name', definition: { function: { ...P, name: 'author_full_name' } }, comment: null } }),
  ]);
  given(cat).when(addCf).throws(t, { code: 'not-exists', message: 'table "author" does not exist', path: '$.args.table' });
  given(cat, AUTHOR_TRACKED, FULL_NAME_ADDED).when(addCf).throws(t, { code: 'already-exists' });
  given(cat, AUTHOR_TRACKED, FULL_NAME_ADDED)
    .when({ type: 'drop_computed_field', args: { table: 'author', name: 'full_name' } })
    .then(t, [ev('computed_field_dropped', { table: { ...P, name: 'author' }, name: 'full_name' })]);
  given(cat, AUTHOR_TRACKED)
    .when({ type: 'drop_computed_field', args: { table: 'author', name: 'random' } })
    .throws(t, { code: 'not-exists', message: 'computed field "random" does not exist', path: '$.args.name' });
  given(cat)
    .when({ type: 'drop_computed_field', args: { table: 'random', name: 'x' } })
    .throws(t, { code: 'not-exists', message: 'table "random" does not exist', path: '$.args.table' });
});

test('drop_computed_field used by a permission: dependency-error, or cascade', (t) => {
  const AUTHOR_USER_SELECT_FULL_NAME = ev('permission_created', {
    table: author, kind: 'select', role: 'user', comment: null,
    permission: { columns: '*', computed_fields: ['full_name'], filter: {}, allow_aggregations: false },
  });
  given(cat, AUTHOR_TRACKED, FULL_NAME_ADDED, AUTHOR_USER_SELECT_FULL_NAME)
    .when({ type: 'drop_computed_field', args: { table: 'author', name: 'full_name' } })
    .throws(t, { code: 'dependency-error', message: 'cannot drop due to the following dependent objects : permission author.user.select', path: '$.args' });
  given(cat, AUTHOR_TRACKED, FULL_NAME_ADDED, AUTHOR_USER_SELECT_FULL_NAME)
    .when({ type: 'drop_computed_field', args: { table: 'author', name: 'full_name', cascade: true } })
    .then(t, [ev('permission_dropped', { table: { ...P, name: 'author' }, kind: 'select', role: 'user' }), ev('computed_field_dropped', { table: { ...P, name: 'author' }, name: 'full_name' })]);
});

// permissions -----------------------------------------------------------------------------------------------------

test('create permissions normalise their definitions', (t) => {
  given(cat, ARTICLE_TRACKED)
    .when({ type: 'create_select_permission', args: { table: 'article', role: 'user', permission: { columns: ['id'], filter: {}, limit: 10 } } })
    .then(t, [ev('permission_created', { table: { ...P, name: 'article' }, kind: 'select', role: 'user', permission: { columns: ['id'], computed_fields: [], filter: {}, allow_aggregations: false, limit: 10 }, comment: null })]);
  given(cat, ARTICLE_TRACKED)
    .when({ type: 'create_insert_permission', args: { table: 'article', role: 'user', permission: { check: { author_id: 'X-Engine-User-Id' }, set: { title: 'x' } } } })
    .then(t, [ev('permission_created', { table: { ...P, name: 'article' }, kind: 'insert', role: 'user', permission: { check: { author_id: 'X-Engine-User-Id' }, set: { title: 'x' } }, comment: null })]);
  given(cat, ARTICLE_TRACKED)
    .when({ type: 'create_update_permission', args: { table: 'article', role: 'user', permission: { columns: '*', filter: {} }, comment: 'c' } })
    .then(t, [ev('permission_created', { table: { ...P, name: 'article' }, kind: 'update', role: 'user', permission: { columns: '*', filter: {} }, comment: 'c' })]);
  given(cat, ARTICLE_TRACKED)
    .when({ type: 'create_delete_permission', args: { table: 'article', role: 'user', permission: { filter: { id: { _eq: 1 } } } } })
    .then(t, [ev('permission_created', { table: { ...P, name: 'article' }, kind: 'delete', role: 'user', permission: { filter: { id: { _eq: 1 } } }, comment: null })]);
});

test('permission errors: exists, missing, empty role, admin, untracked table', (t) => {
  given(cat, AUTHOR_TRACKED, ARTICLE_TRACKED, ARTICLE_AUTHOR, ARTICLE_USER_SELECT)
    .when(selectPerm)
    .throws(t, { code: 'already-exists', message: `'select' permission on "article" for role "user" already exists` });
  given(cat, ARTICLE_TRACKED)
    .when({ type: 'drop_select_permission', args: { table: 'article', role: 'user' } })
    .throws(t, { code: 'permission-denied', message: 'select permisison on "article" for role "user" does not exist' });
  given(cat, ARTICLE_TRACKED)
    .when({ type: 'create_insert_permission', args: { table: 'article', role: '', permission: { check: {} } } })
    .throws(t, { code: 'parse-failed', message: 'empty string not allowed', path: '$.role' });
  given(cat, ARTICLE_TRACKED)
    .when({ type: 'create_select_permission', args: { table: 'article', role: 'admin', permission: { columns: '*', filter: {} } } })
    .throws(t, { code: 'already-exists', message: `'select' permission on "article" for role "admin" already exists` });
  given(cat)
    .when({ type: 'create_select_permission', args: { table: 'article', role: 'u', permission: { columns: '*', filter: {} } } })
    .throws(t, { code: 'not-exists', message: 'table "article" does not exist' });
});

test('drop_*_permission and set_permission_comment', (t) => {
  given(cat, AUTHOR_TRACKED, ARTICLE_TRACKED, ARTICLE_AUTHOR, ARTICLE_USER_SELECT)
    .when({ type: 'drop_select_permission', args: { table: 'article', role: 'user' } })
    .then(t, [ev('permission_dropped', { table: { ...P, name: 'article' }, kind: 'select', role: 'user' })]);
  given(cat, AUTHOR_TRACKED, ARTICLE_TRACKED, ARTICLE_AUTHOR, ARTICLE_USER_SELECT)
    .when({ type: 'set_permission_comment', args: { table: 'article', role: 'user', type: 'select', comment: 'hi' } })
    .then(t, [ev('permission_comment_set', { table: { ...P, name: 'article' }, kind: 'select', role: 'user', comment: 'hi' })]);
  given(cat, ARTICLE_TRACKED)
    .when({ type: 'set_permission_comment', args: { table: 'article', role: 'user', type: 'update', comment: 'hi' } })
    .throws(t, { code: 'permission-denied', message: `'update' permission on "article" for role "user" does not exist` });
});

// metadata ----------------------------------------------------------------------------------------------------------

test('clear_metadata and reload_metadata', (t) => {
  given(cat, AUTHOR_TRACKED).when({ type: 'clear_metadata', args: {} }).then(t, [ev('metadata_cleared', {})]);
  given(cat).when({ type: 'reload_metadata', args: {} }).then(t, [ev('metadata_reloaded', { reload_remote_schemas: false })]);
  given(cat).when({ type: 'reload_metadata', args: 'x' }).then(t, [ev('metadata_reloaded', { reload_remote_schemas: false })]);
});

test('rename_relationship rewrites permissions that use it, also from other tables', (t) => {
  const AUTHOR_USER_SELECT = ev('permission_created', {
    table: author, kind: 'select', role: 'user', comment: null,
    permission: { columns: '*', computed_fields: [], filter: { articles: { author: { id: { _eq: 1 } } } }, allow_aggregations: false },
  });
  given(cat, AUTHOR_TRACKED, ARTICLE_TRACKED, ARTICLE_AUTHOR, AUTHOR_ARTICLES, ARTICLE_USER_SELECT, AUTHOR_USER_SELECT)
    .when({ type: 'rename_relationship', args: { table: 'article', name: 'author', new_name: 'writer' } })
    .then(t, [
      ev('relationship_renamed', { table: { ...P, name: 'article' }, name: 'author', new_name: 'writer' }),
      ev('permission_updated', { table: { ...P, name: 'author' }, kind: 'select', role: 'user', permission: { columns: '*', computed_fields: [], filter: { articles: { writer: { id: { _eq: 1 } } } }, allow_aggregations: false } }),
      ev('permission_updated', { table: { ...P, name: 'article' }, kind: 'select', role: 'user', permission: { columns: '*', computed_fields: [], filter: { writer: { id: { _eq: 'X-Engine-User-Id' } } }, allow_aggregations: false } }),
    ]);
});

test('names that are also Object.prototype members are ordinary names', (t) => {
  given(cat, AUTHOR_TRACKED, ARTICLE_TRACKED)
    .when({ type: 'create_object_relationship', args: { table: 'article', name: 'constructor', using: { foreign_key_constraint_on: 'author_id' } } })
    .then(t, [ev('relationship_created', { table: { ...P, name: 'article' }, kind: 'object', relationship: { name: 'constructor', using: { foreign_key_constraint_on: 'author_id' }, comment: null } })]);
  given(cat, ARTICLE_TRACKED)
    .when({ type: 'create_select_permission', args: { table: 'article', role: 'toString', permission: { columns: '*', filter: {} } } })
    .then(t, [
      ev('permission_created', { table: { ...P, name: 'article' }, kind: 'select', role: 'toString', permission: { columns: '*', computed_fields: [], filter: {}, allow_aggregations: false }, comment: null }),
    ]);
  given(cat, ARTICLE_TRACKED)
    .when({ type: 'drop_computed_field', args: { table: 'article', name: 'constructor' } })
    .throws(t, { code: 'not-exists', message: 'computed field "constructor" does not exist' });
});

// query collections and the allow-list ---------------------------------------------------------------------------

const createColl: Query = {
  type: 'create_query_collection',
  args: { name: 'c1', comment: 'first', definition: { queries: [{ name: 'q1', query: 'query { author { id } }' }] } },
};
const C1_CREATED = ev('query_collection_created', { collection: { name: 'c1', definition: { queries: [{ name: 'q1', query: 'query { author { id } }' }] }, comment: 'first' } });
const C1_ALLOWED = ev('allowlist_collection_added', { collection: 'c1' });

test('query collections: create, add and drop queries', (t) => {
  given(cat).when(createColl).then(t, [
    ev('query_collection_created', { collection: { name: 'c1', definition: { queries: [{ name: 'q1', query: 'query { author { id } }' }] }, comment: 'first' } }),
  ]);
  given(cat, C1_CREATED).when(createColl).throws(t, { code: 'already-exists', message: 'query collection with name "c1" already exists' });
  given(cat)
    .when({ type: 'create_query_collection', args: { name: 'c', definition: { queries: [{ name: 'a', query: '{ x }' }, { name: 'a', query: '{ y }' }] } } })
    .throws(t, { code: 'not-supported', message: 'found duplicate query names "a"' });
  given(cat)
    .when({ type: 'create_query_collection', args: { name: '', definition: { queries: [] } } })
    .throws(t, { code: 'parse-failed', message: 'empty string not allowed', path: '$.name' });
  given(cat)
    .when({ type: 'create_query_collection', args: { name: 'c', definition: { queries: [{ name: 'a', query: 'query {' }] } } })
    .throws(t, { code: 'parse-failed', path: '$.definition.queries[0].query' });
  given(cat, C1_CREATED)
    .when({ type: 'add_query_to_collection', args: { collection_name: 'c1', query_name: 'q2', query: '{ b }' } })
    .then(t, [ev('collection_query_added', { collection: 'c1', query: { name: 'q2', query: '{ b }' } })]);
  given(cat, C1_CREATED)
    .when({ type: 'add_query_to_collection', args: { collection_name: 'c1', query_name: 'q1', query: '{ b }' } })
    .throws(t, { code: 'already-exists', message: 'query with name "q1" already exists in collection "c1"' });
  given(cat, C1_CREATED)
    .when({ type: 'drop_query_from_collection', args: { collection_name: 'c1', query_name: 'nope' } })
    .throws(t, { code: 'not-found', message: 'query with name "nope" not found in collection "c1"' });
  given(cat, C1_CREATED)
    .when({ type: 'drop_query_from_collection', args: { collection_name: 'c1', query_name: 'q1' } })
    .then(t, [ev('collection_query_dropped', { collection: 'c1', query_name: 'q1' })]);
});

test('allow-list: add, drop, and dropping a listed collection', (t) => {
  const allow: Query = { type: 'add_collection_to_allowlist', args: { collection: 'c1' } };
  given(cat, C1_CREATED).when(allow).then(t, [ev('allowlist_collection_added', { collection: 'c1' })]);
  given(cat).when(allow).throws(t, { code: 'not-exists', message: 'query collection with name "c1" does not exists' });
  given(cat, C1_CREATED, C1_ALLOWED)
    .when({ type: 'drop_query_collection', args: { collection: 'c1', cascade: false } })
    .throws(t, { code: 'dependency-error', message: 'query collection with name "c1" is present in allowlist; cannot proceed to drop' });
  given(cat, C1_CREATED, C1_ALLOWED)
    .when({ type: 'drop_query_collection', args: { collection: 'c1', cascade: true } })
    .then(t, [ev('allowlist_collection_dropped', { collection: 'c1' }), ev('query_collection_dropped', { name: 'c1' })]);
  given(cat, C1_CREATED)
    .when({ type: 'drop_query_collection', args: { collection: 'c1' } })
    .throws(t, { code: 'parse-failed', message: 'key "cascade" not found' });
  given(cat, C1_CREATED).when({ type: 'drop_collection_from_allowlist', args: { collection: 'c1' } }).then(t, []);
  given(cat, C1_CREATED, C1_ALLOWED).when({ type: 'drop_collection_from_allowlist', args: { collection: 'c1' } }).then(t, [ev('allowlist_collection_dropped', { collection: 'c1' })]);
});

// custom types and actions -----------------------------------------------------------------------------------------

const setTypes: Query = {
  type: 'set_custom_types',
  args: { objects: [{ name: 'User', fields: [{ name: 'user_id', type: 'ID!' }, { name: 'name', type: 'String!', description: null }] }], scalars: [] },
};
const createAction: Query = {
  type: 'create_action',
  args: { name: 'create_user', definition: { kind: 'synchronous', arguments: [{ name: 'name', type: 'String!' }], output_type: 'User!', handler: 'http://h/create-user' } },
};
/** setTypes as stored: a null description and the empty scalars left out. */
const USER_TYPES_SET = ev('custom_types_set', { custom_types: { objects: [{ name: 'User', fields: [{ name: 'user_id', type: 'ID!' }, { name: 'name', type: 'String!' }] }] } });
/** createAction as stored: the defaults filled in (no headers, no forwarded client headers, a mutation, 30 s). */
const CREATE_USER_CREATED = ev('action_created', {
  action: {
    name: 'create_user',
    definition: { arguments: [{ name: 'name', type: 'String!' }], output_type: 'User!', kind: 'synchronous', headers: [], forward_client_headers: false, handler: 'http://h/create-user', type: 'mutation', timeout: 30 },
    comment: null,
    permissions: [],
  },
});
const CREATE_USER_USER_ALLOWED = ev('action_permission_created', { action: 'create_user', role: 'user', comment: null });

test('set_custom_types stores the normalised types; invalid ones are a constraint-violation', (t) => {
  given(cat).when(setTypes).then(t, [
    ev('custom_types_set', { custom_types: { objects: [{ name: 'User', fields: [{ name: 'user_id', type: 'ID!' }, { name: 'name', type: 'String!' }] }] } }),
  ]);
  given(cat)
    .when({ type: 'set_custom_types', args: { objects: [{ name: 'A', fields: [{ name: 'b', type: 'Nope' }] }], enums: [{ name: 'A', values: [{ value: 'X' }, { value: 'X' }] }] } })
    .throws(t, {
      code: 'constraint-violation',
      message: 'validation for the given custom types failed for the following reasons:\n' +
        '  • the following types are defined more than once: "A"\n' +
        '  • the type "Nope" for field "b" in object type "A" does not exist\n' +
        '  • the following values in enum type "A" are duplicated: "X"\n',
    });
  given(cat).when({ type: 'set_custom_types', args: { objects: [{ name: 'A', fields: [] }] } }).throws(t, { code: 'parse-failed' });
});

test('actions: create, update, drop; permissions', (t) => {
  given(cat, USER_TYPES_SET).when(createAction).then(t, [CREATE_USER_CREATED]);
  given(cat, USER_TYPES_SET, CREATE_USER_CREATED).when(createAction).throws(t, { code: 'already-exists', message: 'action with name "create_user" already exists' });
  given(cat).when({ type: 'update_action', args: { name: 'x', definition: { output_type: 'User', handler: 'h' } } })
    .throws(t, { code: 'not-exists', message: 'action with name "x" not exists' });
  given(cat).when({ type: 'drop_action', args: { name: 'x' } }).throws(t, { code: 'not-exists', message: 'action with name "x" does not exist' });
  given(cat, USER_TYPES_SET, CREATE_USER_CREATED).when({ type: 'drop_action', args: { name: 'create_user' } }).then(t, [ev('action_dropped', { name: 'create_user', clear_data: true })]);
  const perm: Query = { type: 'create_action_permission', args: { action: 'create_user', role: 'user' } };
  given(cat, USER_TYPES_SET, CREATE_USER_CREATED).when(perm).then(t, [ev('action_permission_created', { action: 'create_user', role: 'user', comment: null })]);
  given(cat, USER_TYPES_SET, CREATE_USER_CREATED, CREATE_USER_USER_ALLOWED).when(perm).throws(t, { code: 'already-exists', message: 'permission for role "user" is already defined on "create_user"' });
  given(cat, USER_TYPES_SET, CREATE_USER_CREATED)
    .when({ type: 'drop_action_permission', args: { action: 'create_user', role: 'user' } })
    .throws(t, { code: 'not-exists', message: 'permission for role: "user" is not defined on "create_user"' });
  given(cat, USER_TYPES_SET, CREATE_USER_CREATED)
    .when({ type: 'drop_action_permission', args: { name: 'create_user', role: 'user' } })
    .throws(t, { code: 'parse-failed', message: 'key "action" not found' });
});

test('action definitions: header env names, type', (t) => {
  given(cat, USER_TYPES_SET)
    .when({ type: 'create_action', args: { name: 'a', definition: { output_type: 'User', handler: 'h', headers: [{ name: 'x', value_from_env: 'ENGINE_GRAPHQL_CLIENT_NAME' }] } } })
    .throws(t, {
      code: 'parse-failed', path: '$.definition.headers[0]',
      message: 'env variables starting with "ENGINE_GRAPHQL_" are not allowed in value_from_env: ENGINE_GRAPHQL_CLIENT_NAME',
    });
  given(cat, USER_TYPES_SET)
    .when({ type: 'create_action', args: { name: 'a', definition: { output_type: 'User', handler: 'h', type: 'subscription' } } })
    .throws(t, { code: 'parse-failed', message: 'expected mutation or query, but found subscription' });
});
