// decide specs for remote relationships: parse errors, checks against the metadata and catalog, the events, the
// folded metadata (export shape), a join column renamed and dropped. The checks against the remote schema are the
// schema cache's (test/remote/relationship-metadata.int.test.ts).
import test from 'ava';
import { AUTHOR_TRACKED, author, blogCatalog, given, type Query } from './fixtures.js';
import { ev } from '../../events/types.js';
import { fold } from '../../projections/replay.js';
import { emptyMetadata } from '../../projections/metadata.js';
import { exportMetadata } from '../../projections/export.js';

const cat = blogCatalog();
const RS_ADDED = ev('remote_schema_added', { remote_schema: { name: 'rs', definition: { url: 'http://remote/graphql' } } });
const relationship = { name: 'greeting', definition: { remote_schema: 'rs', engine_fields: ['id'], remote_field: { hello: { arguments: { id: '$id' } } } } };
const create = (over: Record<string, unknown> = {}): Query => ({
  type: 'create_remote_relationship',
  args: { name: 'greeting', table: 'author', engine_fields: ['id', 'id'], remote_schema: 'rs', remote_field: { hello: { arguments: { id: '$id' } } }, ...over },
});
const CREATED = ev('remote_relationship_created', { table: author, relationship });

test('create_remote_relationship stores the export shape (engine_fields as a set)', (t) => {
  given(cat, AUTHOR_TRACKED, RS_ADDED).when(create()).then(t, [CREATED]);
  const m = fold(emptyMetadata(), [AUTHOR_TRACKED, RS_ADDED, CREATED]);
  t.deepEqual((exportMetadata(m).tables as Array<Record<string, unknown>>)[0].remote_relationships, [relationship]);
});

test('create_remote_relationship: parse errors, the table, the name', (t) => {
  given(cat, AUTHOR_TRACKED).when(create({ remote_field: { a: { arguments: {} }, b: { arguments: {} } } }))
    .throws(t, { code: 'parse-failed', message: 'Only one field allowed, not multiple.' });
  given(cat, AUTHOR_TRACKED).when(create({ remote_field: { hello: { arguments: { id: '$not a name' } } } }))
    .throws(t, { code: 'parse-failed', message: 'Invalid variable name.' });
  given(cat, AUTHOR_TRACKED).when(create({ remote_field: { hello: {} } })).throws(t, { code: 'parse-failed', message: 'key "arguments" not found' });
  given(cat, AUTHOR_TRACKED).when(create({ engine_fields: undefined })).throws(t, { code: 'parse-failed', message: 'key "engine_fields" not found' });
  given(cat).when(create()).throws(t, { code: 'not-exists', message: 'table "author" does not exist' });
  given(cat, AUTHOR_TRACKED).when(create({ name: 'name' })).throws(t, { code: 'already-exists', message: 'field "name" of table "author" already exists' });
  given(cat, AUTHOR_TRACKED, RS_ADDED, CREATED).when(create()).throws(t, { code: 'already-exists', message: 'field "greeting" of table "author" already exists' });
});

test('update_remote_relationship and delete_remote_relationship', (t) => {
  const updated = { ...relationship, definition: { ...relationship.definition, remote_field: { bye: { arguments: {} } } } };
  given(cat, AUTHOR_TRACKED, RS_ADDED, CREATED).when(create({ remote_field: { bye: { arguments: {} } }, engine_fields: ['id'] }))
    .throws(t, { code: 'already-exists' });
  const upd = ev('remote_relationship_updated', { table: author, relationship: updated });
  given(cat, AUTHOR_TRACKED, RS_ADDED, CREATED).when({ ...create({ remote_field: { bye: { arguments: {} } }, engine_fields: ['id'] }), type: 'update_remote_relationship' }).then(t, [upd]);
  t.deepEqual(fold(emptyMetadata(), [AUTHOR_TRACKED, RS_ADDED, CREATED, upd]).tables['public.author'].remote_relationships, [updated]);
  given(cat, AUTHOR_TRACKED).when({ ...create(), type: 'update_remote_relationship' }).throws(t, { code: 'not-exists', message: '"greeting" does not exist' });
  const del = ev('remote_relationship_deleted', { table: author, name: 'greeting' });
  given(cat, AUTHOR_TRACKED, RS_ADDED, CREATED).when({ type: 'delete_remote_relationship', args: { table: 'author', name: 'greeting' } }).then(t, [del]);
  given(cat, AUTHOR_TRACKED).when({ type: 'delete_remote_relationship', args: { table: 'author', name: 'name' } })
    .throws(t, { code: 'unexpected-payload', message: 'expecting a remote relationship' });
  t.deepEqual(fold(emptyMetadata(), [AUTHOR_TRACKED, RS_ADDED, CREATED, del]).tables['public.author'].remote_relationships, []);
});

test('a join column renamed is renamed in the relationship; untracking the table takes it along', (t) => {
  const m = fold(emptyMetadata(), [AUTHOR_TRACKED, RS_ADDED, CREATED, ev('column_renamed', { table: author, from: 'id', to: 'author_id' })]);
  t.deepEqual(m.tables['public.author'].remote_relationships[0].definition, {
    remote_schema: 'rs', engine_fields: ['author_id'], remote_field: { hello: { arguments: { id: '$author_id' } } },
  });
  given(cat, AUTHOR_TRACKED, RS_ADDED, CREATED).when({ type: 'untrack_table', args: { table: 'author' } }).then(t, [ev('table_untracked', { table: author })]);
});

test('a relationship cannot take a remote relationship\'s name', (t) => {
  given(cat, AUTHOR_TRACKED, RS_ADDED, CREATED)
    .when({ type: 'create_array_relationship', args: { table: 'author', name: 'greeting', using: { manual_configuration: { remote_table: 'author', column_mapping: { id: 'id' } } } } })
    .throws(t, { code: 'already-exists', message: 'column/relationship "greeting" of table "author" already exists' });
});
