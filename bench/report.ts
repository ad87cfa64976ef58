// Bench report: the per-query table for the terminal and the JSON document written to bench/results/.
import type { LoadResult } from './load.js';

export interface QueryReport {
  query: string;
  description: string;
  engine?: LoadResult;
  ceiling?: LoadResult;
  /** engine req/s divided by ceiling req/s (1 = as fast as the hand-written SQL server). */
  ratio?: number;
  /** engine server CPU per request divided by the ceiling's (1 = as cheap; robust to a busy machine). */
  cpuRatio?: number;
}

export interface BenchReport {
  startedAt: string;
  finishedAt: string;
  commit: string | null;
  node: string;
  config: Record<string, unknown>;
  dataset: Record<string, unknown>;
  queries: QueryReport[];
  engineRssBytes: number | null;
  enginePeakRssBytes?: number | null;
  ceilingRssBytes: number | null;
}

const fmt = (n: number | undefined, digits = 1) => (n === undefined || !Number.isFinite(n) ? '-' : n.toFixed(digits));
const mib = (b: number | null) => (b === null ? 'n/a' : `${(b / 1024 / 1024).toFixed(1)} MiB`);

export function formatTable(r: BenchReport): string {
  const head = ['query', 'engine req/s', 'p50 ms', 'p99 ms', 'cpu µs/req', 'ceiling req/s', 'p50 ms', 'p99 ms', 'cpu µs/req', 'req/s e/c', 'cpu e/c'];
  const rows = r.queries.map((q) => [
    q.query,
    fmt(q.engine?.requestsPerSecond),
    fmt(q.engine?.latencyP50Ms, 0),
    fmt(q.engine?.latencyP99Ms, 0),
    fmt(q.engine?.serverCpuUsPerRequest, 0),
    fmt(q.ceiling?.requestsPerSecond),
    fmt(q.ceiling?.latencyP50Ms, 0),
    fmt(q.ceiling?.latencyP99Ms, 0),
    fmt(q.ceiling?.serverCpuUsPerRequest, 0),
    q.ratio === undefined ? '-' : q.ratio.toFixed(2),
    q.cpuRatio === undefined ? '-' : q.cpuRatio.toFixed(2),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const c = r.config as { connections?: number; warmupSeconds?: number; durationSeconds?: number; rounds?: number };
  const d = r.dataset as { scale?: number; tracks?: number; invoiceLines?: number };
  const out = [
    `scale ${d.scale} (${d.tracks} tracks, ${d.invoiceLines} invoice lines), ${c.connections} connections, ` +
      `${c.warmupSeconds} s warm-up + ${c.rounds} × ${c.durationSeconds} s per query per target${(c.rounds ?? 1) > 1 ? ' (medians)' : ''}, commit ${r.commit ?? '?'}`,
    '',
    line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
  const problems = r.queries.flatMap((q) =>
    (['engine', 'ceiling'] as const).flatMap((t) => {
      const l = q[t];
      return l && (l.errors || l.non2xx || l.timeouts || l.mismatches)
        ? [`${q.query} ${t}: ${l.errors} errors, ${l.timeouts} timeouts, ${l.non2xx} non-2xx, ${l.mismatches} bodies differing from the checked one`]
        : [];
    }),
  );
  out.push('', `engine RSS after run: ${mib(r.engineRssBytes)} (process tree; main process peak ${mib(r.enginePeakRssBytes ?? null)})   ceiling RSS: ${mib(r.ceilingRssBytes)}`);
  out.push(
    'req/s e/c: engine req/s ÷ ceiling req/s (1 = as fast as the hand-written server). cpu µs/req: the server process\'s',
    'CPU (user + system) per request; cpu e/c: engine ÷ ceiling (1 = as cheap), the steadier figure on a busy machine.',
  );
  if (problems.length) out.push('', 'PROBLEMS:', ...problems);
  return `${out.join('\n')}\n`;
}
