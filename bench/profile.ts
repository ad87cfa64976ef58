// `--cpu-prof`: summarise the engine's V8 CPU profile (written when it exits) as top self-time functions and the
// engine's own functions by inclusive time, so a req/s gap points at code.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const shortUrl = (url: string) => url.replace(/^file:\/\//, '').replace(/.*\/(node_modules\/)/, '$1').replace(/.*\/((src|events|projections|bin)\/)/, '$1');

/** The biggest profile in `dir` (the main thread's; tsx's loader thread writes a small one beside it). */
export function mainProfile(dir: string): string | null {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(dir, f));
  if (!files.length) return null;
  return files.sort((a, b) => statSync(b).size - statSync(a).size)[0];
}

export function summariseProfile(file: string, top = 25): string {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const d = p.timeDeltas[i] ?? 0;
    const n = byId.get(id)!;
    if (n.callFrame.functionName === '(idle)') return; // percentages are of busy time
    total += d;
    // tsx-compiled modules report line 0 for everything, so a line is shown only when there is one.
    const key = (x: ProfileNode) =>
      `${x.callFrame.functionName || '(anonymous)'} ${shortUrl(x.callFrame.url)}${x.callFrame.lineNumber > 0 ? `:${x.callFrame.lineNumber + 1}` : ''}`;
    self.set(key(n), (self.get(key(n)) ?? 0) + d);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = key(byId.get(cur)!);
      if (!seen.has(k)) {
        seen.add(k);
        incl.set(k, (incl.get(k) ?? 0) + d);
      }
    }
  });
  const pct = (v: number) => `${((v / total) * 100).toFixed(1).padStart(5)}%`;
  const rank = (m: Map<string, number>, keep: (k: string) => boolean) =>
    [...m].filter(([k]) => keep(k)).sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => `${pct(v)}  ${k}`);
  return [
    `CPU profile ${file} (${(total / 1e6).toFixed(1)} s busy; percentages of busy time)`,
    '-- self time',
    ...rank(self, () => true),
    "-- inclusive time, engine's own code",
    ...rank(incl, (k) => / (src|events|projections)\//.test(k)),
  ].join('\n');
}
