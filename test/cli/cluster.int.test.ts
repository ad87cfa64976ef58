// `serve --workers N` (issue 33, 20,000 live queries): N engine processes on one port. Which process answered is
// read from what it did: a tracked view returns current_setting('application_name'), which each engine sets on its
// pool to `engine-<instance id>`, and the instance id carries the process's pid; the workers' pids come from the
// primary's log. A socket kept alive stays with the process that accepted it, so /healthz on it is answered there.
// Also: a start-up failure ends the primary with the worker's error, the embedded Postgres is the primary's, and a
// bad --workers value is refused.
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { ENGINE_BIN, runCli } from '../helpers/cli.js';
import { freePort } from '../helpers/free-port.js';

interface Line {
  type?: string;
  level?: string;
  detail?: { message?: string; pid?: number; info?: { message?: string; pid?: number; database_url?: string; retries?: number } };
}

interface Cluster {
  child: ChildProcess;
  lines: Line[];
  stderr: string[];
  /** The first line (seen so far or to come) that `pred` accepts (the deadline only catches a hang). */
  line(pred: (l: Line) => boolean): Promise<Line>;
  exited: Promise<number | null>;
}

function startCluster(args: string[]): Cluster {
  const child = spawn(process.execPath, [ENGINE_BIN, 'serve', '--server-host', '127.0.0.1', '--connections', '5', ...args], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Line[] = [];
  const stderr: string[] = [];
  const waiting: Array<{ pred: (l: Line) => boolean; resolve: (l: Line) => void }> = [];
  let buf = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    buf += d;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const l = JSON.parse(buf.slice(0, nl)) as Line;
      buf = buf.slice(nl + 1);
      lines.push(l);
      for (const w of waiting.filter((x) => x.pred(l))) w.resolve(l);
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => stderr.push(d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child, lines, stderr, exited,
    line: (pred) => new Promise((resolve, reject) => {
      const seen = lines.find(pred);
      if (seen) return resolve(seen);
      waiting.push({ pred, resolve });
      const timer = setTimeout(() => reject(new Error(`no such line within 60 s:\n${lines.map((l) => JSON.stringify(l)).join('\n')}`)), 60_000);
      void exited.then(() => reject(new Error(`the engine exited first:\n${stderr.join('')}`))).finally(() => clearTimeout(timer));
    }),
  };
}

const info = (l: Line) => l.detail?.info;
const readyPid = (l: Line): number | undefined => (info(l)?.message === 'worker ready' ? info(l)?.pid : undefined);

/** The metadata version whoami's view is tracked at: another worker may not have caught up without asking for it. */
let whoamiVersion = '0';

/** One TCP connection (kept alive) to the engine: requests on it reach the process that accepted it. */
function connection(port: number, keepAlive = true) {
  const agent = new http.Agent({ keepAlive, maxSockets: 1 });
  const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; body: any; headers: http.IncomingHttpHeaders; localPort: number }>((resolve, reject) => {
      const req = http.request({ port, host: '127.0.0.1', method, path, agent, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: text.startsWith('{') ? JSON.parse(text) : text, headers: res.headers, localPort: req.socket!.localPort! }));
      });
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  /** The pid of the engine process that ran the query (from its pool's application_name). */
  const whoami = async (): Promise<number> => {
    const r = await send('POST', '/v1/graphql', { query: '{ whoami { app } }' }, { 'x-engine-min-metadata-version': whoamiVersion });
    const app = r.body?.data?.whoami?.[0]?.app as string | undefined;
    const m = app === undefined ? null : /^engine-.*-(\d+)-[0-9a-f]{6}$/.exec(app);
    if (m === null) throw new Error(`whoami: ${r.status} ${JSON.stringify(r.body)}`);
    return Number(m[1]);
  };
  return { send, whoami, close: () => agent.destroy() };
}

let db: TestDatabase;
test.before(async () => {
  db = await createTestDatabase('cluster33');
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  await c.query(`CREATE VIEW whoami AS SELECT current_setting('application_name') AS app; CREATE TABLE t2 (id int PRIMARY KEY)`);
  await c.end();
});
test.after.always(() => db?.drop());

