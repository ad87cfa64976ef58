// export_metadata's lists in the original's order (issue 34, item 4), whatever order things were created in.
// The original reads its catalog back with ORDER BY before exporting (hasura/graphql-engine v1.3,
// server/src-lib/Hasura/RQL/DDL/Metadata.hs, fetchMetadata):
//   - tables and functions by schema then name; relationships and event triggers by name; permissions by role;
//   - remote schemas, query collections (collection_name) and allow-list entries by name;
//   - actions by name (json_agg ... ORDER BY action_name), an action's permissions by role.
// It stores a collection's definition and the custom types as one JSON document each, so the queries of a
// collection and the custom types keep the order they were given in. Computed fields and cron triggers it reads
// with no ORDER BY at all (an order Postgres does not promise): the engine orders them by name as well, so that
// every list of objects created one by one is ordered by name (issue 34, item 4).
import test from 'ava';
import { queryOk, startTestEngine, type TestEngine } from '../helpers/engine.js';

let e: TestEngine;
test.before(async () => {
  e = await startTestEngine();
});
test.after.always(async () => {
  await e?.close();
});

const ok = (body: unknown): Promise<unknown> => queryOk(e, body);
const names = (xs: Array<{ name: string }> | undefined) => xs?.map((x) => x.name);

interface Exported {
  tables: Array<{ table: { name: string }; object_relationships?: Array<{ name: string }>; computed_fields?: Array<{ name: string }>; select_permissions?: Array<{ role: string }> }>;
  functions: Array<{ function: { name: string } }>;
  query_collections: Array<{ name: string; definition: { queries: Array<{ name: string }> } }>;
  allowlist: Array<{ collection: string }>;
  actions: Array<{ name: string; permissions?: Array<{ role: string }> }>;
  custom_types: { objects: Array<{ name: string }> };
  cron_triggers?: Array<{ name: string }>;
}

test.serial('every list of the export in the original\'s order, and a replace of it exports the same', async (t) => {
  await ok({ type: 'run_sql', args: { sql: `
    CREATE TABLE author (id serial PRIMARY KEY, name text);
    CREATE TABLE article (id serial PRIMARY KEY, author_id int, editor_id int);
    CREATE FUNCTION zeta_search(s text) RETURNS SETOF author AS 'SELECT * FROM author WHERE name = s' LANGUAGE sql STABLE;
    CREATE FUNCTION alpha_search(s text) RETURNS SETOF author AS 'SELECT * FROM author WHERE name <> s' LANGUAGE sql STABLE;
    CREATE FUNCTION author_shout(a author) RETURNS text AS 'SELECT upper(a.name)' LANGUAGE sql STABLE;
    CREATE FUNCTION author_whisper(a author) RETURNS text AS 'SELECT lower(a.name)' LANGUAGE sql STABLE;` } });
  const manual = (table: string, name: string, column: string) => ({
    type: 'create_object_relationship',
    args: { table, name, using: { manual_configuration: { remote_table: 'author', column_mapping: { [column]: 'id' } } } },
  });
  const field = (name: string, fn: string) => ({ type: 'add_computed_field', args: { table: 'author', name, definition: { function: fn } } });
  const query = (name: string) => ({ name, query: `query ${name} { author { id } }` });
  const action = (name: string) => ({ type: 'create_action', args: { name, definition: { handler: 'http://127.0.0.1:1/h', output_type: 'Zeta' } } });
  const actionPermission = (role: string) => ({ type: 'create_action_permission', args: { action: 'alpha_act', role } });
  await ok({ type: 'bulk', args: [
    { type: 'track_table', args: 'author' },
    { type: 'track_table', args: 'article' },
    { type: 'track_function', args: 'zeta_search' },
    { type: 'track_function', args: 'alpha_search' },
    manual('article', 'writer', 'author_id'),
    manual('article', 'editor', 'editor_id'),
    field('zeta_shout', 'author_shout'),
    field('alpha_whisper', 'author_whisper'),
    { type: 'create_select_permission', args: { table: 'author', role: 'user', permission: { columns: '*', filter: {} } } },
    { type: 'create_select_permission', args: { table: 'author', role: 'anon', permission: { columns: ['id'], filter: {} } } },
    { type: 'create_query_collection', args: { name: 'zeta', definition: { queries: [query('q_b'), query('q_a')] } } },
    { type: 'create_query_collection', args: { name: 'alpha', definition: { queries: [query('q_c')] } } },
    { type: 'create_query_collection', args: { name: 'mid', definition: { queries: [query('q_d')] } } },
    { type: 'add_collection_to_allowlist', args: { collection: 'zeta' } },
    { type: 'add_collection_to_allowlist', args: { collection: 'alpha' } },
    { type: 'set_custom_types', args: { objects: [{ name: 'Zeta', fields: [{ name: 'id', type: 'Int' }] }, { name: 'Alpha', fields: [{ name: 'id', type: 'Int' }] }] } },
    action('zeta_act'),
    action('alpha_act'),
    actionPermission('user'),
    actionPermission('editor'),
    actionPermission('anon'),
  ] });

  const m = (await ok({ type: 'export_metadata', args: {} })) as Exported;
  t.deepEqual(m.tables.map((x) => x.table.name), ['article', 'author']);
  const [article, author] = m.tables;
  t.deepEqual(names(article.object_relationships), ['editor', 'writer']);
  t.deepEqual(author.select_permissions?.map((p) => p.role), ['anon', 'user']);
  t.deepEqual(names(author.computed_fields), ['alpha_whisper', 'zeta_shout'], 'computed fields: by name');
  t.deepEqual(m.functions.map((f) => f.function.name), ['alpha_search', 'zeta_search']);
  t.deepEqual(names(m.query_collections), ['alpha', 'mid', 'zeta']);
  t.deepEqual(names(m.query_collections[2].definition.queries), ['q_b', 'q_a'], 'queries: the order given');
  t.deepEqual(m.allowlist, [{ collection: 'alpha' }, { collection: 'zeta' }]);
  t.deepEqual(names(m.actions), ['alpha_act', 'zeta_act']);
  t.deepEqual(m.actions[0].permissions?.map((p) => p.role), ['anon', 'editor', 'user']);
  t.deepEqual(names(m.custom_types.objects), ['Zeta', 'Alpha'], 'custom types: the order given');

  // Cron triggers given out of order: by name.
  const cron = (name: string) => ({ name, webhook: 'http://127.0.0.1:1/cron', schedule: '0 * * * *', include_in_metadata: true });
  await ok({ type: 'replace_metadata', args: { ...m, cron_triggers: [cron('zeta_cron'), cron('alpha_cron')] } });
  const again = (await ok({ type: 'export_metadata', args: {} })) as Exported;
  t.deepEqual(names(again.cron_triggers), ['alpha_cron', 'zeta_cron']);
  t.is(JSON.stringify({ ...again, cron_triggers: undefined }), JSON.stringify(m), 'a replace of the export exports the same, in the same order');
});
