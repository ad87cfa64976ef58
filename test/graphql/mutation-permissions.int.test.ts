// Mutations under permissions: which fields a role sees, insert columns/presets/checks (nested rows too), update
// filter/check/presets, delete filter, upserts needing update permission, backend_only inserts, returning limited
// to the select permission; and custom root field / column names.
import test from 'ava';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';

let e: TestEngine;

const SQL = `
CREATE TABLE author (id serial PRIMARY KEY, name text UNIQUE, is_registered boolean NOT NULL DEFAULT false);
CREATE TABLE article (id serial PRIMARY KEY, title text, author_id int REFERENCES author(id), is_published boolean NOT NULL DEFAULT false);
CREATE TABLE resident (id serial PRIMARY KEY, name text, city text);
CREATE TABLE item (id serial PRIMARY KEY, label text UNIQUE);
INSERT INTO author (name) VALUES ('A1'), ('A2');
INSERT INTO article (title, author_id) VALUES ('by 1', 1), ('by 2', 2);
INSERT INTO resident (name, city) VALUES ('r1', 'paris');
`;

const perm = (type: string, table: string, role: string, permission: unknown) => ({ type: `create_${type}_permission`, args: { table, role, permission } });

test.before(async () => {
  e = await startTestEngine();
  const r = await e.query({
    type: 'bulk',
    args: [
      { type: 'run_sql', args: { sql: SQL } },
      { type: 'track_table', args: 'author' },
      { type: 'track_table', args: 'article' },
      { type: 'track_table', args: 'resident' },
      {
        type: 'track_table', version: 2,
        args: { table: 'item', configuration: { custom_root_fields: { insert: 'AddItems', insert_one: 'AddItem', update: 'ChangeItems', delete_by_pk: 'DropItem' }, custom_column_names: { id: 'ItemId' } } },
      },
      { type: 'create_object_relationship', args: { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } } },
      { type: 'create_array_relationship', args: { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } } },
      perm('select', 'author', 'user', { columns: ['id', 'name'], filter: {} }),
      perm('insert', 'author', 'user', { columns: ['id', 'name'], check: { id: 'X-Engine-User-Id' } }),
      perm('update', 'author', 'user', { columns: ['name'], filter: { id: 'X-Engine-User-Id' }, check: { name: { _neq: 'forbidden' } } }),
      perm('select', 'article', 'user', { columns: '*', filter: {} }),
      perm('insert', 'article', 'user', { columns: ['title', 'is_published'], set: { author_id: 'X-Engine-User-Id' }, check: { is_published: false } }),
      perm('delete', 'article', 'user', { filter: { author_id: 'X-Engine-User-Id' } }),
      perm('select', 'resident', 'user', { columns: '*', filter: {} }),
      perm('update', 'resident', 'user', { columns: ['name'], filter: {}, set: { city: 'X-Engine-City' } }),
      perm('insert', 'author', 'writer', { columns: ['name'], check: {} }),
      perm('insert', 'author', 'backend', { columns: ['name'], check: {}, backend_only: true }),
      perm('select', 'author', 'backend', { columns: ['name'], filter: {} }),
      perm('select', 'author', 'reader', { columns: ['name'], filter: {} }),
      perm('insert', 'author', 'owner', { columns: ['id', 'name'], check: { id: 'X-Engine-User-Id' } }),
      perm('insert', 'article', 'owner', { columns: ['title'], check: { author: { id: 'X-Engine-User-Id' } } }),
    ],
  });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
});

test.after.always(async () => {
  await e?.close();
});

const as = (role: string, extra: Record<string, string> = {}) => async (query: string, variables?: Record<string, unknown>) =>
  (await e.graphql({ query, variables }, { 'x-engine-role': role, ...extra })).body;
const user1 = as('user', { 'x-engine-user-id': '1' });

test.serial('insert presets come from the session and cannot be given by the client', async (t) => {
  const r = await user1('mutation { insert_article(objects: [{title: "mine"}]) { affected_rows returning { title author_id is_published } } }');
  t.deepEqual(r, { data: { insert_article: { affected_rows: 1, returning: [{ title: 'mine', author_id: 1, is_published: false }] } } });
  const bad = await user1('mutation { insert_article(objects: [{title: "x", author_id: 2}]) { affected_rows } }');
  t.deepEqual(bad.errors, [{
    extensions: { path: '$.selectionSet.insert_article.args.objects[0].author_id', code: 'validation-failed' },
    message: 'field "author_id" not found in type: \'article_insert_input\'',
  }]);
});

