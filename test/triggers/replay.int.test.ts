// History replay recreates working capture triggers: the log holds no trigger DDL, so `engine history replay`
// reconciles the Postgres triggers with the replayed metadata before it commits.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestEngine } from '../helpers/engine.js';

const BIN = new URL('../../bin/engine.mjs', import.meta.url).pathname;
const engine = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH ?? '' } });

const dbs: TestDatabase[] = [];
test.after.always(async () => {
  await Promise.all(dbs.map((d) => d.drop()));
});

test('export then replay into an empty database: the replayed trigger captures changes', async (t) => {
  const source = await createTestDatabase('h11');
  const target = await createTestDatabase('h11');
  dbs.push(source, target);
  const e = await startTestEngine({ database: source, eventsFetchInterval: 600_000 });
  try {
    const r = await e.query({
      type: 'bulk',
      args: [
        { type: 'run_sql', args: { sql: 'CREATE TABLE note (id int PRIMARY KEY, body text)' } },
        { type: 'track_table', args: 'note' },
        { type: 'create_event_trigger', args: { name: 'note_t', table: 'note', webhook: 'http://127.0.0.1:9/x', insert: { columns: '*' }, update: { columns: ['body'], payload: ['id'] } } },
      ],
    });
    t.is(r.status, 200, r.text);
  } finally {
    await e.close();
  }
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'h11-')), 'log.jsonl');
  const ex = engine(['history', 'export', '--database-url', source.url]);
  t.is(ex.status, 0, ex.stderr);
  writeFileSync(file, ex.stdout);
  const rp = engine(['history', 'replay', file, '--database-url', target.url]);
  t.is(rp.status, 0, rp.stderr);
  const c = new pg.Client({ connectionString: target.url });
  await c.connect();
  try {
    const trg = await c.query(`SELECT tgname FROM pg_trigger WHERE tgrelid = 'public.note'::regclass AND NOT tgisinternal ORDER BY 1`);
    t.deepEqual(trg.rows.map((x) => x.tgname), ['notify_engine_note_t_INSERT', 'notify_engine_note_t_UPDATE']);
    await c.query(`INSERT INTO note VALUES (1, 'a')`);
    await c.query(`UPDATE note SET body = 'b'`);
    const ev = await c.query('SELECT trigger_name, payload FROM engine_catalog.event_log ORDER BY created_at');
    t.deepEqual(ev.rows, [
      { trigger_name: 'note_t', payload: { op: 'INSERT', data: { old: null, new: { id: 1, body: 'a' } }, session_variables: null } },
      { trigger_name: 'note_t', payload: { op: 'UPDATE', data: { old: { id: 1 }, new: { id: 1 } }, session_variables: null } },
    ]);
  } finally {
    await c.end();
  }
});
