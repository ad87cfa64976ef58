// `engine history list|show|diff` read the log of a database: the same answers as the history operations of the
// server that wrote it, as text and as JSON; bad arguments are usage errors (exit 2).
import test from 'ava';
import { spawn } from 'node:child_process';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';

const BIN = new URL('../../bin/engine.mjs', import.meta.url).pathname;
// Asynchronous on purpose: a blocking spawn would stall the in-process test engine (whose API the answers are
// compared with) for as long as the CLI runs, and its idle connections would time out under load.
function engine(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '' }, timeout: 120_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

let e: TestEngine;
let afterTrack = 0;
test.before(async () => {
  e = await startTestEngine();
  for (const body of [
    { type: 'run_sql', args: { sql: 'CREATE TABLE author (id serial PRIMARY KEY, name text)' } },
    { type: 'track_table', args: { table: 'author' } },
    { type: 'create_select_permission', args: { table: 'author', role: 'user', permission: { columns: ['id'], filter: {} } } },
  ]) {
    const r = await e.query(body);
    if (r.status !== 200) throw new Error(r.text);
    if (body.type === 'track_table') afterTrack = e.seq();
  }
});
test.after.always(() => e?.close());

test('history list prints one line per change, newest first; --format json matches the API', async (t) => {
  const r = await engine(['history', 'list', '--database-url', e.db.url]);
  t.is(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  t.is(lines.length, e.seq());
  t.regex(lines[0], new RegExp(`^\\s*${e.seq()}  \\d{4}-\\d\\d-\\d\\dT\\S+  admin     created select permission for role user on public\\.author$`));
  t.regex(lines[1], /tracked table public\.author$/);
  t.regex(lines[2], /ran SQL: CREATE TABLE author \(id serial PRIMARY KEY, name text\)$/);
  const j = await engine(['history', 'list', '--limit', '1', '--offset', '1', '--format', 'json', '--database-url', e.db.url]);
  t.is(j.status, 0, j.stderr);
  const page = JSON.parse(j.stdout);
  t.like(page, { head: e.seq(), offset: 1, limit: 1 });
  t.deepEqual(page.entries.map((x: { summary: string }) => x.summary), ['tracked table public.author']);
});

test('history show --at N prints the export at N', async (t) => {
  const r = await engine(['history', 'show', '--at', String(afterTrack), '--database-url', e.db.url]);
  t.is(r.status, 0, r.stderr);
  const api = await e.query({ type: 'engine_history_export', args: { version: afterTrack } });
  t.deepEqual(JSON.parse(r.stdout), api.body);
  t.deepEqual(JSON.parse(r.stdout).tables, [{ table: { schema: 'public', name: 'author' } }]);
});

test('history diff A B prints the changed paths', async (t) => {
  const r = await engine(['history', 'diff', String(afterTrack), String(e.seq()), '--database-url', e.db.url]);
  t.is(r.status, 0, r.stderr);
  t.is(r.stdout, `diff ${afterTrack} → ${e.seq()}: 1 change(s)\n+ tables[public.author].select_permissions[user]\n`);
  const j = await engine(['history', 'diff', '0', '--format', 'json', '--database-url', e.db.url]);
  t.is(j.status, 0, j.stderr);
  t.deepEqual(JSON.parse(j.stdout).changes.map((c: { path: string }) => c.path), ['tables[public.author]']);
});

test('bad arguments are usage errors; a version beyond the log fails', async (t) => {
  const noAt = await engine(['history', 'show', '--database-url', e.db.url]);
  t.is(noAt.status, 2);
  t.regex(noAt.stderr, /needs --at N/);
  const bad = await engine(['history', 'diff', 'x', '--database-url', e.db.url]);
  t.is(bad.status, 2);
  const beyond = await engine(['history', 'show', '--at', '999', '--database-url', e.db.url]);
  t.is(beyond.status, 1);
  t.regex(beyond.stderr, /version 999 does not exist/);
});
