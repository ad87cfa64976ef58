// Acceptance: an instance killed with SIGKILL in the middle of a large bulk leaves all of it or none of it.
import test from 'ava';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { request, spawnEngine, startTestEngine } from '../helpers/engine.js';

let db: TestDatabase;
test.before(async () => {
  db = await createTestDatabase('crash');
});
test.after.always(async () => {
  await db?.drop();
});

const N = 60;
function bigBulk(prefix: string): unknown {
  const create = { type: 'run_sql', args: { sql: Array.from({ length: N }, (_, i) => `CREATE TABLE ${prefix}_${i} (id serial PRIMARY KEY);`).join('\n') } };
  const track = (i: number) => ({ type: 'track_table', args: { schema: 'public', name: `${prefix}_${i}` } });
  return {
    type: 'bulk',
    args: [
      create,
      ...Array.from({ length: N / 2 }, (_, i) => track(i)),
      // Keeps the transaction open long enough to be killed in the middle.
      { type: 'run_sql', args: { sql: 'SELECT pg_sleep(3)' } },
      ...Array.from({ length: N / 2 }, (_, i) => track(N / 2 + i)),
    ],
  };
}

async function facts(prefix: string): Promise<{ tables: number; events: number }> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    const t = await c.query(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public' AND tablename LIKE $1`, [`${prefix}\\_%`]);
    const e = await c.query(
      `SELECT count(*)::int AS n FROM engine_catalog.metadata_log WHERE type = 'table_tracked' AND data->'table'->>'name' LIKE $1`,
      [`${prefix}\\_%`],
    );
    return { tables: t.rows[0].n, events: e.rows[0].n };
  } finally {
    await c.end();
  }
}

async function waitForSleep(timeoutMs: number): Promise<boolean> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    for (const end = Date.now() + timeoutMs; Date.now() < end; ) {
      const r = await c.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND query LIKE '%pg_sleep(3)%' AND pid <> pg_backend_pid()`);
      if (r.rowCount) return true;
      await new Promise((r) => setTimeout(r, 20));
    }
    return false;
  } finally {
    await c.end();
  }
}

test.serial('SIGKILL in the middle of a bulk: after restart none of it is there', async (t) => {
  const child = await spawnEngine(db.url);
  const pending = request(`${child.url}/v1/query`, 'POST', bigBulk('kb')).catch((e: unknown) => e);
  t.true(await waitForSleep(60_000), 'the bulk reached its middle');
  await child.kill();
  t.true((await pending) instanceof Error, 'the request never got an answer');

  const e = await startTestEngine({ database: db });
  try {
    const f = await facts('kb');
    t.log(`after the kill: ${f.tables} tables, ${f.events} tracking events (bulk had ${N} of each)`);
    t.true((f.tables === 0 && f.events === 0) || (f.tables === N && f.events === N), JSON.stringify(f));
    t.deepEqual(f, { tables: 0, events: 0 });
    const exp = await e.query({ type: 'export_metadata', args: {} });
    t.false(JSON.stringify(exp.body).includes('kb_'));
    t.is((await e.get('/healthz')).status, 200);
    // The engine keeps working on the same database afterwards: the same bulk now lands whole.
    const ok = await e.query(bigBulk('kb'));
    t.is(ok.status, 200, JSON.stringify(ok.body).slice(0, 300));
    t.deepEqual(await facts('kb'), { tables: N, events: N });
  } finally {
    await e.close();
  }
});
