// Correctness gate before any load: every query must give 200 and the same JSON from the engine and the ceiling.
import { compareJson, type Difference } from './json-compare.js';
import { graphqlBody, type BenchQuery } from './queries.js';

export async function postGraphql(url: string, q: BenchQuery): Promise<{ status: number; text: string }> {
  const res = await fetch(`${url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: graphqlBody(q) });
  return { status: res.status, text: await res.text() };
}

export interface CheckResult {
  query: string;
  ok: boolean;
  problems: string[];
  differences: Difference[];
  numberTextDiffers: Difference[];
  bytes: Partial<Record<'engine' | 'ceiling', number>>;
  /** The bodies as received, for the load runs to expect byte for byte. */
  texts: Partial<Record<'engine' | 'ceiling', string>>;
}

const isErrorBody = (text: string) => {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v !== 'object' || v === null || 'errors' in v || !('data' in v);
  } catch {
    return true;
  }
};

/** Checks one query against the targets present (both: identical JSON; one: at least a 200 `data` body). */
export async function checkQuery(q: BenchQuery, targets: Partial<Record<'engine' | 'ceiling', string>>): Promise<CheckResult> {
  const result: CheckResult = { query: q.name, ok: true, problems: [], differences: [], numberTextDiffers: [], bytes: {}, texts: {} };
  const bodies: Partial<Record<'engine' | 'ceiling', string>> = {};
  for (const [target, url] of Object.entries(targets) as ['engine' | 'ceiling', string][]) {
    const r = await postGraphql(url, q);
    result.bytes[target] = Buffer.byteLength(r.text);
    result.texts[target] = r.text;
    if (r.status !== 200 || isErrorBody(r.text)) result.problems.push(`${target}: HTTP ${r.status} ${r.text.slice(0, 600)}`);
    else bodies[target] = r.text;
  }
  if (bodies.engine !== undefined && bodies.ceiling !== undefined) {
    const c = compareJson(bodies.engine, bodies.ceiling);
    result.differences = c.differences;
    result.numberTextDiffers = c.numberTextDiffers;
    if (!c.equal) result.problems.push(`engine and ceiling JSON differ at ${c.differences.length} place(s)`);
  }
  result.ok = result.problems.length === 0;
  return result;
}
