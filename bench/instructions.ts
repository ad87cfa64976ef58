// `npm run bench:instructions`: instructions per request of the engine and of the ceiling, counted by valgrind's
// callgrind. It moves far less than CPU time (bench/run.ts) with other load on the machine: on a shared machine the
// same code's CPU per request varied by ±25 % from one 10 s round to the next, its count by 0.2-7 % between quiet runs.
//
// Each target runs under `valgrind --tool=callgrind --instr-atstart=no`; after a warm-up (JIT, plan cache, pool)
// counting is switched on with callgrind_control for a fixed number of requests, then off. Reported per request:
// the total and the same without V8's optimizing compilers (TurboFan/Maglev), whose work under valgrind keeps
// going long after a real run has settled (it would otherwise dominate the comparison). Instructions are not time
// (cache misses are not counted), so this complements the CPU figures; it does not replace them. Run it alone:
// background work (timers, pollers, helper threads) is counted in proportion to the window's wall time.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfig } from './config.js';
import { ensureDataset } from './dataset.js';
import { spawnCeiling, spawnEngine, setupEngineMetadata, type SpawnedProcess } from './engine.js';
import { graphqlBody, selectQueries, type BenchQuery } from './queries.js';
import { graphqlLoad } from './load.js';
import { log } from './log.js';

const HELP = `node --import tsx bench/instructions.ts [--only Q1,Q2] [--warmup-requests N] [--requests N] [--connections N] [--engine-root DIR] [--engine-flags FLAGS] [--engine-only] [--floor] [--port P] [--database NAME]
  --warmup-requests N   requests before counting starts, per query per target (default 12000)
  --requests N          requests counted, per query per target (default 4000)
  --connections N       autocannon connections (default 4)
  --engine-root DIR     run DIR/bin/engine.mjs (a git archive snapshot) instead of this checkout
  --engine-flags FLAGS  more flags for \`engine serve\`, space-separated; \`{db}\` stands for the bench database's URL
                        (e.g. '--read-replica-url {db}': the primary as its own replica, out of rotation, so that
                        every read takes the read router's path to the primary)
  --engine-only         count the engine alone (no ceiling run; the e/c column is left out)
  --floor               count the floor (bench/floor.ts: the ceiling plus the request id, metrics and http-log line
                        every engine request pays) instead of the ceiling; the ratio column is then engine/floor
  --port P              the engine on port P, the ceiling on P+1 (default: any free port)
  --database NAME       the bench database (default as npm run bench: BENCH_DATABASE or engine_bench; made if missing)
Needs valgrind (callgrind_control, callgrind_annotate). Slow: ~1-2 min per query per target.`;

/** A function of callgrind_annotate's listing that belongs to V8's optimizing compilers. */
const COMPILER = /compiler::|maglev::|Compiler|OptimizedCompilationJob/;

/** Total instructions and those of the optimizing compilers, from `callgrind_annotate --threshold=100` output. */
export function callgrindTotals(annotated: string): { total: number; compiler: number } {
  let total = 0;
  let compiler = 0;
  for (const line of annotated.split('\n')) {
    const m = /^\s*([\d,]+)\s+(?:\(\s*[\d.]+%\)\s+)?(.*)$/.exec(line);
    if (!m) continue;
    const n = Number(m[1].replace(/,/g, ''));
    if (m[2].startsWith('PROGRAM TOTALS')) total = n;
    else if (COMPILER.test(m[2])) compiler += n;
  }
  return { total, compiler };
}

interface Options {
  only: string[] | null;
  warmup: number;
  requests: number;
  connections: number;
  engineRoot: string | null;
  engineFlags: string[];
  engineOnly: boolean;
  floor: boolean;
  port: number;
  database: string | null;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { only: null, warmup: 12000, requests: 4000, connections: 4, engineRoot: null, engineFlags: [], engineOnly: false, floor: false, port: 0, database: null };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === '--help' || flag === '-h') throw new Error(HELP);
    if (flag === '--engine-only' || flag === '--floor') {
      o[flag === '--floor' ? 'floor' : 'engineOnly'] = true;
      continue;
    }
    if (value === undefined) throw new Error(`${flag} needs a value\n${HELP}`);
    i++;
    const count = (): number => {
      const n = Number(value);
      if (!Number.isInteger(n) || n <= 0) throw new Error(`${flag} must be a positive integer, got ${value}`);
      return n;
    };
    if (flag === '--only') o.only = value.split(',');
    else if (flag === '--warmup-requests') o.warmup = count();
    else if (flag === '--requests') o.requests = count();
    else if (flag === '--connections') o.connections = count();
    else if (flag === '--engine-root') o.engineRoot = value;
    else if (flag === '--engine-flags') o.engineFlags = value.split(' ').filter((f) => f !== '');
    else if (flag === '--port') o.port = count();
    else if (flag === '--database') o.database = value;
    else throw new Error(`unknown flag ${flag}\n${HELP}`);
  }
  return o;
}

