// `--explain`: per query, the engine's SQL (from POST /v1/graphql/explain) and the ceiling's, each run once under
// EXPLAIN ANALYZE, so a gap in req/s can be split into "Postgres does more work" and "the server adds overhead".
import pg from 'pg';
import type { BenchQuery } from './queries.js';

export interface ExplainEntry {
  query: string;
  engineSql: string[] | null; // one statement per root field
  engineExecutionMs: number | null;
  ceilingExecutionMs: number | null;
  enginePlan: string[];
  ceilingPlan: string[];
  problem?: string;
}

const executionMs = (plan: string[]) => {
  const line = plan.find((l) => l.startsWith('Execution Time:'));
  return line ? Number(/([\d.]+) ms/.exec(line)?.[1]) : null;
};

/** EXPLAIN ANALYZE `runs` times; keeps the fastest plan (the minimum is robust to other work preempting Postgres). */
async function explainAnalyze(client: pg.Client, sql: string, values: unknown[], runs = 7): Promise<string[]> {
  let best: string[] = [];
  let bestMs = Infinity;
  for (let i = 0; i < runs; i++) {
    const r = await client.query(`EXPLAIN (ANALYZE, COSTS OFF) ${sql}`, values);
    const plan = r.rows.map((row: Record<string, string>) => row['QUERY PLAN']);
    const ms = executionMs(plan) ?? Infinity;
    if (ms < bestMs || best.length === 0) [best, bestMs] = [plan, ms];
  }
  return best;
}

export async function explainQueries(databaseUrl: string, engineUrl: string | undefined, queries: BenchQuery[]): Promise<ExplainEntry[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const out: ExplainEntry[] = [];
  try {
    for (const q of queries) {
      const entry: ExplainEntry = { query: q.name, engineSql: null, engineExecutionMs: null, ceilingExecutionMs: null, enginePlan: [], ceilingPlan: [] };
      entry.ceilingPlan = await explainAnalyze(client, q.sql, q.params.map((p) => q.variables[p]));
      entry.ceilingExecutionMs = executionMs(entry.ceilingPlan);
      if (engineUrl) {
        const res = await fetch(`${engineUrl}/v1/graphql/explain`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: { query: q.graphql, variables: q.variables, operationName: q.name } }),
        });
        const text = await res.text();
        if (res.status !== 200) entry.problem = `engine explain: HTTP ${res.status} ${text.slice(0, 300)}`;
        else {
          const fields = JSON.parse(text) as { field: string; sql: string }[];
          entry.engineSql = fields.map((f) => f.sql);
          let total = 0;
          for (const f of fields) {
            const plan = await explainAnalyze(client, f.sql, []);
            entry.enginePlan.push(`-- ${f.field}`, ...plan);
            total += executionMs(plan) ?? 0;
          }
          entry.engineExecutionMs = total;
        }
      }
      out.push(entry);
    }
  } finally {
    await client.end();
  }
  return out;
}

export function formatExplain(entries: ExplainEntry[], queries: BenchQuery[]): string {
  const lines: string[] = [];
  for (const e of entries) {
    const q = queries.find((x) => x.name === e.query)!;
    lines.push(`==== ${e.query}: ${q.description}`, `Postgres execution: engine ${e.engineExecutionMs ?? '-'} ms, ceiling ${e.ceilingExecutionMs ?? '-'} ms`);
    if (e.problem) lines.push(`problem: ${e.problem}`);
    lines.push('', '-- engine SQL', ...(e.engineSql ?? ['(none)']), '', '-- engine plan', ...e.enginePlan);
    lines.push('', '-- ceiling SQL', q.sql, '', '-- ceiling plan', ...e.ceilingPlan, '');
  }
  return `${lines.join('\n')}\n`;
}
