// `engine history export` → `engine history replay` into an empty database reproduces the Postgres schema
// (run_sql's SQL, in order) and export_metadata.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestEngine } from '../helpers/engine.js';

const BIN = new URL('../../bin/engine.mjs', import.meta.url).pathname;
const engine = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH ?? '' } });

let source: TestDatabase;
let target: TestDatabase;
test.before(async () => {
  source = await createTestDatabase('hsrc');
  target = await createTestDatabase('hdst');
});
test.after.always(async () => {
  await source?.drop();
  await target?.drop();
});

/** Columns of every user table, for comparing schemas. */
async function schemaOf(url: string): Promise<unknown[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query(`SELECT table_schema, table_name, column_name, data_type, is_nullable, column_default
      FROM information_schema.columns WHERE table_schema NOT IN ('pg_catalog', 'information_schema', 'engine_catalog')
      ORDER BY 1, 2, column_name`);
    const k = await c.query(`SELECT conrelid::regclass::text AS rel, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE connamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace, 'engine_catalog'::regnamespace) ORDER BY 1, 2`);
    return [r.rows, k.rows];
  } finally {
    await c.end();
  }
}

test('export then replay reproduces schema and metadata', async (t) => {
  const e = await startTestEngine({ database: source });
  let exported: unknown;
  try {
    const ok = async (body: unknown) => {
      const r = await e.query(body);
      t.is(r.status, 200, JSON.stringify(r.body));
    };
    await ok({ type: 'run_sql', args: { sql: 'CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL)' } });
    await ok({ type: 'run_sql', args: { sql: 'CREATE TABLE article (id serial PRIMARY KEY, title text, author_id int REFERENCES author(id))' } });
    await ok({ type: 'track_table', args: 'author' });
    await ok({ type: 'track_table', args: 'article' });
    await ok({ type: 'create_object_relationship', args: { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } } });
    await ok({ type: 'create_array_relationship', args: { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } } });
    await ok({ type: 'create_select_permission', args: { table: 'article', role: 'user', permission: { columns: '*', filter: { author_id: { _eq: 'X-Engine-User-Id' } } } } });
    // Later SQL changes the earlier schema: order matters on replay.
    await ok({ type: 'run_sql', args: { sql: 'ALTER TABLE author ADD COLUMN email text; CREATE SCHEMA extra; CREATE TABLE extra.tag (name text PRIMARY KEY)' } });
    await ok({ type: 'track_table', args: { schema: 'extra', name: 'tag' } });
    await ok({ type: 'untrack_table', args: { table: { schema: 'extra', name: 'tag' } } });
    exported = (await e.query({ type: 'export_metadata', args: {} })).body;
  } finally {
    await e.close();
  }

  const dir = mkdtempSync(path.join(tmpdir(), 'engine-history-'));
  const file = path.join(dir, 'log.jsonl');
  const ex = engine(['history', 'export', '--database-url', source.url, '--output', file]);
  t.is(ex.status, 0, ex.stderr);
  const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  t.true(lines.length >= 10);
  t.deepEqual(lines.map((l) => l.seq), lines.map((_, i) => i + 1));
  t.true(lines.some((l) => l.type === 'sql_ran'));
  // stdout is the default output
  const toStdout = engine(['history', 'export', '--database-url', source.url]);
  t.is(toStdout.stdout, readFileSync(file, 'utf8'));

  const rp = engine(['history', 'replay', file, '--database-url', target.url]);
  t.is(rp.status, 0, rp.stderr);
  t.deepEqual(await schemaOf(target.url), await schemaOf(source.url));
  const replayed = await startTestEngine({ database: target });
  try {
    t.deepEqual((await replayed.query({ type: 'export_metadata', args: {} })).body, exported);
  } finally {
    await replayed.close();
  }

  // A second replay into the now non-empty database is refused and changes nothing.
  const again = engine(['history', 'replay', file, '--database-url', target.url]);
  t.is(again.status, 1);
  t.regex(again.stderr, /empty/);
});

test('replay rejects a damaged file and leaves the database untouched', async (t) => {
  const db = await createTestDatabase('hbad');
  try {
    const dir = mkdtempSync(path.join(tmpdir(), 'engine-history-'));
    const file = path.join(dir, 'bad.jsonl');
    writeFileSync(file, [
      JSON.stringify({ seq: 1, type: 'sql_ran', data: { sql: 'CREATE TABLE x (id int)', cascade: false, check_metadata_consistency: null, read_only: false } }),
      JSON.stringify({ seq: 2, type: 'sql_ran', data: { sql: 'CREATE TABLE x (id int)', cascade: false, check_metadata_consistency: null, read_only: false } }),
    ].join('\n'));
    const r = engine(['history', 'replay', file, '--database-url', db.url]);
    t.is(r.status, 1);
    t.regex(r.stderr, /event 2 \(sql_ran\) failed/);
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const n = await c.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'x'`);
      t.is(n.rows[0].n, 0);
      const log = await c.query('SELECT count(*)::int AS n FROM engine_catalog.metadata_log');
      t.is(log.rows[0].n, 0);
    } finally {
      await c.end();
    }
  } finally {
    await db.drop();
  }
});
