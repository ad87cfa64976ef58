// Metadata written by the original's tools (issue 34, item 12): a document as the original's export_metadata
// writes it, and as its CLI writes it, applies unchanged through replace_metadata and exports back the same, key
// order included. Written by hand from the original's export format (hasura/graphql-engine v1.3,
// RQL/DDL/Metadata/Types.hs replaceMetadataToOrdJSON): an insert permission's `backend_only` is written whenever
// it was given, false too; an enum value is written with its own JSON instance, so `description` and
// `is_deprecated` are there even when null. Its CLI saves every query action with `kind: ""` (the field has no
// omitempty), and the original reads `kind` for mutations only.
import test from 'ava';
import { queryOk, startTestEngine, type TestEngine } from '../helpers/engine.js';

let e: TestEngine;
test.before(async () => {
  e = await startTestEngine();
  await queryOk(e, { type: 'run_sql', args: { sql: `
    CREATE TABLE author (id serial PRIMARY KEY, name text, secret text);
    CREATE TABLE article (id serial PRIMARY KEY, title text, author_id int REFERENCES author (id));
    CREATE FUNCTION search_authors(s text) RETURNS SETOF author AS 'SELECT * FROM author WHERE name ILIKE s' LANGUAGE sql STABLE;
    CREATE FUNCTION author_shout(a author) RETURNS text AS 'SELECT upper(a.name)' LANGUAGE sql STABLE;` } });
});
test.after.always(async () => {
  await e?.close();
});

const ok = (body: unknown): Promise<unknown> => queryOk(e, body);
const T = (name: string) => ({ schema: 'public', name });

/** export_metadata of the original for this schema. */
const exportedByOriginal = () => ({
  version: 2,
  tables: [
    {
      table: T('article'),
      object_relationships: [{ name: 'author', using: { foreign_key_constraint_on: 'author_id' } }],
      insert_permissions: [
        { role: 'editor', permission: { check: {}, columns: ['title'], backend_only: true } },
        { role: 'user', permission: { check: { author_id: { _eq: 'X-Engine-User-Id' } }, set: { author_id: 'X-Engine-User-Id' }, columns: ['title'], backend_only: false } },
        { role: 'viewer', permission: { check: {}, columns: '*' } },
      ],
      select_permissions: [{ role: 'user', permission: { columns: ['id', 'title'], filter: {}, limit: 10, allow_aggregations: true }, comment: 'own rows' }],
      update_permissions: [{ role: 'user', permission: { columns: ['title'], filter: { author_id: { _eq: 'X-Engine-User-Id' } }, check: null } }],
      delete_permissions: [{ role: 'user', permission: { filter: { author_id: { _eq: 'X-Engine-User-Id' } } } }],
      event_triggers: [
        {
          name: 'article_changed',
          definition: { insert: { columns: '*' }, update: { columns: ['title'] }, enable_manual: false },
          retry_conf: { num_retries: 2, interval_sec: 10, timeout_sec: 60 },
          webhook: 'http://127.0.0.1:1/hook',
          headers: [{ name: 'x-hook', value: 'yes' }],
        },
      ],
    },
    {
      table: T('author'),
      array_relationships: [{ name: 'articles', using: { foreign_key_constraint_on: { column: 'author_id', table: T('article') } }, comment: 'written' }],
      computed_fields: [{ name: 'shout', definition: { function: T('author_shout') } }],
      select_permissions: [{ role: 'user', permission: { columns: ['id', 'name'], computed_fields: ['shout'], filter: {} } }],
    },
  ],
  functions: [{ function: T('search_authors') }],
  query_collections: [{ name: 'allowed', definition: { queries: [{ name: 'names', query: 'query names { author { name } }' }] } }],
  allowlist: [{ collection: 'allowed' }],
  actions: [
    {
      name: 'addAuthor',
      definition: {
        handler: 'http://127.0.0.1:1/actions',
        output_type: 'AuthorOut',
        forward_client_headers: true,
        headers: [{ name: 'x-app', value: 'engine' }],
        arguments: [{ name: 'author', type: 'NewAuthor!' }],
        type: 'mutation',
        kind: 'synchronous',
      },
      comment: 'adds one',
      permissions: [{ role: 'user' }],
    },
    {
      name: 'authorMood',
      definition: { handler: 'http://127.0.0.1:1/actions', output_type: 'AuthorOut', arguments: [{ name: 'mood', type: 'Mood' }], type: 'query' },
    },
  ],
  custom_types: {
    input_objects: [{ name: 'NewAuthor', fields: [{ name: 'name', type: 'String!' }] }],
    objects: [
      {
        name: 'AuthorOut',
        fields: [{ name: 'id', type: 'Int!' }, { name: 'author_id', type: 'Int', description: 'who' }],
        description: 'an author',
        relationships: [{ name: 'author', type: 'object', remote_table: T('author'), field_mapping: { author_id: 'id' } }],
      },
    ],
    scalars: [{ name: 'Blob', description: 'bytes' }],
    enums: [
      {
        name: 'Mood',
        values: [
          { value: 'HAPPY', description: null, is_deprecated: null },
          { value: 'SAD', description: 'down', is_deprecated: true },
        ],
      },
    ],
  },
  cron_triggers: [{ name: 'nightly', webhook: 'http://127.0.0.1:1/cron', schedule: '0 3 * * *', include_in_metadata: true, payload: { job: 'sweep' } }],
});

