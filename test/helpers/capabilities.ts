// What the run's Postgres server and this machine can do, for the few tests that need more than core Postgres
// (an embedded server started by `npm test` has no PostGIS; a machine may have no pg_dump, or an older one).
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { baseDatabaseUrl } from './db.js';

async function scalar(sql: string): Promise<unknown> {
  const c = new pg.Client({ connectionString: baseDatabaseUrl() });
  await c.connect();
  try {
    return (await c.query(sql)).rows[0]?.v;
  } finally {
    await c.end();
  }
}

export async function postgisAvailable(): Promise<boolean> {
  return (await scalar("SELECT count(*)::int AS v FROM pg_available_extensions WHERE name = 'postgis'")) === 1;
}

/** pg_dump refuses a server newer than itself: the endpoint can only be tested with one at least as new. */
export async function pgDumpUsable(): Promise<boolean> {
  let version: string;
  try {
    version = execFileSync(process.env.ENGINE_PG_DUMP ?? 'pg_dump', ['--version'], { encoding: 'utf8' });
  } catch {
    return false;
  }
  const major = Number(/(\d+)(?:\.\d+)?/.exec(version)?.[1] ?? 0);
  const serverMajor = Math.floor(Number(await scalar('SELECT current_setting($$server_version_num$$)::int AS v')) / 10000);
  return major >= serverMajor;
}