test.serial('insert check on every new row, nested rows included', async (t) => {
  const r = await user1('mutation { insert_article(objects: [{title: "ok"}, {title: "pub", is_published: true}]) { affected_rows } }');
  t.deepEqual(r.errors, [{
    extensions: { path: '$.selectionSet.insert_article.args.objects', code: 'permission-error' },
    message: 'Check constraint violation. insert check constraint failed',
  }]);
  const nested = await as('user', { 'x-engine-user-id': '30' })('mutation { insert_author(objects: [{id: 30, name: "A3", articles: {data: [{title: "n", is_published: true}]}}]) { affected_rows } }');
  t.is(nested.errors[0].message, 'Check constraint violation. insert check constraint failed');
  const okNested = await as('user', { 'x-engine-user-id': '30' })('mutation { insert_author(objects: [{id: 30, name: "A3", articles: {data: [{title: "n"}]}}]) { affected_rows returning { name articles { title } } } }');
  t.deepEqual(okNested, { data: { insert_author: { affected_rows: 2, returning: [{ name: 'A3', articles: [{ title: 'n' }] }] } } });
  const other = await user1('mutation { insert_author_one(object: {id: 7, name: "A7"}) { id } }');
  t.is(other.errors[0].extensions.code, 'permission-error');
});

test.serial('a nested row\'s check sees its parent inserted by the same statement', async (t) => {
  const owner = as('owner', { 'x-engine-user-id': '40' });
  const ok = await owner('mutation { insert_author(objects: [{id: 40, name: "A40", articles: {data: [{title: "t40"}]}}]) { affected_rows } }');
  t.deepEqual(ok, { data: { insert_author: { affected_rows: 2 } } });
  const bad = await owner('mutation { insert_article(objects: [{title: "x", author: {data: {id: 41, name: "A41"}}}]) { affected_rows } }');
  t.is(bad.errors[0].message, 'Check constraint violation. insert check constraint failed');
});

test.serial('upsert needs update permission: no on_conflict without it', async (t) => {
  const r = await user1('mutation { insert_article(objects: [{title: "x"}], on_conflict: {constraint: article_pkey, update_columns: []}) { affected_rows } }');
  t.deepEqual(r.errors, [{
    extensions: { path: '$.selectionSet.insert_article.args.on_conflict', code: 'validation-failed' },
    message: 'no such argument "on_conflict" is expected',
  }]);
  const upsert = await user1('mutation { insert_author(objects: [{id: 1, name: "A1 renamed"}], on_conflict: {constraint: author_pkey, update_columns: [name]}) { affected_rows returning { name } } }');
  t.deepEqual(upsert, { data: { insert_author: { affected_rows: 1, returning: [{ name: 'A1 renamed' }] } } });
  const notMine = await user1('mutation { insert_author(objects: [{id: 2, name: "stolen"}], on_conflict: {constraint: author_pkey, update_columns: [name]}) { affected_rows } }');
  // The conflicting row is not the user's: the update filter (in ON CONFLICT ... WHERE) leaves it alone.
  t.deepEqual(notMine, { data: { insert_author: { affected_rows: 0 } } });
});

test.serial('update: filter before, check after, presets from the session', async (t) => {
  const r = await user1('mutation { update_author(where: {}, _set: {name: "A1"}) { affected_rows returning { id name } } }');
  t.deepEqual(r, { data: { update_author: { affected_rows: 1, returning: [{ id: 1, name: 'A1' }] } } });
  t.deepEqual(await user1('mutation { update_author_by_pk(pk_columns: {id: 2}, _set: {name: "x"}) { id } }'), { data: { update_author_by_pk: null } });
  const bad = await user1('mutation { update_author(where: {id: {_eq: 1}}, _set: {name: "forbidden"}) { affected_rows } }');
  t.deepEqual(bad.errors, [{ extensions: { path: '$', code: 'permission-error' }, message: 'Check constraint violation. update check constraint failed' }]);
  const res = await as('user', { 'x-engine-city': 'oslo' })('mutation { update_resident(where: {name: {_eq: "r1"}}) { affected_rows returning { name city } } }');
  t.deepEqual(res, { data: { update_resident: { affected_rows: 1, returning: [{ name: 'r1', city: 'oslo' }] } } });
  const noCol = await user1('mutation { update_author(where: {}, _set: {is_registered: true}) { affected_rows } }');
  t.is(noCol.errors[0].extensions.code, 'validation-failed');
});

test.serial('delete filter', async (t) => {
  const r = await user1('mutation { delete_article(where: {}) { affected_rows returning { author_id } } }');
  t.is(r.data.delete_article.affected_rows, 2);
  t.true(r.data.delete_article.returning.every((x: { author_id: number }) => x.author_id === 1));
  t.deepEqual(await user1('mutation { delete_article_by_pk(id: 2) { id } }'), { data: { delete_article_by_pk: null } });
});

