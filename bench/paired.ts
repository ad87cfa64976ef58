// `npm run bench:paired`: the engine's server CPU per request against the ceiling's, precise enough to show a few
// per cent. `npm run bench` runs each target for 10 s at a time, and on a shared machine the same code's ratio
// moved by up to 0.4 between its runs. Here:
// - each target runs many short runs in cyclic rotation (each holds each place of the order equally often: with
//   a forward/reverse order, whichever engine ran in the middle read about 0.07 worse), and the ratio is taken per
//   rotation, between runs a few seconds apart;
// - the processes are spawned afresh several times: one process's placement could shift its figures by 0.05 for
//   its whole life.
// Reported per query and engine: the median over spawns of each spawn's median ratio, with the spread over
// spawns, user and system time apart, and req/s. `--engine-root A,B` compares several snapshots in the same
// rotations (each against the same ceiling). `--floor` adds the floor (bench/floor.ts: the ceiling plus the work
// every engine request carries) to the rotations: the floor against the ceiling, and each engine against the floor.
// Every response must be the body checked against the ceiling's JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfig, withDatabase, type BenchConfig } from './config.js';
import { ensureDataset } from './dataset.js';
import { spawnCeiling, spawnEngine, setupEngineMetadata, runBenchMain, type SpawnedProcess } from './engine.js';
import { checkQuery } from './check.js';
import { graphqlLoad, median } from './load.js';
import { graphqlBody, selectQueries, type BenchQuery } from './queries.js';
import { measureRotations, ratiosOf, type PairedRotation, type PairedTarget } from './paired-measure.js';
import { log, logError } from './log.js';

const CEILING = 'ceiling';
const FLOOR = 'floor';

/** A spawn's targets up and set up: the ceiling, then one engine per root (null: this checkout). */
async function spawnTargets(config: BenchConfig, url: string, roots: (string | null)[], stamp: string, started: SpawnedProcess[]) {
  const ceiling = await spawnCeiling({ databaseUrl: url, port: 0, poolSize: config.pgPool });
  started.push(ceiling);
  const floor = config.floor
    ? await spawnCeiling({ databaseUrl: url, port: 0, poolSize: config.pgPool, floorLog: join(config.resultsDir, `paired-${stamp}-floor.log`) })
    : null;
  if (floor !== null) started.push(floor);
  const engines: { name: string; process: SpawnedProcess; url: string }[] = [];
  for (const [i, spec] of roots.entries()) {
    // DIR@DATABASE: that engine on its own copy of the dataset (an older engine refuses a newer engine_catalog).
    const [root, database] = spec === null ? [null, undefined] : spec.split('@');
    const dbUrl = database ? withDatabase(url, database) : url;
    const e = await spawnEngine({
      databaseUrl: dbUrl, port: 0, root, logFile: join(config.resultsDir, `paired-${stamp}-engine-${i}.log`),
      env: { ENGINE_GRAPHQL_PG_CONNECTIONS: String(config.pgPool) },
    });
    started.push(e);
    engines.push({ name: spec ?? 'this checkout', process: e, url: dbUrl });
  }
  // Engines on one database share the metadata log: it is set once there, and each answers once it has caught up.
  const leaders = new Map<string, string>();
  for (const e of engines) {
    const leader = leaders.get(e.url);
    if (leader === undefined) {
      leaders.set(e.url, e.process.url);
      await setupEngineMetadata(e.process.url);
      continue;
    }
    const seq = (await typename(leader, {})).headers.get('x-engine-metadata-version') ?? '0';
    await typename(e.process.url, { 'x-engine-min-metadata-version': seq });
  }
  return { ceiling, floor, engines };
}

