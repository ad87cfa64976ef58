// Mutation benchmark: `node --import tsx bench/mutations.ts [--duration S] [--warmup S] [--rounds N] [--connections N]`.
// Two mutations against a hand-written SQL ceiling (bench/mutations-ceiling.ts, its own process): an insert of 10
// parents with 2 children each through a nested array relationship (objects as a variable, and inline in the query
// text, which keeps the engine's plan cached), and an update by primary key (random rows). Engine and ceiling runs
// alternate; the report gives req/s, p50/p99 and the engine/ceiling ratio (median of the rounds).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { spawnEngine, type SpawnedProcess } from './engine.js';
import { withDatabase } from './config.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const opts = { duration: arg('duration', 10), warmup: arg('warmup', 3), rounds: arg('rounds', 2), connections: arg('connections', 10) };
const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = 'engine_bench_mutations';

const SETUP_SQL = `
CREATE TABLE parent (id serial PRIMARY KEY, name text NOT NULL, score int NOT NULL DEFAULT 0);
CREATE TABLE child (id serial PRIMARY KEY, parent_id int NOT NULL REFERENCES parent(id), label text NOT NULL);
CREATE INDEX ON child (parent_id);
INSERT INTO parent (name, score) SELECT 'p' || g, g FROM generate_series(1, 1000) g;
`;

const OBJECTS = Array.from({ length: 10 }, (_, i) => ({ name: `n${i}`, score: i, children: { data: [{ label: `c${i}a` }, { label: `c${i}b` }] } }));
const gqlLiteral = (v: unknown): string =>
  Array.isArray(v) ? `[${v.map(gqlLiteral).join(', ')}]`
    : typeof v === 'object' && v !== null ? `{${Object.entries(v).map(([k, x]) => `${k}: ${gqlLiteral(x)}`).join(', ')}}`
      : JSON.stringify(v);

const INSERT_SELECTION = '{ affected_rows returning { id name } }';
const CASES = [
  {
    name: 'insert 10 parents + 20 children (objects variable)',
    engine: JSON.stringify({
      operationName: 'insert_nested', variables: { objects: OBJECTS },
      query: `mutation insert_nested($objects: [parent_insert_input!]!) { insert_parent(objects: $objects) ${INSERT_SELECTION} }`,
    }),
    ceiling: JSON.stringify({ operationName: 'insert_nested', variables: { objects: OBJECTS } }),
    randomId: false,
  },
  {
    name: 'insert 10 parents + 20 children (inline objects)',
    engine: JSON.stringify({ operationName: 'insert_nested', query: `mutation insert_nested { insert_parent(objects: ${gqlLiteral(OBJECTS)}) ${INSERT_SELECTION} }` }),
    ceiling: JSON.stringify({ operationName: 'insert_nested', variables: { objects: OBJECTS } }),
    randomId: false,
  },
  {
    name: 'update by primary key',
    engine: 'update',
    ceiling: 'update',
    randomId: true,
  },
];
const UPDATE_QUERY = 'mutation update_by_pk($id: Int!, $score: Int!) { update_parent_by_pk(pk_columns: {id: $id}, _set: {score: $score}) { id score } }';
const updateBody = () => JSON.stringify({ operationName: 'update_by_pk', query: UPDATE_QUERY, variables: { id: 1 + Math.floor(Math.random() * 1000), score: Math.floor(Math.random() * 1e6) } });

async function load(url: string, body: string, randomId: boolean, duration: number) {
  const request = randomId
    ? { method: 'POST', path: '/v1/graphql', headers: { 'content-type': 'application/json' }, setupRequest: (r: object) => ({ ...r, body: updateBody() }) }
    : { method: 'POST', path: '/v1/graphql', headers: { 'content-type': 'application/json' }, body };
  const r = await autocannon({ url, connections: opts.connections, duration, timeout: 30, requests: [request] } as never);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx + r.timeouts };
}

