// `engine init` and `engine metadata ...` as a real process against a real engine: export → clear → apply →
// export gives the same files byte for byte for a metadata with every kind; apply is one history version (none
// when the folder already matches); diff names hand-written changes by their history paths.
import test from 'ava';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestEngine, queryOk, type TestEngine } from '../helpers/engine.js';
import { runCli } from '../helpers/cli.js';
import { freePort } from '../helpers/free-port.js';
import { startRemote, type RemoteServer } from '../remote/server.js';

let e: TestEngine;
let remote: RemoteServer;
let dir: string;
/** Whether this engine has scheduled triggers (the round trip then includes a cron trigger). */
let hasCron = false;

const SETUP_SQL = `
CREATE TABLE author (id serial PRIMARY KEY, first_name text NOT NULL, last_name text, bio text);
CREATE TABLE article (id serial PRIMARY KEY, author_id int REFERENCES author(id), title text NOT NULL, body text, rating numeric);
CREATE TABLE color (value text PRIMARY KEY, comment text);
INSERT INTO color VALUES ('red', 'warm'), ('blue', 'cold');
CREATE FUNCTION author_full_name(author_row author) RETURNS text LANGUAGE sql STABLE AS $$ SELECT author_row.first_name || ' ' || coalesce(author_row.last_name, '') $$;
CREATE FUNCTION search_articles(search text) RETURNS SETOF article LANGUAGE sql STABLE AS $$ SELECT * FROM article WHERE title ILIKE '%' || search || '%' $$;`;