test.serial('returning follows the select permission; no select permission: affected_rows only, no single-row fields', async (t) => {
  const cols = await user1('mutation { update_author(where: {}, _set: {name: "A1"}) { returning { is_registered } } }');
  t.is(cols.errors[0].message, 'field "is_registered" not found in type: \'author\'');
  const w = as('writer');
  t.deepEqual(await w('mutation { insert_author(objects: [{name: "W1"}]) { affected_rows } }'), { data: { insert_author: { affected_rows: 1 } } });
  const ret = await w('mutation { insert_author(objects: [{name: "W2"}]) { returning { name } } }');
  t.is(ret.errors[0].message, 'field "returning" not found in type: \'author_mutation_response\'');
  const one = await w('mutation { insert_author_one(object: {name: "W3"}) { name } }');
  t.is(one.errors[0].message, 'field "insert_author_one" not found in type: \'mutation_root\'');
});

test.serial('roles without mutation permissions; backend_only inserts', async (t) => {
  t.deepEqual((await as('reader')('mutation { insert_author(objects: []) { affected_rows } }')).errors,
    [{ extensions: { path: '$', code: 'validation-failed' }, message: 'no mutations exist' }]);
  t.is((await as('backend')('mutation { insert_author(objects: [{name: "B1"}]) { affected_rows } }')).errors[0].message, 'no mutations exist');
  const ok = await as('backend', { 'x-engine-use-backend-only-permissions': 'true' })('mutation { insert_author(objects: [{name: "B1"}]) { affected_rows returning { name } } }');
  t.deepEqual(ok, { data: { insert_author: { affected_rows: 1, returning: [{ name: 'B1' }] } } });
  const hidden = await as('user', { 'x-engine-user-id': '1', 'x-engine-use-backend-only-permissions': 'true' })('mutation { insert_article(objects: [{title: "b"}]) { affected_rows } }');
  t.is(hidden.errors[0].message, 'field "insert_article" not found in type: \'mutation_root\'');
  // The same text, cached for a request without the privilege, is not reused for one with it.
  const q = 'mutation { insert_article(objects: [{title: "cached"}]) { affected_rows } }';
  t.deepEqual(await user1(q), { data: { insert_article: { affected_rows: 1 } } });
  t.is((await as('user', { 'x-engine-user-id': '1', 'x-engine-use-backend-only-permissions': 'true' })(q)).errors[0].extensions.code, 'validation-failed');
});

test.serial('custom root field names and column names', async (t) => {
  const gql = async (query: string) => (await e.graphql({ query })).body;
  t.deepEqual(await gql('mutation { AddItems(objects: [{label: "a"}]) { affected_rows returning { ItemId label } } }'),
    { data: { AddItems: { affected_rows: 1, returning: [{ ItemId: 1, label: 'a' }] } } });
  t.deepEqual(await gql('mutation { AddItem(object: {ItemId: 5, label: "b"}, on_conflict: {constraint: item_label_key, update_columns: [ItemId]}) { ItemId } }'),
    { data: { AddItem: { ItemId: 5 } } });
  t.deepEqual(await gql('mutation { AddItem(object: {label: "b"}, on_conflict: {constraint: item_label_key, update_columns: [label]}) { ItemId } }'),
    { data: { AddItem: { ItemId: 5 } } });
  t.deepEqual(await gql('mutation { ChangeItems(where: {ItemId: {_eq: 1}}, _inc: {ItemId: 10}) { returning { ItemId } } }'),
    { data: { ChangeItems: { returning: [{ ItemId: 11 }] } } });
  t.deepEqual(await gql('mutation { DropItem(ItemId: 11) { label } delete_item(where: {}) { affected_rows } }'),
    { data: { DropItem: { label: 'a' }, delete_item: { affected_rows: 1 } } });
  const old = await gql('mutation { insert_item(objects: []) { affected_rows } }');
  t.is(old.errors[0].message, 'field "insert_item" not found in type: \'mutation_root\'');
});

test.serial('every role schema with mutation types is a valid GraphQL schema', async (t) => {
  const { validateSchema } = await import('graphql');
  const { roleSchema } = await import('../../src/graphql/schema/build.js');
  const state = e.engine.runtime.store.get();
  for (const role of ['admin', 'user', 'writer', 'backend', 'reader']) {
    t.deepEqual(validateSchema(roleSchema(state, role, e.engine.runtime.features.extensions).schema).map((x) => x.message), [], role);
  }
});
