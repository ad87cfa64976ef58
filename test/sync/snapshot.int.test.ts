// The write path: snapshots every N events (and start-up from them gives the same metadata), event meta records
// the operation, a failed operation appends nothing.
import test from 'ava';
import pg from 'pg';
import { createTestDatabase, waitingOnLock, type TestDatabase } from '../helpers/db.js';
import { startTestEngine } from '../helpers/engine.js';

let db: TestDatabase;
test.before(async () => {
  db = await createTestDatabase('snap');
});
test.after.always(async () => {
  await db?.drop();
});

async function rows<T>(sql: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return (await c.query(sql)).rows as T[];
  } finally {
    await c.end();
  }
}

test.serial('snapshots every N events; a restart from them serves the same metadata', async (t) => {
  const e = await startTestEngine({ database: db, snapshotInterval: 4 });
  let exported: unknown;
  try {
    await e.query({ type: 'run_sql', args: { sql: Array.from({ length: 10 }, (_, i) => `CREATE TABLE t_${i} (id int PRIMARY KEY);`).join('') } });
    for (let i = 0; i < 10; i++) t.is((await e.query({ type: 'track_table', args: `t_${i}` }, { 'x-request-id': `req-${i}` })).status, 200);
    exported = (await e.query({ type: 'export_metadata', args: {} })).body;
    t.is(e.seq(), 11);
  } finally {
    await e.close();
  }
  const snaps = await rows<{ seq: string }>('SELECT seq FROM engine_catalog.metadata_snapshot ORDER BY seq');
  t.deepEqual(snaps.map((s) => Number(s.seq)), [4, 8]);

  const meta = await rows<{ meta: Record<string, unknown>; instance_id: string }>(
    `SELECT meta, instance_id FROM engine_catalog.metadata_log WHERE seq = 2`,
  );
  t.like(meta[0].meta, { operation: 'track_table', version: 1, request_id: 'req-0', role: 'admin' });
  t.is(meta[0].instance_id, e.engine.runtime.instanceId, 'the writing instance');

  const again = await startTestEngine({ database: db, snapshotInterval: 4 });
  try {
    t.is(again.seq(), 11);
    t.deepEqual((await again.query({ type: 'export_metadata', args: {} })).body, exported);
  } finally {
    await again.close();
  }
});

test.serial('a failing operation (bulk) appends nothing and keeps the seq', async (t) => {
  const e = await startTestEngine({ database: db });
  try {
    const before = e.seq();
    const r = await e.query({
      type: 'bulk',
      args: [
        { type: 'run_sql', args: { sql: 'CREATE TABLE doomed (id int PRIMARY KEY)' } },
        { type: 'track_table', args: 'doomed' },
        { type: 'track_table', args: 'no_such_table' },
      ],
    });
    t.is(r.status, 400);
    t.is(r.headers.get('x-engine-metadata-version'), String(before));
    t.is(e.seq(), before);
    const n = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'doomed'`);
    t.is(n[0].n, 0);
  } finally {
    await e.close();
  }
});

test.serial('a writer that does not take the lock: the engine conflicts, catches up and retries', async (t) => {
  const e = await startTestEngine({ database: db });
  const raw = new pg.Client({ connectionString: db.url });
  await raw.connect();
  try {
    t.is((await e.query({ type: 'run_sql', args: { sql: 'CREATE TABLE contested (id int PRIMARY KEY)' } })).status, 200);
    const before = e.seq();
    const { appendEvents } = await import('../../events/log.js');
    await raw.query('BEGIN');
    await appendEvents(raw, [{ type: 'metadata_reloaded', data: { reload_remote_schemas: false } }], before, { instanceId: 'outsider' });
    const pending = e.query({ type: 'track_table', args: 'contested' });
    // The engine's append is blocked on the outsider's uncommitted row before that commits (the contested case).
    await waitingOnLock(raw);
    await raw.query('COMMIT');
    const r = await pending;
    t.is(r.status, 200, JSON.stringify(r.body));
    t.is(r.headers.get('x-engine-metadata-version'), String(before + 2));
    const log = await rows<{ seq: string; type: string }>(`SELECT seq, type FROM engine_catalog.metadata_log WHERE seq > ${before} ORDER BY seq`);
    t.deepEqual(log.map((x) => [Number(x.seq), x.type]), [[before + 1, 'metadata_reloaded'], [before + 2, 'table_tracked']]);
  } finally {
    await raw.end();
    await e.close();
  }
});
