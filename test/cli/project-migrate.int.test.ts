// `engine migrate create|apply|status` as a real process against a real engine: versions in
// engine_catalog.schema_migrations, each migration atomic (its SQL and its row), a failing one changes nothing and
// names its file and the Postgres error, every one listed in the history with its version and file.
import test from 'ava';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';
import { runCli } from '../helpers/cli.js';

let e: TestEngine;
let dir: string;
let db: pg.Client;

const cli = (...args: string[]) => runCli([...args, '--project', dir, '--endpoint', e.url]);
const rows = async (sql: string) => (await db.query(sql)).rows as Array<Record<string, unknown>>;
const tables = async () => (await rows(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`)).map((r) => r.tablename);
const versions = async () => (await rows('SELECT version::text AS v, dirty FROM engine_catalog.schema_migrations ORDER BY version')).map((r) => `${String(r.v)}${r.dirty ? ' dirty' : ''}`);

/** A migration written by hand as the original lays them out. */
function migration(version: string, name: string, up: string, down: string): void {
  const d = join(dir, 'migrations', `${version}_${name}`);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'up.sql'), up);
  writeFileSync(join(d, 'down.sql'), down);
}

test.before(async () => {
  e = await startTestEngine();
  db = new pg.Client({ connectionString: e.db.url });
  await db.connect();
  dir = mkdtempSync(join(tmpdir(), 'engine-migrate-'));
});
test.after.always(async () => {
  await db?.end();
  await e?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test.serial('create writes <version>_<name>/up.sql and down.sql', async (t) => {
  const r = await cli('migrate', 'create', 'create_author', '--up-sql', 'CREATE TABLE author (id serial PRIMARY KEY, name text);', '--down-sql', 'DROP TABLE author;', '--format', 'json');
  t.is(r.status, 0, r.stderr);
  const created = JSON.parse(r.stdout) as { version: string; name: string; directory: string };
  t.regex(created.version, /^\d{13}$/);
  t.is(created.directory, `${created.version}_create_author`);
  t.deepEqual(readdirSync(join(dir, 'migrations', created.directory)).sort(), ['down.sql', 'up.sql']);
  t.is(readFileSync(join(dir, 'migrations', created.directory, 'up.sql'), 'utf8'), 'CREATE TABLE author (id serial PRIMARY KEY, name text);');
  const sqlFile = join(dir, 'article.sql');
  writeFileSync(sqlFile, 'CREATE TABLE article (id serial PRIMARY KEY, author_id int REFERENCES author(id), title text);\n');
  await new Promise((r) => setTimeout(r, 5));
  const fromFile = await cli('migrate', 'create', 'create_article', '--sql-from-file', sqlFile);
  t.is(fromFile.status, 0, fromFile.stderr);
  t.regex(fromFile.stdout, /^Migrations files created: \d{13}_create_article\/up\.sql, \d{13}_create_article\/down\.sql \(version \d{13}\)\n$/);
  // Down SQL for the second one, by hand.
  const articleDir = readdirSync(join(dir, 'migrations')).find((d) => d.endsWith('_create_article'))!;
  writeFileSync(join(dir, 'migrations', articleDir, 'down.sql'), 'DROP TABLE article;');
});

test.serial('status, apply, status: one history entry per migration, naming version and file', async (t) => {
  const [authorDir, articleDir] = readdirSync(join(dir, 'migrations')).sort();
  const [va, vb] = [authorDir.split('_')[0], articleDir.split('_')[0]];
  const before = await cli('migrate', 'status');
  t.is(before.status, 0, before.stderr);
  t.is(before.stdout, `VERSION        NAME            SOURCE STATUS  DATABASE STATUS
${va}  create_author   Present        Not Present
${vb}  create_article  Present        Not Present
`);
  const seq = e.seq();
  const applied = await cli('migrate', 'apply');
  t.is(applied.status, 0, applied.stderr);
  const lines = applied.stdout.trim().split('\n');
  t.regex(lines[0], new RegExp(`^\\[1/2\\] applied ${va}_create_author \\(${authorDir}/up\\.sql\\) in \\d+ ms$`));
  t.regex(lines[1], new RegExp(`^\\[2/2\\] applied ${vb}_create_article \\(${articleDir}/up\\.sql\\) in \\d+ ms$`));
  t.is(lines[2], 'migrations applied');
  t.deepEqual(await tables(), ['article', 'author']);
  t.deepEqual(await versions(), [va, vb]);
  t.is(e.seq(), seq + 2);
  const history = await runCli(['history', 'list', '--limit', '2', '--format', 'json', '--database-url', e.db.url]);
  const entries = JSON.parse(history.stdout).entries as Array<{ type: string; summary: string; migration: { version: string; file: string; direction: string } }>;
  t.deepEqual(entries.map((x) => [x.type, x.migration.version, x.migration.file, x.migration.direction]), [
    ['sql_ran', vb, `${articleDir}/up.sql`, 'up'],
    ['sql_ran', va, `${authorDir}/up.sql`, 'up'],
  ]);
  t.is(entries[1].summary, `applied migration ${va}_create_author (${authorDir}/up.sql): CREATE TABLE author (id serial PRIMARY KEY, name text);`);
  const after = await cli('migrate', 'status', '--format', 'json');
  t.deepEqual(JSON.parse(after.stdout).migrations.map((r: { version: string; source: boolean; database: boolean }) => [r.version, r.source, r.database]), [[va, true, true], [vb, true, true]]);
  const again = await cli('migrate', 'apply');
  t.is(again.stdout, 'nothing to apply\n');
});

test.serial('down, --version with --type, --skip-execution; the original messages for what cannot be done', async (t) => {
  const [authorDir, articleDir] = readdirSync(join(dir, 'migrations')).sort();
  const [va, vb] = [authorDir.split('_')[0], articleDir.split('_')[0]];
  const down = await cli('migrate', 'apply', '--down', '1');
  t.is(down.status, 0, down.stderr);
  t.regex(down.stdout, new RegExp(`^\\[1/1\\] rolled back ${vb}_create_article \\(${articleDir}/down\\.sql\\)`));
  t.deepEqual(await tables(), ['author']);
  t.deepEqual(await versions(), [va]);
  const notApplied = await cli('migrate', 'apply', '--version', vb, '--type', 'down');
  t.is(notApplied.status, 1);
  t.is(notApplied.stderr, 'engine: Migration not applied in database\n');
  const skip = await cli('migrate', 'apply', '--version', vb, '--skip-execution');
  t.is(skip.status, 0, skip.stderr);
  t.deepEqual(await tables(), ['author']);
  t.deepEqual(await versions(), [va, vb]);
  const applied = await cli('migrate', 'apply', '--version', vb);
  t.is(applied.status, 1);
  t.is(applied.stderr, 'engine: Version already applied in database\n');
  const unmark = await cli('migrate', 'apply', '--down', '1', '--skip-execution');
  t.is(unmark.status, 0, unmark.stderr);
  const up = await cli('migrate', 'apply', '--up', '1');
  t.is(up.status, 0, up.stderr);
  t.deepEqual(await tables(), ['article', 'author']);
  const both = await cli('migrate', 'apply', '--up', '1', '--down', '1');
  t.is(both.status, 1);
  t.regex(both.stderr, /only one migration type can be applied at a time/);
  const skipAlone = await cli('migrate', 'apply', '--skip-execution');
  t.is(skipAlone.status, 1);
  t.regex(skipAlone.stderr, /--skip-execution flag can be set only with --version, --up, --down flags/);
});

test.serial('a failing migration changes nothing, names its file and the Postgres error; the ones before it stay', async (t) => {
  migration('9000000000001', 'add_rating', 'ALTER TABLE article ADD COLUMN rating int;', 'ALTER TABLE article DROP COLUMN rating;');
  migration('9000000000002', 'broken', 'CREATE TABLE tag (id int);\nINSERT INTO no_such_table VALUES (1);', 'DROP TABLE tag;');
  migration('9000000000003', 'after', 'CREATE TABLE later (id int);', 'DROP TABLE later;');
  const seq = e.seq();
  const r = await cli('migrate', 'apply');
  t.is(r.status, 1);
  t.regex(r.stdout, /^\[1\/3\] applied 9000000000001_add_rating/);
  t.is(r.stderr, 'engine: migration 9000000000002_broken/up.sql failed: query execution failed: relation "no_such_table" does not exist\n');
  // The broken one's first statement was rolled back with it; the one after it never ran.
  t.deepEqual(await tables(), ['article', 'author']);
  t.deepEqual((await versions()).slice(-1), ['9000000000001']);
  t.is(e.seq(), seq + 1);
  const json = await cli('migrate', 'apply', '--format', 'json');
  t.is(json.status, 1);
  t.like(JSON.parse(json.stdout), { applied: [], failed: '9000000000002_broken/up.sql' });
  rmSync(join(dir, 'migrations', '9000000000002_broken'), { recursive: true });
  const fixed = await cli('migrate', 'apply');
  t.is(fixed.status, 0, fixed.stderr);
  t.deepEqual(await tables(), ['article', 'author', 'later']);
});

test.serial('history replay restores the schema and the applied versions', async (t) => {
  const exportFile = join(dir, 'log.jsonl');
  const exported = await runCli(['history', 'export', '--output', exportFile, '--database-url', e.db.url]);
  t.is(exported.status, 0, exported.stderr);
  const { createTestDatabase } = await import('../helpers/db.js');
  const target = await createTestDatabase('replay');
  try {
    const replay = await runCli(['history', 'replay', exportFile, '--database-url', target.url]);
    t.is(replay.status, 0, replay.stderr);
    const c = new pg.Client({ connectionString: target.url });
    await c.connect();
    try {
      const replayed = (await c.query('SELECT version::text AS v FROM engine_catalog.schema_migrations ORDER BY version')).rows.map((r: { v: string }) => r.v);
      t.deepEqual(replayed, await versions());
    } finally {
      await c.end();
    }
  } finally {
    await target.drop();
  }
});
