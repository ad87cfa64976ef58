// Each integration test file gets its own fresh database on the test server, dropped afterwards.
import pg from 'pg';
import { randomBytes } from 'node:crypto';

export const baseDatabaseUrl = (): string => process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(prefix = 't'): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseDatabaseUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(baseDatabaseUrl(), name),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: baseDatabaseUrl() });
      await c.connect();
      try {
        // pg's Pool.end() resolves before its connections have closed: FORCE would kill a session that is closing
        // anyway, and its client would throw "terminating connection due to administrator command" as an uncaught
        // error in the test process (seen under load). Let closing sessions go first; FORCE is for leftovers.
        for (const end = Date.now() + 3000; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
          const r = await c.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
          if (r.rows[0].n === 0) break;
        }
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * Resolves once a session of this database waits on a lock (the one with `pid`, or any other than `c`'s own): how
 * a test knows a concurrent statement really is blocked, where a pause would only make that likely.
 */
export async function waitingOnLock(c: pg.ClientBase, pid?: number, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await c.query(
      `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
         AND ($1::int IS NULL OR pid = $1) AND pid <> pg_backend_pid()`,
      [pid ?? null],
    );
    if (r.rowCount) return;
    if (Date.now() > end) throw new Error(`no session ${pid ?? ''} waiting on a lock after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