const typename = (url: string, headers: Record<string, string>) =>
  fetch(`${url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"query":"{__typename}"}' });

/** Each engine's (and the floor's) body for the query, checked against the ceiling's JSON; null (and logged) when one differs. */
async function checkedTargets(q: BenchQuery, ceiling: SpawnedProcess, engines: { name: string; process: SpawnedProcess }[]): Promise<PairedTarget[] | null> {
  const targets: PairedTarget[] = [];
  for (const e of engines) {
    const c = await checkQuery(q, { engine: e.process.url, ceiling: ceiling.url });
    if (!c.ok) {
      logError('check.failed', { query: q.name, engine: e.name, problems: c.problems, differences: c.differences });
      return null;
    }
    if (targets.length === 0) targets.push({ name: CEILING, url: ceiling.url, pid: ceiling.child.pid!, expectBody: c.texts.ceiling! });
    targets.push({ name: e.name, url: e.process.url, pid: e.process.child.pid!, expectBody: c.texts.engine! });
  }
  return targets;
}

interface Summary {
  query: string;
  engine: string;
  /** Per spawn: the median of its rotations' ratios to the ceiling. */
  spawns: { cpu: number; user: number; system: number; rps: number }[];
  /** With --floor, an engine's: per spawn, the median of its rotations' ratios to the floor. */
  vsFloor: { cpu: number; rps: number }[];
}

const fixed = (x: number) => x.toFixed(3);

function formatSummaries(summaries: Summary[], withFloor: boolean): string {
  const rows = [['query', 'engine', 'CPU/req e/c (min-max over spawns)', 'user e/c', 'system e/c', 'req/s e/c', ...(withFloor ? ['CPU/req e/floor', 'req/s e/floor'] : [])]];
  for (const s of summaries) {
    const col = (k: 'cpu' | 'user' | 'system' | 'rps') => median(s.spawns.map((x) => x[k]));
    const cpus = s.spawns.map((x) => x.cpu);
    const vsFloor = (k: 'cpu' | 'rps') => (s.vsFloor.length ? fixed(median(s.vsFloor.map((x) => x[k]))) : '-');
    rows.push([
      s.query, s.engine, `${fixed(col('cpu'))} (${fixed(Math.min(...cpus))}-${fixed(Math.max(...cpus))})`, fixed(col('user')), fixed(col('system')), fixed(col('rps')),
      ...(withFloor ? [vsFloor('cpu'), vsFloor('rps')] : []),
    ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ')).join('\n');
}

async function main(config: BenchConfig, started: SpawnedProcess[]): Promise<number> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  mkdirSync(config.resultsDir, { recursive: true });
  const queries = selectQueries(config.only);
  const roots = config.engineRoot ? config.engineRoot.split(',').map((r) => r.trim()) : [null];
  log('paired.start', { queries: queries.map((q) => q.name), roots, spawns: config.spawns, rotations: config.rotations, runSeconds: config.runSeconds });
  const dataset = await ensureDataset(config.databaseUrl, config.database, { scale: config.scale, seed: config.seed });
  const raw: { spawn: number; query: string; rotations: PairedRotation[] }[] = [];
  const summaries = new Map<string, Summary>();
  let problems = 0;
  for (let spawn = 0; spawn < config.spawns; spawn++) {
    const { ceiling, floor, engines } = await spawnTargets(config, dataset.url, roots, stamp, started);
    const measured = floor === null ? engines : [...engines, { name: FLOOR, process: floor }];
    for (const q of queries) {
      const targets = await checkedTargets(q, ceiling, measured);
      if (targets === null) return 1;
      const body = graphqlBody(q);
      for (const t of targets) await graphqlLoad({ url: t.url, body, connections: config.connections, duration: config.warmupSeconds });
      const rotations = await measureRotations({ targets, body, connections: config.connections, rotations: config.rotations, runSeconds: config.runSeconds, shift: spawn });
      raw.push({ spawn, query: q.name, rotations });
      for (const r of rotations) for (const run of Object.values(r.runs)) problems += run.problems;
      for (const e of measured) {
        const ratios = ratiosOf(rotations, e.name, CEILING);
        const one = { cpu: median(ratios.cpu), user: median(ratios.user), system: median(ratios.system), rps: median(ratios.rps) };
        const key = `${q.name}\u0000${e.name}`;
        let summary = summaries.get(key);
        if (summary === undefined) summaries.set(key, (summary = { query: q.name, engine: e.name, spawns: [], vsFloor: [] }));
        summary.spawns.push(one);
        const toFloor = floor !== null && e.name !== FLOOR ? ratiosOf(rotations, e.name, FLOOR) : null;
        const vsFloor = toFloor === null ? null : { cpu: median(toFloor.cpu), rps: median(toFloor.rps) };
        if (vsFloor !== null) summary.vsFloor.push(vsFloor);
        log('paired.spawn', { spawn, query: q.name, engine: e.name, ...one, ...(vsFloor ? { cpuToFloor: vsFloor.cpu } : {}) });
      }
    }
    await Promise.all(started.splice(0).map((p) => p.stop()));
  }
  const file = join(config.resultsDir, `paired-${stamp}.json`);
  writeFileSync(file, `${JSON.stringify({ config: { ...config, databaseUrl: undefined }, roots, summaries: [...summaries.values()], raw }, null, 2)}\n`);
  process.stdout.write(`\n${formatSummaries([...summaries.values()], config.floor)}\nJSON report: ${file}\n`);
  if (problems) logError('paired.problems', { count: problems, hint: 'errors, timeouts, non-2xx or bodies other than the checked one (see the JSON report)' });
  return problems ? 1 : 0;
}

await runBenchMain('paired', (started) => main(parseConfig(process.argv.slice(2), process.env), started));
