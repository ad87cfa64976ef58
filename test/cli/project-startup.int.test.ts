// `engine serve` with ENGINE_GRAPHQL_MIGRATIONS_DIR / ENGINE_GRAPHQL_METADATA_DIR, as real processes: a folder
// written by hand in the original CLI's format (as its documentation shows) is applied before serving; two
// instances starting together apply each migration once and serve the same; a failure stops start-up, one line
// naming the file.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { request, spawnEngine, type ChildEngine } from '../helpers/engine.js';
import { runCli } from '../helpers/cli.js';

let db: TestDatabase;
let dir: string;
const children: ChildEngine[] = [];

const HAND_WRITTEN: Record<string, string> = {
  'version.yaml': 'version: 2\n',
  'tables.yaml': `- table:
    schema: public
    name: authors
  array_relationships:
  - name: books
    using:
      foreign_key_constraint_on:
        column: author_id
        table:
          schema: public
          name: books
  select_permissions:
  - role: user
    permission:
      columns:
      - id
      - name
      filter:
        id:
          _eq: X-Hasura-User-Id
- table:
    schema: public
    name: books
  object_relationships:
  - name: author
    using:
      foreign_key_constraint_on: author_id
  insert_permissions:
  - role: user
    permission:
      check:
        author_id:
          _eq: X-Hasura-User-Id
      columns:
      - author_id
      - name
      backend_only: false
  select_permissions:
  - role: user
    permission:
      columns:
      - id
      - name
      filter: {}
`,
  'functions.yaml': '[]\n',
  'remote_schemas.yaml': '[]\n',
  'cron_triggers.yaml': '[]\n',
  'query_collections.yaml': `- name: sample-collection
  definition:
    queries:
    - name: test
      query: |-
        query test {
          books {
            id
            name
          }
        }
`,
  'allow_list.yaml': '- collection: sample-collection\n',
  'actions.graphql': `type Query {
  greet (
    arg1: SampleInput!
  ): SampleOutput
}
input SampleInput {
  username : String!
}
type SampleOutput {
  greetings : String!
}
`,
  'actions.yaml': `actions:
- name: greet
  definition:
    kind: ""
    handler: http://127.0.0.1:9/greet
    forward_client_headers: true
    headers:
    - value: application/json
      name: Content-Type
custom_types:
  enums: []
  input_objects:
  - name: SampleInput
  objects:
  - name: SampleOutput
  scalars: []
`,
};

function migration(version: string, name: string, up: string): void {
  const d = join(dir, 'migrations', `${version}_${name}`);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'up.sql'), up);
  writeFileSync(join(d, 'down.sql'), '');
}

const env = () => ({ ENGINE_GRAPHQL_MIGRATIONS_DIR: join(dir, 'migrations'), ENGINE_GRAPHQL_METADATA_DIR: join(dir, 'metadata') });

async function scalar(sql: string): Promise<unknown[]> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return (await c.query(sql)).rows.map((r: Record<string, unknown>) => Object.values(r)[0]);
  } finally {
    await c.end();
  }
}

test.before(async () => {
  db = await createTestDatabase('startup');
  dir = mkdtempSync(join(tmpdir(), 'engine-startup-'));
  mkdirSync(join(dir, 'metadata'));
  for (const [file, text] of Object.entries(HAND_WRITTEN)) writeFileSync(join(dir, 'metadata', file), text);
  migration('1600000000001', 'create_authors', 'CREATE TABLE authors (id serial PRIMARY KEY, name text);');
  migration('1600000000002', 'create_books', 'CREATE TABLE books (id serial PRIMARY KEY, author_id int REFERENCES authors(id), name text);');
  migration('1600000000003', 'seed', "INSERT INTO authors (name) VALUES ('Ann');\nINSERT INTO books (author_id, name) VALUES (1, 'First');");
});
test.after.always(async () => {
  for (const c of children) await c.stop().catch(() => undefined);
  await db?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const QUERY = { query: '{ authors { name books { name } } }' };
const USER = { 'x-hasura-role': 'user', 'x-hasura-user-id': '1' };

test.serial('two instances starting together apply each migration once, then the hand-written metadata, and serve the same', async (t) => {
  const [a, b] = await Promise.all([spawnEngine(db.url, env()), spawnEngine(db.url, env())]);
  children.push(a, b);
  t.deepEqual(await scalar('SELECT version::text FROM engine_catalog.schema_migrations ORDER BY version'), ['1600000000001', '1600000000002', '1600000000003']);
  t.deepEqual(await scalar('SELECT count(*)::int FROM authors'), [1]);
  const ops = await scalar(`SELECT coalesce(data->'migration'->>'version', meta->>'operation') FROM engine_catalog.metadata_log ORDER BY seq`);
  t.deepEqual(ops, ['1600000000001', '1600000000002', '1600000000003', 'replace_metadata']);
  const answers = await Promise.all([a, b].map((c) => request(`${c.url}/v1/graphql`, 'POST', QUERY, USER)));
  for (const r of answers) t.deepEqual(r.body, { data: { authors: [{ name: 'Ann', books: [{ name: 'First' }] }] } });
  // The folder applied as written: the engine holds what it says, action and allow-list included.
  const diff = await runCli(['metadata', 'diff', '--endpoint', a.url, '--metadata-dir', join(dir, 'metadata')]);
  t.is(diff.stdout, 'diff server → folder: 0 change(s)\n', diff.stderr);
  const exported = (await request(`${a.url}/v1/query`, 'POST', { type: 'export_metadata', args: {} })).body as Record<string, unknown>;
  t.like(exported, { allowlist: [{ collection: 'sample-collection' }], actions: [{ name: 'greet', definition: { type: 'query', output_type: 'SampleOutput', forward_client_headers: true } }] });
});

test.serial('a restart with the same folders applies nothing', async (t) => {
  const before = await scalar('SELECT max(seq)::int FROM engine_catalog.metadata_log');
  const c = await spawnEngine(db.url, env());
  children.push(c);
  t.true(c.output.some((l) => l.includes('project applied: 0 migration(s), metadata unchanged')));
  t.deepEqual(await scalar('SELECT max(seq)::int FROM engine_catalog.metadata_log'), before);
});

test.serial('a failing migration stops start-up with one line naming the file, and changes nothing', async (t) => {
  migration('1600000000004', 'broken', 'CREATE TABLE tags (id int);\nSELECT no_such_column FROM authors;');
  const before = await scalar('SELECT max(seq)::int FROM engine_catalog.metadata_log');
  const error = await t.throwsAsync(spawnEngine(db.url, env()));
  const file = join(dir, 'migrations', '1600000000004_broken', 'up.sql');
  t.true(error!.message.split('\n').includes(`engine: migration ${file} failed: query execution failed: column "no_such_column" does not exist`), error!.message);
  t.deepEqual(await scalar(`SELECT to_regclass('public.tags')::text`), [null]);
  t.deepEqual(await scalar('SELECT max(seq)::int FROM engine_catalog.metadata_log'), before);
});