/** The same metadata as the original's CLI sends it from a project's files. */
function writtenByCli() {
  const doc = exportedByOriginal();
  const [mutation, query] = doc.actions;
  return {
    ...doc,
    actions: [mutation, { ...query, definition: { ...query.definition, kind: '' } }],
    custom_types: { ...doc.custom_types, scalars: [{ name: 'Blob', description: 'bytes' }], input_objects: [{ name: 'NewAuthor', description: null, fields: [{ name: 'name', type: 'String!' }] }] },
  };
}

async function appliedAndExported(doc: unknown): Promise<unknown> {
  await ok({ type: 'clear_metadata', args: {} });
  await ok({ type: 'replace_metadata', args: doc });
  return ok({ type: 'export_metadata', args: {} });
}

test.serial('a metadata exported by the original applies unchanged and exports the same, key order included', async (t) => {
  const doc = exportedByOriginal();
  const out = await appliedAndExported(doc);
  t.deepEqual(out, doc);
  t.is(JSON.stringify(out), JSON.stringify(doc));
});

test.serial('a metadata written by the original\'s CLI (query actions with kind "") applies and exports as the original would', async (t) => {
  const out = await appliedAndExported(writtenByCli());
  t.deepEqual(out, exportedByOriginal());
  t.is(JSON.stringify(out), JSON.stringify(exportedByOriginal()));
});

test.serial('a query action\'s kind is never read; a mutation\'s still must be synchronous or asynchronous', async (t) => {
  await ok({ type: 'clear_metadata', args: {} });
  await ok({ type: 'set_custom_types', args: { objects: [{ name: 'Out', fields: [{ name: 'id', type: 'Int' }] }] } });
  await ok({ type: 'create_action', args: { name: 'q1', definition: { handler: 'http://127.0.0.1:1/a', output_type: 'Out', type: 'query', kind: '' } } });
  await ok({ type: 'create_action', args: { name: 'm1', definition: { handler: 'http://127.0.0.1:1/a', output_type: 'Out', kind: null } } });
  const m = (await ok({ type: 'export_metadata', args: {} })) as { actions: Array<{ name: string; definition: Record<string, unknown> }> };
  t.deepEqual(m.actions.map((a) => [a.name, a.definition.type, a.definition.kind]), [['m1', 'mutation', 'synchronous'], ['q1', 'query', undefined]]);
  const bad = await e.query({ type: 'create_action', args: { name: 'm2', definition: { handler: 'http://127.0.0.1:1/a', output_type: 'Out', kind: '' } } });
  t.is(bad.status, 400);
  t.like(bad.body, { code: 'parse-failed', path: '$.definition.kind' });
});
