// The engine under test: spawn `node bin/engine.mjs serve` on the bench database, wait until it answers, and set up
// its metadata (tables tracked, relationships from foreign keys) through POST /v1/query.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { closeSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { createServer, connect, type AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { log, logError } from './log.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface SpawnedProcess {
  child: ChildProcess;
  url: string;
  logFile: string;
  stop(): Promise<void>;
}

/** Waits until `probe` resolves true, the child exits, or the timeout passes. */
async function waitUntil(child: ChildProcess | null, probe: () => Promise<boolean>, what: string, timeoutMs: number, logFile?: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode} before it was ready${logFile ? ` (log: ${logFile})` : ''}`);
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} not ready after ${timeoutMs} ms${logFile ? ` (log: ${logFile})` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function stopper(child: ChildProcess, timeoutMs = 5000): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
}

/** A port nothing listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Fails when something already accepts connections on the port: the readiness probe would talk to it instead. */
export async function assertPortFree(port: number): Promise<void> {
  const busy = await new Promise<boolean>((resolve) => {
    const sock = connect({ port, host: '127.0.0.1' });
    sock.once('connect', () => {
      sock.destroy();
      resolve(true);
    });
    sock.once('error', () => resolve(false));
  });
  if (busy) throw new Error(`port ${port} is already in use; pick another (--engine-port / --ceiling-port) or 0 for any free port`);
}

/** node with these arguments, run under `wrapper` (a command and its options, e.g. valgrind's) when given. */
function spawnNode(wrapper: string[] | undefined, args: string[], options: SpawnOptions): ChildProcess {
  const [command, ...prefix] = [...(wrapper ?? []), process.execPath];
  return spawn(command, [...prefix, ...args], options);
}

/** Starts the engine as a child process (port 0: any free port); its output goes to `logFile`. */
export async function spawnEngine(opts: {
  databaseUrl: string;
  port: number;
  logFile: string;
  env?: NodeJS.ProcessEnv;
  root?: string | null; // checkout holding bin/engine.mjs (default: the one this file is in)
  nodeArgs?: string[]; // e.g. --cpu-prof
  /** Flags after `serve`, e.g. `--read-replica-url URL` (bench/instructions.ts --engine-flags). */
  args?: string[];
  /** A command the engine runs under, e.g. valgrind and its options (bench/instructions.ts). */
  wrapper?: string[];
  startTimeoutMs?: number;
  /** How long a stop waits for the engine to exit before killing it (under valgrind, whose output is written at exit). */
  stopTimeoutMs?: number;
}): Promise<SpawnedProcess> {
  const root = resolve(opts.root ?? ROOT);
  const port = opts.port === 0 ? await freePort() : opts.port;
  await assertPortFree(port);
  // The child writes straight to the file: piping through this process would cost the load driver CPU.
  const out = openSync(opts.logFile, 'w');
  const child = spawnNode(opts.wrapper, [...(opts.nodeArgs ?? []), join(root, 'bin/engine.mjs'), 'serve', ...(opts.args ?? [])], {
    cwd: root,
    env: {
      ...process.env,
      ENGINE_GRAPHQL_DATABASE_URL: opts.databaseUrl,
      ENGINE_GRAPHQL_SERVER_PORT: String(port),
      ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1',
      // The expected bodies are written for numbers as JSON numbers.
      ENGINE_GRAPHQL_STRINGIFY_NUMERIC_TYPES: 'false',
      ...opts.env,
    },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const url = `http://127.0.0.1:${port}`;
  log('engine.spawn', { pid: child.pid, url, root, logFile: opts.logFile });
  const stop = stopper(child, opts.stopTimeoutMs);
  try {
    await waitUntil(child, async () => (await fetch(`${url}/healthz`)).status === 200, 'engine', opts.startTimeoutMs ?? 60_000, opts.logFile);
  } catch (e) {
    await stop();
    throw e;
  }
  // A child that died right away (e.g. port taken after all) must not pass for ready on someone else's server.
  await new Promise((r) => setTimeout(r, 300));
  if (child.exitCode !== null) throw new Error(`engine exited with code ${child.exitCode} right after start (log: ${opts.logFile})`);
  log('engine.ready', { url });
  return { child, url, logFile: opts.logFile, stop };
}

/** Starts the ceiling in its own process (bench/ceiling-main.ts through tsx); with `floorLog`, the floor (bench/floor.ts). */
export async function spawnCeiling(opts: { databaseUrl: string; port: number; poolSize: number; wrapper?: string[]; floorLog?: string }): Promise<SpawnedProcess> {
  if (opts.port !== 0) await assertPortFree(opts.port);
  const child = spawnNode(opts.wrapper, ['--import', 'tsx', `${ROOT}bench/ceiling-main.ts`], {
    cwd: ROOT,
    env: {
      ...process.env,
      BENCH_CEILING_DATABASE_URL: opts.databaseUrl,
      BENCH_CEILING_PORT: String(opts.port),
      BENCH_CEILING_POOL: String(opts.poolSize),
      BENCH_CEILING_FLOOR_LOG: opts.floorLog ?? '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (c: Buffer) => {
      buf += c.toString('utf8');
      const line = buf.split('\n').find((l) => l.includes('ceiling.ready'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`ceiling exited with code ${code} before it was ready`)));
  });
  log(opts.floorLog === undefined ? 'ceiling.ready' : 'floor.ready', { pid: child.pid, url });
  return { child, url, logFile: opts.floorLog ?? '', stop: stopper(child) };
}