function everyKind(remoteUrl: string): unknown[] {
  return [
    { type: 'track_table', args: { table: 'author' } },
    { type: 'track_table', args: { table: 'article' } },
    { type: 'track_table', args: { table: 'color', is_enum: true } },
    { type: 'set_table_custom_fields', version: 2, args: { table: 'author', custom_root_fields: { select: 'authors' }, custom_column_names: { bio: 'biography' } } },
    { type: 'create_object_relationship', args: { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' }, comment: 'who wrote it' } },
    { type: 'create_object_relationship', args: { table: 'article', name: 'author_by_hand', using: { manual_configuration: { remote_table: 'author', column_mapping: { author_id: 'id' } } } } },
    { type: 'create_array_relationship', args: { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } } },
    { type: 'create_array_relationship', args: { table: 'author', name: 'articles_by_hand', using: { manual_configuration: { remote_table: 'article', column_mapping: { id: 'author_id' } } } } },
    { type: 'add_computed_field', args: { table: 'author', name: 'full_name', definition: { function: 'author_full_name', table_argument: 'author_row' }, comment: 'first and last' } },
    { type: 'create_insert_permission', args: { table: 'article', role: 'user', permission: { check: { author_id: { _eq: 'X-Hasura-User-Id' } }, set: { rating: '0' }, columns: ['title', 'body'], backend_only: true }, comment: 'own articles' } },
    { type: 'create_select_permission', args: { table: 'article', role: 'user', permission: { columns: ['id', 'title', 'body'], filter: { _or: [{ author_id: { _eq: 'X-Hasura-User-Id' } }, { rating: { _gt: 2.5 } }] }, limit: 10, allow_aggregations: true } } },
    { type: 'create_select_permission', args: { table: 'author', role: 'user', permission: { columns: ['id', 'first_name'], computed_fields: ['full_name'], filter: {} } } },
    { type: 'create_update_permission', args: { table: 'article', role: 'user', permission: { columns: ['title'], filter: { author_id: { _eq: 'X-Hasura-User-Id' } }, check: { title: { _ne: '' } }, set: { body: 'edited: yes' } } } },
    { type: 'create_delete_permission', args: { table: 'article', role: 'user', permission: { filter: { author_id: { _eq: 'X-Hasura-User-Id' } } } } },
    {
      type: 'create_event_trigger',
      args: {
        name: 'article_changed', table: 'article', webhook: 'http://127.0.0.1:9/hook',
        insert: { columns: '*' }, update: { columns: ['title', 'body'] }, delete: { columns: '*' }, enable_manual: true,
        retry_conf: { num_retries: 2, interval_sec: 15, timeout_sec: 30 }, headers: [{ name: 'x-secret', value: 'true' }],
      },
    },
    { type: 'track_function', args: { schema: 'public', name: 'search_articles' } },
    { type: 'add_remote_schema', args: { name: 'weather', definition: { url: remoteUrl, headers: [{ name: 'x-api-key', value: '123' }], forward_client_headers: true, timeout_seconds: 40 }, comment: 'forecasts' } },
    {
      type: 'set_custom_types',
      args: {
        input_objects: [{ name: 'Credentials', fields: [{ name: 'username', type: 'String!' }, { name: 'password', type: 'String!', description: 'kept secret' }] }],
        objects: [{ name: 'LoginResult', description: 'a session', fields: [{ name: 'token', type: 'String!' }, { name: 'user_id', type: 'Int!' }],
          relationships: [{ name: 'author', type: 'object', remote_table: 'author', field_mapping: { user_id: 'id' } }] },
          { name: 'Clock', fields: [{ name: 'at', type: 'Timestamp!' }] }],
        scalars: [{ name: 'Timestamp', description: 'an instant' }],
        enums: [{ name: 'Mood', values: [{ value: 'HAPPY', description: 'good' }, { value: 'SAD', is_deprecated: true }] }],
      },
    },
    {
      type: 'create_action',
      args: {
        name: 'login', comment: 'log a user in',
        definition: { kind: 'synchronous', arguments: [{ name: 'credentials', type: 'Credentials!' }, { name: 'mood', type: 'Mood', description: 'how it goes' }],
          output_type: 'LoginResult', handler: 'http://127.0.0.1:9/login', headers: [{ name: 'x-from', value_from_env: 'HOME' }], forward_client_headers: true, timeout: 12 },
      },
    },
    { type: 'create_action', args: { name: 'now', definition: { type: 'query', arguments: [], output_type: 'Clock', handler: '{{HOME}}/now' } } },
    { type: 'create_action_permission', args: { action: 'login', role: 'anonymous', comment: 'anyone' } },
    {
      type: 'create_query_collection',
      args: { name: 'allowed-queries', comment: 'the app', definition: { queries: [
        { name: 'articles', query: 'query articles {\n  article {\n    id\n    title\n  }\n}' },
        { name: 'one line', query: 'query { author { id } }' },
      ] } },
    },
    { type: 'add_collection_to_allowlist', args: { collection: 'allowed-queries' } },
  ];
}

const CRON = { type: 'create_cron_trigger', args: { name: 'nightly', webhook: 'http://127.0.0.1:9/cron', schedule: '0 3 * * *', payload: { kind: 'report' }, include_in_metadata: true, comment: 'every night' } };

const cli = (...args: string[]) => runCli([...args, '--project', dir]);

function folderFiles(d: string): Record<string, string> {
  const m = join(d, 'metadata');
  return Object.fromEntries(readdirSync(m).sort().map((f) => [f, readFileSync(join(m, f), 'utf8')]));
}

test.before(async () => {
  remote = await startRemote('type Query { forecast(city: String!): String }', { forecast: () => 'sunny' });
  e = await startTestEngine();
  await queryOk(e, { type: 'run_sql', args: { sql: SETUP_SQL } });
  await queryOk(e, { type: 'bulk', args: everyKind(remote.url) });
  const cron = await e.query(CRON);
  hasCron = cron.status === 200;
  if (!hasCron && !/unknown query type/.test(cron.text)) throw new Error(`create_cron_trigger: ${cron.text}`);
  dir = join(mkdtempSync(join(tmpdir(), 'engine-project-')), 'app');
});
test.after.always(async () => {
  await e?.close();
  await remote?.close();
  if (dir) rmSync(join(dir, '..'), { recursive: true, force: true });
});

test.serial('init writes config.yaml (config v2) and an empty metadata folder that applies as no change', async (t) => {
  const r = await runCli(['init', dir, '--endpoint', e.url]);
  t.is(r.status, 0, r.stderr);
  t.is(readFileSync(join(dir, 'config.yaml'), 'utf8'), `version: 2
endpoint: ${e.url}
admin_secret: ""
metadata_directory: metadata
migrations_directory: migrations
actions:
  kind: synchronous
  handler_webhook_baseurl: http://localhost:3000
`);
  t.deepEqual(readdirSync(join(dir, 'migrations')), []);
  const files = folderFiles(dir);
  t.deepEqual(Object.keys(files), ['actions.graphql', 'actions.yaml', 'allow_list.yaml', 'cron_triggers.yaml', 'functions.yaml',
    'query_collections.yaml', 'remote_schemas.yaml', 'tables.yaml', 'version.yaml']);
  t.is(files['version.yaml'], 'version: 2\n');
  t.is(files['tables.yaml'], '[]\n');
  t.is(files['actions.graphql'], '');
  const again = await runCli(['init', dir]);
  t.is(again.status, 1);
  t.regex(again.stderr, /already exists and is not empty/);
});

test.serial('export → clear → apply → export: the same files byte for byte, apply is one history version', async (t) => {
  const exported = await cli('metadata', 'export');
  t.is(exported.status, 0, exported.stderr);
  const before = folderFiles(dir);
  const apiBefore = (await e.query({ type: 'export_metadata', args: {} })).body;
  // Every kind made it into the files.
  for (const part of ['object_relationships:', 'array_relationships:', 'manual_configuration:', 'computed_fields:', 'insert_permissions:',
    'backend_only: true', 'select_permissions:', 'update_permissions:', 'delete_permissions:', 'event_triggers:', 'is_enum: true', 'custom_column_names:']) {
    t.true(before['tables.yaml'].includes(part), part);
  }
  t.regex(before['functions.yaml'], /name: search_articles/);
  t.regex(before['remote_schemas.yaml'], /name: weather/);
  t.regex(before['actions.graphql'], /^type Mutation \{\n {2}""" log a user in """ login \(\n {4}credentials: Credentials!\n {4}""" how it goes """ mood: Mood\n {2}\): LoginResult\n\}\n/);
  t.regex(before['actions.yaml'], /- name: now\n {2}definition:\n {4}kind: ""\n {4}handler: '\{\{HOME\}\}\/now'\n/);
  t.regex(before['query_collections.yaml'], /query: \|-\n {8}query articles \{\n/);
  t.regex(before['allow_list.yaml'], /^- collection: allowed-queries\n$/);
  if (hasCron) t.regex(before['cron_triggers.yaml'], /name: nightly/);
  else t.is(before['cron_triggers.yaml'], '[]\n');

  const cleared = await cli('metadata', 'clear');
  t.is(cleared.status, 0, cleared.stderr);
  t.deepEqual((await e.query({ type: 'export_metadata', args: {} })).body, { version: 2, tables: [] });

  const seq = e.seq();
  const applied = await cli('metadata', 'apply');
  t.is(applied.status, 0, applied.stderr);
  t.regex(applied.stdout, /^Metadata applied \(\d+ change\(s\)\)\n$/);
  t.is(e.seq(), seq + 1);
  const history = (await e.query({ type: 'engine_history_list', args: { limit: 1 } })).body as { entries: Array<{ operation: string }> };
  t.is(history.entries[0].operation, 'replace_metadata');
  t.deepEqual((await e.query({ type: 'export_metadata', args: {} })).body, apiBefore);

  const reexported = await cli('metadata', 'export', '--format', 'json');
  t.is(reexported.status, 0, reexported.stderr);
  t.deepEqual(JSON.parse(reexported.stdout).changed, []);
  t.deepEqual(folderFiles(dir), before);

  // The folder now matches: apply changes nothing and adds no version.
  const noop = await cli('metadata', 'apply');
  t.is(noop.status, 0, noop.stderr);
  t.is(noop.stdout, 'Metadata is already up to date (nothing to apply)\n');
  t.is(e.seq(), seq + 1);
});

test.serial('diff names hand-written changes by their history paths; apply makes them', async (t) => {
  const tablesFile = join(dir, 'metadata', 'tables.yaml');
  const original = readFileSync(tablesFile, 'utf8');
  // Hand edits: one column fewer for user on article, no delete permission, a new select permission for editor.
  const edited = original
    .replace('    permission:\n      columns:\n      - id\n      - title\n      - body\n', '    permission:\n      columns:\n      - id\n      - title\n')
    .replace(/ {2}delete_permissions:\n {2}- role: user\n {4}permission:\n {6}filter:\n {8}author_id:\n {10}_eq: X-Hasura-User-Id\n/, '')
    .replace('  select_permissions:\n  - role: user\n    permission:\n      columns:\n      - id\n      - first_name\n',
      '  select_permissions:\n  - role: editor\n    permission:\n      columns:\n      - id\n      filter: {}\n  - role: user\n    permission:\n      columns:\n      - id\n      - first_name\n');
  t.not(edited, original);
  writeFileSync(tablesFile, edited);
  const d = await cli('metadata', 'diff');
  t.is(d.status, 0, d.stderr);
  const lines = d.stdout.split('\n');
  t.is(lines[0], 'diff server → folder: 3 change(s)');
  t.deepEqual(lines.filter((l) => /^[+~-] /.test(l)).sort(), [
    '+ tables[public.author].select_permissions[editor]',
    '- tables[public.article].delete_permissions[user]',
    '~ tables[public.article].select_permissions[user]',
  ]);
  const j = await cli('metadata', 'diff', '--format', 'json');
  const changes = JSON.parse(j.stdout).changes as Array<{ kind: string; path: string; before?: unknown; after?: unknown }>;
  t.deepEqual(changes.map((c) => `${c.kind} ${c.path}`).sort(), [
    'added tables[public.author].select_permissions[editor]',
    'changed tables[public.article].select_permissions[user]',
    'removed tables[public.article].delete_permissions[user]',
  ]);
  const applied = await cli('metadata', 'apply');
  t.is(applied.status, 0, applied.stderr);
  const perms = (await e.query({ type: 'export_metadata', args: {} })).body as { tables: Array<{ table: { name: string }; delete_permissions?: unknown; select_permissions?: Array<{ role: string }> }> };
  const article = perms.tables.find((x) => x.table.name === 'article')!;
  t.is(article.delete_permissions, undefined);
  t.deepEqual(perms.tables.find((x) => x.table.name === 'author')!.select_permissions!.map((p) => p.role), ['editor', 'user']);
  const clean = await cli('metadata', 'diff');
  t.is(clean.stdout, 'diff server → folder: 0 change(s)\n');
});

test.serial('a refused apply names the file and changes nothing; inconsistency list/drop and reload', async (t) => {
  const tablesFile = join(dir, 'metadata', 'tables.yaml');
  const good = readFileSync(tablesFile, 'utf8');
  writeFileSync(tablesFile, good + '- table:\n    schema: public\n    name: no_such_table\n');
  const seq = e.seq();
  const bad = await cli('metadata', 'apply');
  t.is(bad.status, 1);
  t.regex(bad.stderr, /^engine: metadata apply failed.*no_such_table/);
  t.is(e.seq(), seq);
  writeFileSync(tablesFile, good);

  // An inconsistency made behind the engine's back, then listed and dropped through the CLI.
  await queryOk(e, { type: 'run_sql', args: { sql: 'DROP TABLE color', check_metadata_consistency: false } });
  const reload = await cli('metadata', 'reload');
  t.is(reload.status, 0, reload.stderr);
  const list = await cli('metadata', 'inconsistency', 'list');
  t.is(list.status, 0, list.stderr);
  t.regex(list.stdout, /^NAME +TYPE +DESCRIPTION +REASON\ncolor +table +\{"schema":"public","name":"color"\} +.*color/);
  const drop = await cli('metadata', 'ic', 'drop');
  t.is(drop.status, 0, drop.stderr);
  t.is((await cli('metadata', 'inconsistency', 'list')).stdout, 'metadata is consistent\n');
});

test.serial('endpoint and admin secret come from flags, then ENGINE_GRAPHQL_* variables, then config.yaml', async (t) => {
  const secured = await startTestEngine({ adminSecret: 'sesame' });
  try {
    const noSecret = await runCli(['metadata', 'diff', '--project', dir, '--endpoint', secured.url]);
    t.is(noSecret.status, 1);
    const viaEnv = await runCli(['metadata', 'reload', '--project', dir], { env: { ENGINE_GRAPHQL_ENDPOINT: secured.url, ENGINE_GRAPHQL_ADMIN_SECRET: 'sesame' } });
    t.is(viaEnv.status, 0, viaEnv.stderr);
    const config = readFileSync(join(dir, 'config.yaml'), 'utf8');
    writeFileSync(join(dir, 'config.yaml'), config.replace(`endpoint: ${e.url}`, `endpoint: ${secured.url}`).replace('admin_secret: ""', 'admin_secret: sesame'));
    const viaConfig = await cli('metadata', 'reload');
    t.is(viaConfig.status, 0, viaConfig.stderr);
    writeFileSync(join(dir, 'config.yaml'), config);
  } finally {
    await secured.close();
  }
  const closed = await freePort();
  const unreachable = await cli('metadata', 'export', '--endpoint', `http://127.0.0.1:${closed}`);
  t.is(unreachable.status, 1);
  t.is(unreachable.stderr, `engine: cannot reach the engine at http://127.0.0.1:${closed}: ECONNREFUSED\n`);
});
