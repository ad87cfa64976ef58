// `npm run bench`: dataset → ceiling + engine → identical-JSON check → alternating autocannon runs → table + JSON report.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfig, type BenchConfig } from './config.js';
import { ensureDataset, GENERATOR_VERSION } from './dataset.js';
import { spawnCeiling, spawnEngine, setupEngineMetadata, peakRss, treeRss, runBenchMain, type SpawnedProcess } from './engine.js';
import { checkQuery } from './check.js';
import { explainQueries, formatExplain } from './explain.js';
import { mainProfile, summariseProfile } from './profile.js';
import { combineRounds, measureRun, warmUp, type LoadResult } from './load.js';
import { graphqlBody, selectQueries } from './queries.js';
import { formatTable, type BenchReport, type QueryReport } from './report.js';
import { log, logError } from './log.js';

type Target = 'engine' | 'ceiling';

/** The engine's commit: HEAD of this checkout, marked dirty when the engine's sources have uncommitted changes. */
const gitCommit = (engineRoot: string | null): string | null => {
  if (engineRoot) return `snapshot at ${engineRoot}`;
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'bin', 'events', 'projections'], { encoding: 'utf8' }).trim();
    return dirty ? `${head}-dirty` : head;
  } catch {
    return null;
  }
};

async function main(config: BenchConfig, started: SpawnedProcess[]): Promise<number> {
  const startedAt = new Date().toISOString();
  const stamp = startedAt.replace(/[:.]/g, '-');
  mkdirSync(config.resultsDir, { recursive: true });
  const queries = selectQueries(config.only);
  log('bench.start', { ...config, queries: queries.map((q) => q.name) });

  const dataset = await ensureDataset(config.databaseUrl, config.database, { scale: config.scale, seed: config.seed });

  const urls: Partial<Record<Target, string>> = {};
  let enginePid: number | null = null;
  let engineProcess: SpawnedProcess | null = null;
  const profDir = join(config.resultsDir, `prof-${stamp}`);
  let ceilingPid: number | null = null;
  if (config.targets.includes('ceiling')) {
    const c = await spawnCeiling({ databaseUrl: dataset.url, port: config.ceilingPort, poolSize: config.pgPool });
    started.push(c);
    urls.ceiling = c.url;
    ceilingPid = c.child.pid ?? null;
  }
  if (config.targets.includes('engine')) {
    if (config.engineUrl) urls.engine = config.engineUrl.replace(/\/$/, '');
    else {
      const e = await spawnEngine({ databaseUrl: dataset.url, port: config.enginePort, logFile: join(config.resultsDir, `engine-${stamp}.log`),
        env: { ENGINE_GRAPHQL_PG_CONNECTIONS: String(config.pgPool) },
        root: config.engineRoot,
        nodeArgs: config.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [],
      });
      started.push(e);
      urls.engine = e.url;
      enginePid = e.child.pid ?? null;
      engineProcess = e;
    }
    await setupEngineMetadata(urls.engine);
  }

  // Correctness first: a fast wrong answer is not a result.
  let failed = false;
  const summary: string[] = [];
  const checkedBodies = new Map<string, Partial<Record<Target, string>>>();
  for (const q of queries) {
    const c = await checkQuery(q, urls);
    checkedBodies.set(q.name, c.texts);
    log('check', { query: q.name, ok: c.ok, bytes: c.bytes });
    for (const d of c.numberTextDiffers) log('check.number_text_differs', { query: q.name, ...d });
    if (!c.ok) {
      failed = true;
      logError('check.failed', { query: q.name, problems: c.problems, differences: c.differences });
      summary.push(`${q.name} (${q.description}):`, ...c.problems.map((p) => `  ${p}`));
      for (const d of c.differences) summary.push(`  at ${d.path}: engine ${d.engine}, ceiling ${d.ceiling}`);
    } else summary.push(`${q.name}: identical JSON${c.numberTextDiffers.length ? ' (some numbers written differently)' : ''}`);
  }
  process.stdout.write(`\nJSON check (engine vs ceiling):\n${summary.join('\n')}\n`);
  if (failed) {
    logError('bench.aborted', { reason: 'a query did not return the expected JSON (see check.failed lines above)' });
    return 1;
  }
  if (config.explain) {
    const entries = await explainQueries(dataset.url, urls.engine, queries);
    const file = join(config.resultsDir, `explain-${stamp}.txt`);
    writeFileSync(file, formatExplain(entries, queries));
    const rows = entries.map((e) => `${e.query}: engine ${e.engineExecutionMs?.toFixed(3) ?? '-'} ms, ceiling ${e.ceilingExecutionMs?.toFixed(3) ?? '-'} ms${e.problem ? ` (${e.problem})` : ''}`);
    process.stdout.write(`\nPostgres execution time (EXPLAIN ANALYZE, fastest of 7):\n${rows.join('\n')}\nplans and SQL: ${file}\n`);
  }
  if (config.checkOnly) {
    log('bench.check_only_done', { queries: queries.length });
    return 0;
  }

  const reports: QueryReport[] = [];
  for (const [i, q] of queries.entries()) {
    const report: QueryReport = { query: q.name, description: q.description };
    // Alternate which target goes first (per query and per round) so neither always runs on a cooler machine.
    const first: Target[] = i % 2 === 0 ? ['engine', 'ceiling'] : ['ceiling', 'engine'];
    const present = first.filter((t) => urls[t]);
    const opts = (t: Target) => ({ url: urls[t]!, body: graphqlBody(q), connections: config.connections, warmupSeconds: config.warmupSeconds, durationSeconds: config.durationSeconds, expectBody: checkedBodies.get(q.name)?.[t], serverPid: t === 'engine' ? enginePid : ceilingPid });
    const rounds: Record<Target, LoadResult[]> = { engine: [], ceiling: [] };
    for (const target of present) {
      log('load.warmup', { query: q.name, target, seconds: config.warmupSeconds });
      await warmUp(opts(target));
    }
    for (let round = 0; round < config.rounds; round++) {
      for (const target of round % 2 === 0 ? present : [...present].reverse()) {
        log('load.start', { query: q.name, target, round, connections: config.connections, duration: config.durationSeconds });
        const r = await measureRun(opts(target));
        rounds[target].push(r);
        log('load.done', { query: q.name, target, round, rps: r.requestsPerSecond, p50: r.latencyP50Ms, p99: r.latencyP99Ms, cpuUsPerRequest: r.serverCpuUsPerRequest, non2xx: r.non2xx, mismatches: r.mismatches, errors: r.errors });
      }
    }
    for (const target of present) report[target] = combineRounds(rounds[target]);
    if (report.engine && report.ceiling && report.ceiling.requestsPerSecond > 0) report.ratio = report.engine.requestsPerSecond / report.ceiling.requestsPerSecond;
    const [ec, cc] = [report.engine?.serverCpuUsPerRequest, report.ceiling?.serverCpuUsPerRequest];
    if (ec !== undefined && cc !== undefined && cc > 0) report.cpuRatio = ec / cc;
    reports.push(report);
  }

  // Memory first: the profile step below stops the engine.
  const engineRssBytes = enginePid ? treeRss(enginePid) : null;
  const enginePeakRssBytes = enginePid ? peakRss(enginePid) : null;
  const ceilingRssBytes = ceilingPid ? treeRss(ceilingPid) : null;
  const result: BenchReport = {
    startedAt,
    finishedAt: new Date().toISOString(),
    commit: gitCommit(config.engineRoot),
    node: process.version,
    config: { ...config, databaseUrl: undefined },
    dataset: { database: config.database, generatorVersion: GENERATOR_VERSION, scale: config.scale, seed: config.seed, ...dataset.size },
    queries: reports,
    engineRssBytes,
    enginePeakRssBytes,
    ceilingRssBytes,
  };
  if (config.cpuProf && engineProcess) {
    await engineProcess.stop(); // V8 writes the profile on exit
    const prof = existsSync(profDir) ? mainProfile(profDir) : null;
    const summary = prof ? summariseProfile(prof) : `no profile written in ${profDir}`;
    writeFileSync(join(config.resultsDir, `prof-${stamp}.txt`), `${summary}\n`);
    process.stdout.write(`\n${summary}\n`);
  }
  const file = join(config.resultsDir, `bench-${stamp}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`\n${formatTable(result)}\nJSON report: ${file}\n`);
  const problems = reports.some((q) => [q.engine, q.ceiling].some((l) => l && (l.errors || l.non2xx || l.timeouts || l.mismatches)));
  return problems ? 1 : 0;
}

await runBenchMain('bench', (started) => main(parseConfig(process.argv.slice(2), process.env), started));