/** Peak resident set size (VmHWM) in bytes of one process (Linux /proc), or null if unavailable. */
export function peakRss(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** A process and all its descendants (Linux /proc), e.g. `serve --workers N`'s primary and workers; [] once it is gone. */
export function processTree(pid: number): number[] {
  try {
    const out = [pid];
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const c of children ? children.split(/\s+/) : []) out.push(...processTree(Number(c)));
    }
    return out;
  } catch {
    return [];
  }
}

/** Resident set size in bytes of a process and all its descendants (Linux /proc), or null if unavailable. */
export function treeRss(pid: number): number | null {
  try {
    const rss = (p: number): number => {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      let total = m ? Number(m[1]) * 1024 : 0;
      for (const task of readdirSync(`/proc/${p}/task`)) {
        const children = readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim();
        for (const c of children ? children.split(/\s+/) : []) total += rss(Number(c));
      }
      return total;
    };
    return rss(pid);
  } catch {
    return null;
  }
}

const table = (name: string) => ({ schema: 'public', name });
const objRel = (t: string, name: string, column: string) => ({
  type: 'create_object_relationship',
  args: { table: table(t), name, using: { foreign_key_constraint_on: column } },
});
const arrRel = (t: string, name: string, remote: string, column: string) => ({
  type: 'create_array_relationship',
  args: { table: table(t), name, using: { foreign_key_constraint_on: { table: table(remote), column } } },
});

/** The metadata the bench queries need: every table tracked, both directions of every foreign key. */
export function metadataBulk(): { type: string; args: unknown }[] {
  const tables = ['artist', 'album', 'genre', 'media_type', 'track', 'customer', 'invoice', 'invoice_line'];
  return [
    ...tables.map((t) => ({ type: 'track_table', args: table(t) })),
    objRel('album', 'artist', 'artist_id'),
    arrRel('artist', 'albums', 'album', 'artist_id'),
    objRel('track', 'album', 'album_id'),
    arrRel('album', 'tracks', 'track', 'album_id'),
    objRel('track', 'genre', 'genre_id'),
    arrRel('genre', 'tracks', 'track', 'genre_id'),
    objRel('track', 'media_type', 'media_type_id'),
    arrRel('media_type', 'tracks', 'track', 'media_type_id'),
    objRel('invoice', 'customer', 'customer_id'),
    arrRel('customer', 'invoices', 'invoice', 'customer_id'),
    objRel('invoice_line', 'invoice', 'invoice_id'),
    arrRel('invoice', 'lines', 'invoice_line', 'invoice_id'),
    objRel('invoice_line', 'track', 'track_id'),
    arrRel('track', 'invoice_lines', 'invoice_line', 'track_id'),
  ];
}

async function v1Query(url: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const res = await fetch(`${url}/v1/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

/**
 * Replaces the engine's metadata with the bench's: clear_metadata, then one bulk of tracks and relationships. While
 * the engine lacks clear_metadata or bulk, falls back to one request per operation, tolerating what already exists.
 */
export async function setupEngineMetadata(url: string, headers: Record<string, string> = {}): Promise<void> {
  const t0 = Date.now();
  const ops = metadataBulk();
  const cleared = await v1Query(url, { type: 'clear_metadata', args: {} }, headers);
  if (cleared.status !== 200) log('engine.metadata.clear_failed', { status: cleared.status, body: cleared.text.slice(0, 500) });
  if (cleared.status === 200) {
    const r = await v1Query(url, { type: 'bulk', args: ops }, headers);
    if (r.status === 200) return log('engine.metadata', { operations: ops.length, via: 'bulk', ms: Date.now() - t0 });
    log('engine.metadata.bulk_failed', { status: r.status, body: r.text.slice(0, 500) });
  }
  for (const op of ops) {
    const r = await v1Query(url, op, headers);
    if (r.status === 200) continue;
    const code = (() => {
      try {
        return (JSON.parse(r.text) as { code?: string }).code;
      } catch {
        return undefined;
      }
    })();
    if (code === 'already-tracked' || code === 'already-exists') continue;
    throw new Error(`engine metadata setup failed: POST /v1/query ${JSON.stringify(op)} -> ${r.status} ${r.text.slice(0, 1000)}`);
  }
  log('engine.metadata', { operations: ops.length, via: 'one by one', ms: Date.now() - t0 });
}

/**
 * A bench command's main, given the list it adds its spawned processes to: they are stopped when it ends or on
 * Ctrl-C, and killed if the process exits anyway. Exits with main's code (1 when it throws: `<name>.error`).
 */
export async function runBenchMain(name: string, main: (started: SpawnedProcess[]) => Promise<number>): Promise<never> {
  const started: SpawnedProcess[] = [];
  const stopAll = () => Promise.all(started.map((p) => p.stop()));
  process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));
  process.on('exit', () => {
    for (const p of started) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  });
  let code = 1;
  try {
    code = await main(started);
  } catch (e) {
    logError(`${name}.error`, { error: e instanceof Error ? e.message : String(e) });
  } finally {
    await stopAll();
  }
  process.exit(code);
}
