// Load driver: one autocannon run (warm-up, then the measured run) of one query against one target.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number; // mean over the measured run's seconds
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMeanMs: number;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  mismatches: number; // responses whose body differed from the checked one
  durationSeconds: number;
  /** Server process CPU (user + system) per request in µs: far less sensitive to other load on the machine than req/s. */
  serverCpuUsPerRequest?: number;
}

export interface LoadOptions {
  url: string; // the target's base URL; requests go to POST {url}/v1/graphql
  body: string;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** When set, every response body must equal it (the text checked before the load); others count as mismatches. */
  expectBody?: string;
  /** The server's pid, to measure its CPU time over the run (Linux /proc). */
  serverPid?: number | null;
}

/** An autocannon run of POST {url}/v1/graphql with a JSON body: for `duration` seconds or `amount` requests. */
export const graphqlLoad = (
  o: { url: string; body: string; connections: number; expectBody?: string; timeout?: number } & ({ duration: number } | { amount: number }),
) =>
  autocannon({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    timeout: 30,
    ...o,
    url: `${o.url}/v1/graphql`,
  });

const run = (o: LoadOptions, duration: number) =>
  graphqlLoad({ url: o.url, body: o.body, connections: o.connections, expectBody: o.expectBody, duration });

/** Runs the query for the warm-up time and discards the numbers (JIT, plan cache, pg pool, Postgres buffers). */
export async function warmUp(o: LoadOptions): Promise<void> {
  if (o.warmupSeconds > 0) await run(o, o.warmupSeconds);
}

/** User and system CPU seconds (all threads) a process has used so far (Linux /proc; throws when it is gone). */
export function processCpu(pid: number): { user: number; system: number } {
  return cpuOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** User and system CPU seconds of a /proc/<pid>/stat line. */
export function cpuOfStat(stat: string): { user: number; system: number } {
  // Fields after the command name (which may hold spaces, hence the last ')'): utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) / CLOCK_TICKS, system: Number(fields[12]) / CLOCK_TICKS };
}
const CLOCK_TICKS = 100; // USER_HZ, 100 on every Linux architecture Node runs on

/** CPU seconds (user + system, all threads) a process has used, or null (not Linux, process gone). */
export function processCpuSeconds(pid: number): number | null {
  try {
    const { user, system } = processCpu(pid);
    return user + system;
  } catch {
    return null;
  }
}

/** One measured run. */
export async function measureRun(o: LoadOptions): Promise<LoadResult> {
  const cpu0 = o.serverPid ? processCpuSeconds(o.serverPid) : null;
  const r = await run(o, o.durationSeconds);
  const cpu1 = o.serverPid ? processCpuSeconds(o.serverPid) : null;
  const cpu = cpu0 !== null && cpu1 !== null && r.requests.total > 0 ? ((cpu1 - cpu0) * 1e6) / r.requests.total : undefined;
  return {
    serverCpuUsPerRequest: cpu,
    requestsPerSecond: r.requests.average,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    latencyMeanMs: r.latency.average,
    requests: r.requests.total,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    mismatches: r.mismatches ?? 0,
    durationSeconds: r.duration,
  };
}

/** The median (the mean of the middle two for an even count). */
export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * Several rounds of one target summarised: the median of each rate/latency figure (robust to a round disturbed by
 * other work on the machine), error counts summed; the rounds themselves are kept for the JSON report.
 */
export function combineRounds(rounds: LoadResult[]): LoadResult & { rounds?: LoadResult[] } {
  if (rounds.length === 1) return rounds[0];
  const sum = (k: 'requests' | 'errors' | 'timeouts' | 'non2xx' | 'mismatches' | 'durationSeconds') => rounds.reduce((a, r) => a + r[k], 0);
  return {
    requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)),
    latencyP50Ms: median(rounds.map((r) => r.latencyP50Ms)),
    latencyP99Ms: median(rounds.map((r) => r.latencyP99Ms)),
    latencyMeanMs: median(rounds.map((r) => r.latencyMeanMs)),
    requests: sum('requests'),
    errors: sum('errors'),
    timeouts: sum('timeouts'),
    non2xx: sum('non2xx'),
    mismatches: sum('mismatches'),
    durationSeconds: sum('durationSeconds'),
    serverCpuUsPerRequest: rounds.every((r) => r.serverCpuUsPerRequest !== undefined) ? median(rounds.map((r) => r.serverCpuUsPerRequest!)) : undefined,
    rounds,
  };
}