async function spawnCeiling(databaseUrl: string): Promise<SpawnedProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/mutations-ceiling.ts')], {
    cwd: ROOT, env: { ...process.env, BENCH_CEILING_DATABASE_URL: databaseUrl, BENCH_CEILING_PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (c: Buffer) => {
      buf += c.toString('utf8');
      const line = buf.split('\n').find((l) => l.includes('ceiling.ready'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`ceiling exited with code ${code}`)));
  });
  return { child, url, logFile: '', stop: async () => void child.kill('SIGTERM') };
}

const post = async (url: string, path: string, body: string) => {
  const r = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return (await r.json()) as Record<string, unknown>;
};

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB}`);
  await admin.end();
  const dbUrl = withDatabase(baseUrl, DB);
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  await db.query(SETUP_SQL);
  await db.end();

  const resultsDir = join(ROOT, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const started: SpawnedProcess[] = [];
  try {
    const engine = await spawnEngine({ databaseUrl: dbUrl, port: 0, logFile: join(resultsDir, `mutations-engine-${stamp}.log`), env: { ENGINE_GRAPHQL_LOG_LEVEL: 'error' } });
    started.push(engine);
    const meta = await post(engine.url, '/v1/query', JSON.stringify({
      type: 'bulk',
      args: [
        { type: 'track_table', args: 'parent' },
        { type: 'track_table', args: 'child' },
        { type: 'create_array_relationship', args: { table: 'parent', name: 'children', using: { foreign_key_constraint_on: { table: 'child', column: 'parent_id' } } } },
        { type: 'create_object_relationship', args: { table: 'child', name: 'parent', using: { foreign_key_constraint_on: 'parent_id' } } },
      ],
    }));
    if (!Array.isArray(meta)) throw new Error(`metadata setup failed: ${JSON.stringify(meta)}`);
    const ceiling = await spawnCeiling(dbUrl);
    started.push(ceiling);

    // Same answers (ids aside) before measuring.
    for (const c of CASES) {
      const eb = c.engine === 'update' ? updateBody() : c.engine;
      const cb = c.ceiling === 'update' ? eb : c.ceiling;
      const strip = (x: unknown) => JSON.stringify(x).replace(/"id":\d+/g, '"id":0').replace(/"score":\d+/g, '"score":0');
      const [er, cr] = [await post(engine.url, '/v1/graphql', eb), await post(ceiling.url, '/v1/graphql', cb)];
      if (strip(er) !== strip(cr)) throw new Error(`${c.name}: engine and ceiling differ:\n${JSON.stringify(er)}\n${JSON.stringify(cr)}`);
    }

    const report = [];
    for (const c of CASES) {
      const rounds: Record<'engine' | 'ceiling', Array<Awaited<ReturnType<typeof load>>>> = { engine: [], ceiling: [] };
      for (const [target, url, body] of [['engine', engine.url, c.engine], ['ceiling', ceiling.url, c.ceiling]] as const) {
        await load(url, body, c.randomId, opts.warmup);
        void target;
      }
      for (let i = 0; i < opts.rounds; i++) {
        rounds.engine.push(await load(engine.url, c.engine, c.randomId, opts.duration));
        rounds.ceiling.push(await load(ceiling.url, c.ceiling, c.randomId, opts.duration));
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
      const summary = (rs: typeof rounds.engine) => ({ rps: median(rs.map((r) => r.rps)), p50: median(rs.map((r) => r.p50)), p99: median(rs.map((r) => r.p99)), errors: rs.reduce((a, r) => a + r.errors, 0) });
      const e = summary(rounds.engine);
      const ce = summary(rounds.ceiling);
      report.push({ case: c.name, engine: e, ceiling: ce, ratio: Number((e.rps / ce.rps).toFixed(3)) });
      console.log(`${c.name.padEnd(52)} engine ${e.rps.toFixed(0).padStart(6)} req/s p50 ${e.p50}ms | ceiling ${ce.rps.toFixed(0).padStart(6)} req/s p50 ${ce.p50}ms | ratio ${(e.rps / ce.rps).toFixed(2)}${e.errors + ce.errors ? ` errors ${e.errors}/${ce.errors}` : ''}`);
    }
    writeFileSync(join(resultsDir, `mutations-${stamp}.json`), JSON.stringify({ options: opts, report }, null, 2));
  } finally {
    for (const s of started.reverse()) await s.stop();
  }
}

await main();
