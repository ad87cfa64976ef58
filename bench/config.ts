// Bench settings from flags and environment variables (flags win), with the --quick smoke-run preset.
export interface BenchConfig {
  databaseUrl: string; // the server's admin URL (DATABASE_URL); the bench database lives beside it
  database: string; // dedicated bench database name
  scale: number; // 1 = 500k tracks, 1M invoice lines
  seed: number;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  rounds: number; // measured runs per query per target, interleaved; medians are reported
  only: string[] | null; // query names to run (Q1..Q6), null = all
  targets: ('engine' | 'ceiling')[];
  engineRoot: string | null; // checkout whose bin/engine.mjs is spawned (default: this one)
  engineUrl: string | null; // bench an engine that is already running instead of spawning one
  enginePort: number;
  ceilingPort: number;
  pgPool: number; // pg pool size of both the ceiling and the spawned engine (ENGINE_GRAPHQL_PG_CONNECTIONS)
  resultsDir: string;
  quick: boolean;
  checkOnly: boolean; // only compare the JSON, no load
  cpuProf: boolean; // run the spawned engine under --cpu-prof and summarise the profile
  explain: boolean; // EXPLAIN ANALYZE both targets' SQL per query (bench/results/explain-*.txt)
  // bench:paired (bench/paired.ts) only:
  spawns: number; // fresh sets of processes per measurement
  rotations: number; // short runs per target per query per spawn, in cyclic order
  runSeconds: number; // length of each of those runs
  floor: boolean; // also measure the floor (bench/floor.ts) and each engine against it
}

const HELP = `usage: npm run bench -- [options]
  --quick               smoke run: scale 0.01, 1 s warm-up, 2 s per query per target
  --scale N             dataset scale (BENCH_SCALE, default 1 = 500k tracks, 1M invoice lines)
  --seed N              generator seed (BENCH_SEED, default 42)
  --database NAME       bench database (BENCH_DATABASE, default engine_bench, engine_bench_quick with --quick)
  --connections N       autocannon connections (BENCH_CONNECTIONS, default 16)
  --warmup S            warm-up seconds per query per target (BENCH_WARMUP, default 3)
  --duration S          measured seconds per query per target (BENCH_DURATION, default 10)
  --rounds N            measured runs per query per target, alternating targets; medians reported (BENCH_ROUNDS, default 1)
  --only Q1,Q3          run only these queries (BENCH_ONLY)
  --ceiling-only        do not start or load the engine
  --engine-only         do not start or load the ceiling
  --engine-url URL      use an engine already running at URL (BENCH_ENGINE_URL); its metadata is still set up
  --engine-root DIR     spawn DIR/bin/engine.mjs, e.g. a clean git worktree of a commit (BENCH_ENGINE_ROOT);
                        bench:paired takes a list, each DIR or DIR@DATABASE (that engine on its own copy of the dataset)
  --engine-port N       port for the spawned engine (BENCH_ENGINE_PORT, default 0 = any free port)
  --ceiling-port N      port for the ceiling (BENCH_CEILING_PORT, default 0 = any free port)
  --spawns N            bench:paired: fresh processes this many times (BENCH_SPAWNS, default 4)
  --rotations N         bench:paired: runs per target per query per spawn, in cyclic order (BENCH_ROTATIONS, default 8)
  --run-seconds S       bench:paired: seconds per run (BENCH_RUN_SECONDS, default 1)
  --floor               bench:paired: also the floor (the ceiling plus every request's request id, metrics and
                        http-log line), against the ceiling, and each engine against it
  --pg-pool N           Postgres pool size of the ceiling and of the spawned engine (BENCH_PG_POOL, default 16)
  --check               compare the JSON of both targets and stop (no load)
  --cpu-prof            profile the spawned engine (node --cpu-prof) during the load; summary in the results
  --explain             also EXPLAIN ANALYZE the engine's SQL (via /v1/graphql/explain) and the ceiling's per query
  --results DIR         where the JSON report goes (default bench/results)
`;

