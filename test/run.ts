// `npm test`: pick the Postgres the whole run uses, then run ava on it. DATABASE_URL wins; else the server on
// 127.0.0.1:5432 when it answers; else one embedded Postgres for the whole run (every ava worker shares it), on a
// free port with its data in a temporary folder, stopped and removed when ava exits, fails or is interrupted.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/startup/embedded-postgres.js';
import { freePort } from './helpers/free-port.js';

const LOCAL = 'postgres://postgres@127.0.0.1:5432/postgres';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

interface Embedded {
  db: EmbeddedDatabase;
  dir: string;
  url: string;
}

async function startOwn(): Promise<Embedded> {
  // Under the system temp folder: reachable by the postgres user when the run is as root, wherever the clone is.
  const dir = mkdtempSync(path.join(tmpdir(), 'engine-test-pg-'));
  try {
    chmodSync(dir, 0o755); // mkdtemp makes it 0700; the data folder inside stays private to the server's user
    const db = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), port: await freePort() });
    const url = new URL(db.url);
    url.pathname = '/postgres';
    return { db, dir, url: url.toString() };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

async function stopOwn(own: Embedded | null): Promise<void> {
  if (!own) return;
  await own.db.stop().catch(() => undefined);
  rmSync(own.dir, { recursive: true, force: true });
}

const redact = (url: string): string => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');

let own: Embedded | null = null;
let databaseUrl: string;
if (process.env.DATABASE_URL) {
  databaseUrl = process.env.DATABASE_URL;
  console.log(`npm test: using DATABASE_URL (${redact(databaseUrl)})`);
} else if (await answers(LOCAL)) {
  databaseUrl = LOCAL;
  console.log('npm test: using the Postgres on 127.0.0.1:5432');
} else {
  own = await startOwn();
  databaseUrl = own.url;
  console.log(`npm test: nothing answers on 127.0.0.1:5432, started an embedded Postgres at ${redact(databaseUrl)} (data in ${own.dir})`);
}

const ava = spawn(process.execPath, [path.join(root, 'node_modules', 'ava', 'entrypoints', 'cli.mjs'), ...process.argv.slice(2)], {
  cwd: root,
  env: { ...process.env, DATABASE_URL: databaseUrl },
  stdio: 'inherit',
});

// Ctrl-C reaches ava too (same process group); forward signals sent to this process alone, then clean up once ava
// has exited, so the server never outlives the run.
let signalled = false;
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(sig, () => {
    signalled = true;
    if (ava.exitCode === null) ava.kill(sig);
  });
}

const code = await new Promise<number>((resolve) => {
  ava.on('exit', (c, s) => resolve(c ?? (s ? 130 : 1)));
  ava.on('error', () => resolve(1));
});
await stopOwn(own);
process.exit(signalled && code === 0 ? 130 : code);