test.serial('--workers 2: two processes on one port; a metadata change through one is seen by the other; a killed worker is replaced; SIGTERM stops all', async (t) => {
  const cluster = startCluster(['--workers', '2', '--server-port', '0', '--database-url', db.url]);
  t.teardown(() => cluster.child.kill('SIGKILL'));
  await cluster.line((l) => info(l)?.message === 'all 2 workers ready');
  const workers = cluster.lines.flatMap((l) => readyPid(l) ?? []);
  t.is(new Set(workers).size, 2);
  t.false(workers.includes(cluster.child.pid!), 'the primary serves nothing');
  // Each worker flushes its own log lines: its "engine ready" may come after the primary's line.
  const readyOn = (l: Line): string[] => { const m = /engine ready on (\S+)/.exec(info(l)?.message ?? ''); return m ? [m[1]] : []; };
  await cluster.line(() => cluster.lines.flatMap(readyOn).length >= 2);
  const urls = new Set(cluster.lines.flatMap(readyOn));
  t.is(urls.size, 1, 'both workers on one port');
  const port = Number(new URL([...urls][0]).port);

  const admin = connection(port);
  const trackedWhoami = await admin.send('POST', '/v1/query', { type: 'track_table', args: 'whoami' });
  t.is(trackedWhoami.status, 200);
  whoamiVersion = String(trackedWhoami.headers['x-engine-metadata-version']);
  // Keep-alive connections until one is served by each worker (round-robin: the second already is).
  const byPid = new Map<number, ReturnType<typeof connection>>();
  for (let i = 0; i < 10 && byPid.size < 2; i++) {
    const c = connection(port);
    const pid = await c.whoami();
    if (byPid.has(pid)) c.close();
    else byPid.set(pid, c);
  }
  t.deepEqual([...byPid.keys()].sort(), [...workers].sort());
  const [[pidA, a], [pidB, b]] = [...byPid];
  for (const c of [a, b]) {
    const first = await c.send('GET', '/healthz');
    t.is(first.status, 200);
    t.is(first.body, 'OK');
    // Still the same socket, so still the same process.
    t.is((await c.send('GET', '/healthz')).localPort, first.localPort);
  }
  t.is(await a.whoami(), pidA);

  // A metadata change through A; B's next request (asking for that version, the engine's contract) sees it.
  const tracked = await a.send('POST', '/v1/query', { type: 'track_table', args: 't2' });
  t.is(tracked.status, 200);
  const version = String(tracked.headers['x-engine-metadata-version']);
  const seen = await b.send('POST', '/v1/graphql', { query: '{ t2 { id } }' }, { 'x-engine-min-metadata-version': version });
  t.deepEqual(seen.body, { data: { t2: [] } });
  t.is(await b.whoami(), pidB);
  for (const c of [admin, a, b]) c.close();

  // SIGKILL A: the primary says so, B serves meanwhile, and a new worker takes A's place.
  process.kill(pidA, 'SIGKILL');
  const died = await cluster.line((l) => l.type === 'cluster' && l.detail?.pid === pidA);
  t.is(died.level, 'error');
  for (let i = 0; i < 4; i++) t.not(await connection(port, false).whoami(), pidA);
  const replacement = readyPid(await cluster.line((l) => (readyPid(l) ?? pidA) !== pidA && !workers.includes(readyPid(l)!)))!;
  const answered = new Set<number>();
  for (let i = 0; i < 10 && !answered.has(replacement); i++) answered.add(await connection(port, false).whoami());
  t.true(answered.has(replacement), `answered by ${[...answered]}, the replacement is ${replacement}`);

  cluster.child.kill('SIGTERM');
  t.is(await cluster.exited, 0);
  for (const pid of [pidB, replacement]) t.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, `worker ${pid} still runs`);
});

test.serial('a worker failing at start-up (its port taken) fails the primary with its error, once', async (t) => {
  const taken = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
  t.teardown(() => taken.close());
  const port = (taken.address() as AddressInfo).port;
  const cluster = startCluster(['--workers', '2', '--server-port', String(port), '--database-url', db.url]);
  t.teardown(() => cluster.child.kill('SIGKILL'));
  t.is(await cluster.exited, 1);
  t.regex(cluster.stderr.join(''), /engine: worker \d+ \(pid \d+\) failed at start-up: .*EADDRINUSE/);
  // Not replaced: no more workers were started than asked for.
  t.is(cluster.lines.filter((l) => info(l)?.message === 'worker started').length, 2);
});

test('a bad --workers value is refused with one line', async (t) => {
  for (const [args, env, source] of [[['--workers', '0'], {}, '--workers'], [['--workers', '65'], {}, '--workers'], [[], { ENGINE_GRAPHQL_WORKERS: 'two' }, 'ENGINE_GRAPHQL_WORKERS']] as const) {
    // (A value wrongly accepted would try this database, not start an embedded one.)
    const r = await runCli(['serve', '--database-url', 'postgres://nobody@127.0.0.1:1/none', ...args], { env });
    t.is(r.status, 2);
    t.regex(r.stderr, new RegExp(`^engine: invalid value for ${source} \\(.*\\): .*\n$`));
  }
});

test.serial('without a database URL: the primary runs one embedded Postgres for both workers and stops it after them', async (t) => {
  // Under the system temp folder, 755: reachable by the postgres user when the run is as root.
  const dir = path.join(tmpdir(), `engine-cluster33-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { mode: 0o755 });
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const pgPort = await freePort();
  const cluster = startCluster(['--workers', '2', '--server-port', '0', '--data-dir', path.join(dir, 'data'), '--embedded-pg-port', String(pgPort)]);
  t.teardown(() => cluster.child.kill('SIGKILL'));
  await cluster.line((l) => info(l)?.message === 'all 2 workers ready');
  t.is(cluster.lines.filter((l) => info(l)?.message?.startsWith('embedded Postgres started')).length, 1);
  const connected = cluster.lines.flatMap((l) => (info(l)?.retries === undefined ? [] : [info(l)!.database_url!]));
  t.is(connected.length, 2);
  for (const url of connected) t.is(new URL(url).port, String(pgPort));
  const postmaster = Number(readFileSync(path.join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const parent = Number(readFileSync(`/proc/${postmaster}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
  t.is(parent, cluster.child.pid!, 'the primary started it');

  cluster.child.kill('SIGTERM');
  t.is(await cluster.exited, 0);
  t.throws(() => process.kill(postmaster, 0), { code: 'ESRCH' }, 'the embedded Postgres still runs');
});