export function parseConfig(argv: string[], env: NodeJS.ProcessEnv): BenchConfig {
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') {
      process.stdout.write(HELP);
      process.exit(0);
    }
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}\n${HELP}`);
    const eq = a.indexOf('=');
    if (eq > 0) flags.set(a.slice(2, eq), a.slice(eq + 1));
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--') && !BOOLEAN_FLAGS.has(a.slice(2))) flags.set(a.slice(2), argv[++i]);
    else flags.set(a.slice(2), true);
  }
  for (const k of flags.keys()) if (!KNOWN_FLAGS.has(k)) throw new Error(`unknown flag --${k}\n${HELP}`);

  const str = (flag: string, envName: string): string | undefined => {
    const f = flags.get(flag);
    if (typeof f === 'string') return f;
    return env[envName] || undefined;
  };
  const num = (flag: string, envName: string, dflt: number): number => {
    const s = str(flag, envName);
    if (s === undefined) return dflt;
    const n = Number(s);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${flag}/${envName} must be a positive number, got ${s}`);
    return n;
  };

  const port = (flag: string, envName: string): number => {
    const s = str(flag, envName);
    const n = s === undefined ? 0 : Number(s);
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`--${flag}/${envName} must be a port number, got ${s}`);
    return n;
  };
  const quick = flags.get('quick') === true || env.BENCH_QUICK === '1';
  const only = str('only', 'BENCH_ONLY');
  const targets: ('engine' | 'ceiling')[] = flags.has('ceiling-only') ? ['ceiling'] : flags.has('engine-only') ? ['engine'] : ['engine', 'ceiling'];
  return {
    databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    database: str('database', 'BENCH_DATABASE') ?? (quick ? 'engine_bench_quick' : 'engine_bench'),
    scale: num('scale', 'BENCH_SCALE', quick ? 0.01 : 1),
    seed: Math.floor(num('seed', 'BENCH_SEED', 42)),
    connections: Math.floor(num('connections', 'BENCH_CONNECTIONS', 16)),
    warmupSeconds: num('warmup', 'BENCH_WARMUP', quick ? 1 : 3),
    durationSeconds: num('duration', 'BENCH_DURATION', quick ? 2 : 10),
    rounds: Math.floor(num('rounds', 'BENCH_ROUNDS', 1)),
    only: only ? only.split(',').map((s) => s.trim().toUpperCase()).filter(Boolean) : null,
    targets,
    engineRoot: str('engine-root', 'BENCH_ENGINE_ROOT') ?? null,
    engineUrl: str('engine-url', 'BENCH_ENGINE_URL') ?? null,
    enginePort: port('engine-port', 'BENCH_ENGINE_PORT'),
    ceilingPort: port('ceiling-port', 'BENCH_CEILING_PORT'),
    pgPool: Math.floor(num('pg-pool', 'BENCH_PG_POOL', 16)),
    resultsDir: str('results', 'BENCH_RESULTS') ?? new URL('./results/', import.meta.url).pathname,
    quick,
    checkOnly: flags.has('check'),
    explain: flags.has('explain'),
    cpuProf: flags.has('cpu-prof'),
    spawns: Math.floor(num('spawns', 'BENCH_SPAWNS', 4)),
    rotations: Math.floor(num('rotations', 'BENCH_ROTATIONS', 8)),
    runSeconds: num('run-seconds', 'BENCH_RUN_SECONDS', 1),
    floor: flags.has('floor'),
  };
}

const BOOLEAN_FLAGS = new Set(['quick', 'ceiling-only', 'engine-only', 'check', 'explain', 'cpu-prof', 'floor']);
const KNOWN_FLAGS = new Set([
  ...BOOLEAN_FLAGS,
  'scale', 'seed', 'rounds', 'database', 'connections', 'warmup', 'duration', 'only',
  'engine-url', 'engine-root', 'engine-port', 'ceiling-port', 'pg-pool', 'results', 'spawns', 'rotations', 'run-seconds',
]);

/** The URL of another database on the same server as `url`. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** `--name VALUE` from the command line (the small benches' own flags). */
export const argOf = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

/** A numeric `--name VALUE`, or `dflt`. */
export const numArg = (name: string, dflt: number): number => Number(argOf(name) ?? dflt);