async function fire(url: string, q: BenchQuery, amount: number, connections: number): Promise<void> {
  const r = await graphqlLoad({ url, body: graphqlBody(q), connections, amount, timeout: 120 });
  if (r.non2xx || r.errors || r.timeouts) throw new Error(`${q.name} at ${url}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
}

/** Instructions per request of one target (started under callgrind by `start`, then `setup`) for one query. */
async function measure(
  start: (wrapper: string[]) => Promise<SpawnedProcess>, setup: (url: string) => Promise<void>, q: BenchQuery, o: Options, outFile: string,
): Promise<{ total: number; compiler: number }> {
  const target = await start(['valgrind', '--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${outFile}`]);
  const pid = String(target.child.pid);
  try {
    await setup(target.url);
    await fire(target.url, q, o.warmup, o.connections);
    execFileSync('callgrind_control', ['-i', 'on', pid], { stdio: 'ignore' });
    await fire(target.url, q, o.requests, o.connections);
    execFileSync('callgrind_control', ['-i', 'off', pid], { stdio: 'ignore' });
  } finally {
    await target.stop();
  }
  const t = callgrindTotals(execFileSync('callgrind_annotate', ['--threshold=100', outFile], { encoding: 'utf8', maxBuffer: 64 << 20 }));
  return { total: t.total / o.requests, compiler: t.compiler / o.requests };
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  // As a default `npm run bench` reads them: server, database, scale, seed, pool size, results folder.
  const bench = parseConfig(o.database === null ? [] : ['--database', o.database], process.env);
  const dataset = await ensureDataset(bench.databaseUrl, bench.database, { scale: bench.scale, seed: bench.seed });
  const dir = join(bench.resultsDir, `instructions-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(dir, { recursive: true });
  const rows: string[] = [];
  for (const q of selectQueries(o.only)) {
    const engine = (wrapper: string[]) => spawnEngine({
      databaseUrl: dataset.url, port: o.port, logFile: join(dir, `engine-${q.name}.log`), env: { ENGINE_GRAPHQL_PG_CONNECTIONS: String(bench.pgPool) },
      root: o.engineRoot, wrapper, startTimeoutMs: 600_000, stopTimeoutMs: 300_000, args: o.engineFlags.map((f) => f.replaceAll('{db}', dataset.url)),
    });
    const ceiling = (wrapper: string[]) => spawnCeiling({
      databaseUrl: dataset.url, port: o.port === 0 ? 0 : o.port + 1, poolSize: bench.pgPool, wrapper,
      floorLog: o.floor ? join(dir, `floor-${q.name}.log`) : undefined,
    });
    const e = await measure(engine, setupEngineMetadata, q, o, join(dir, `callgrind-engine-${q.name}.out`));
    const c = o.engineOnly ? null : await measure(ceiling, async () => undefined, q, o, join(dir, `callgrind-${o.floor ? 'floor' : 'ceiling'}-${q.name}.out`));
    const k = (n: number | undefined) => (n === undefined ? '-' : `${(n / 1000).toFixed(1)}k`).padStart(8);
    const ratio = c === null ? '-' : ((e.total - e.compiler) / (c.total - c.compiler)).toFixed(3);
    const row = `${q.name.padEnd(5)} ${k(e.total - e.compiler)} ${k(c ? c.total - c.compiler : undefined)} ${ratio.padStart(7)}   ${k(e.total)} ${k(c?.total)}`;
    log('instructions', { query: q.name, engine: e, ceiling: c });
    rows.push(row);
  }
  const flags = o.engineFlags.length ? `; engine flags: ${o.engineFlags.join(' ')}` : '';
  process.stdout.write(`\ninstructions per request (${o.requests} counted after ${o.warmup} warm-up, ${o.connections} connections${flags}); callgrind files in ${dir}\n` +
    (o.floor ? 'query  engine    floor  e/f       (with compiler work: engine, floor)\n' : 'query  engine  ceiling  e/c       (with compiler work: engine, ceiling)\n') +
    `${rows.join('\n')}\n`);
}

if (process.argv[1]?.endsWith('instructions.ts')) {
  main().catch((e: Error) => {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  });
}
