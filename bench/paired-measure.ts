// The measuring part of `npm run bench:paired` (bench/paired.ts): short runs of one query against several running
// targets in cyclic rotation, each run's server CPU split into user and system time, and the per-rotation ratios
// of each engine to the ceiling. Pure except for measureRotations, which drives the load.
import { graphqlLoad, processCpu } from './load.js';

/** A running server under measurement. */
export interface PairedTarget {
  name: string;
  url: string;
  pid: number;
  /** The body every response must be (checked against the ceiling's JSON before the load). */
  expectBody: string;
}

/** One short run of one target. */
export interface PairedRun {
  requests: number;
  seconds: number;
  /** Server CPU over the run, seconds. */
  userSeconds: number;
  systemSeconds: number;
  /** Errors, timeouts, non-2xx answers and bodies other than the checked one. */
  problems: number;
}

/** One rotation: every target ran once, in `order`. */
export interface PairedRotation {
  order: string[];
  runs: Record<string, PairedRun>;
}

/** The targets in the order of rotation `shift`: a cyclic shift, so over n rotations each holds each place once. */
export function rotationOrder<T>(targets: readonly T[], shift: number): T[] {
  const n = targets.length;
  return targets.map((_, i) => targets[(i + shift) % n]);
}

/** `rotations` rotations of one query (`body`) over the targets, the first one shifted by `shift`. */
export async function measureRotations(o: {
  targets: PairedTarget[];
  body: string;
  connections: number;
  rotations: number;
  runSeconds: number;
  shift: number;
}): Promise<PairedRotation[]> {
  const out: PairedRotation[] = [];
  for (let r = 0; r < o.rotations; r++) {
    const order = rotationOrder(o.targets, r + o.shift);
    const runs: Record<string, PairedRun> = {};
    for (const t of order) {
      const before = processCpu(t.pid);
      const res = await graphqlLoad({ url: t.url, body: o.body, connections: o.connections, expectBody: t.expectBody, duration: o.runSeconds });
      const after = processCpu(t.pid);
      runs[t.name] = {
        requests: res.requests.total,
        seconds: res.duration,
        userSeconds: after.user - before.user,
        systemSeconds: after.system - before.system,
        problems: res.errors + res.timeouts + res.non2xx + (res.mismatches ?? 0),
      };
    }
    out.push({ order: order.map((t) => t.name), runs });
  }
  return out;
}

/** One engine against the ceiling, per rotation: CPU per request (total, user, system) and req/s, engine ÷ ceiling. */
export interface PairedRatios {
  cpu: number[];
  user: number[];
  system: number[];
  rps: number[];
}

/** The per-rotation ratios of `engine` to `ceiling`; a rotation where either served nothing is left out. */
export function ratiosOf(rotations: PairedRotation[], engine: string, ceiling: string): PairedRatios {
  const out: PairedRatios = { cpu: [], user: [], system: [], rps: [] };
  for (const { runs } of rotations) {
    const e = runs[engine];
    const c = runs[ceiling];
    if (!e || !c || e.requests === 0 || c.requests === 0) continue;
    // Seconds per request of the engine over those of the ceiling.
    const ratio = (engineSeconds: number, ceilingSeconds: number) => (engineSeconds / e.requests) / (ceilingSeconds / c.requests);
    out.cpu.push(ratio(e.userSeconds + e.systemSeconds, c.userSeconds + c.systemSeconds));
    // With no system (or user) ticks at all in a ceiling run the split ratio is not a number: left out.
    if (c.userSeconds > 0) out.user.push(ratio(e.userSeconds, c.userSeconds));
    if (c.systemSeconds > 0) out.system.push(ratio(e.systemSeconds, c.systemSeconds));
    out.rps.push(e.requests / e.seconds / (c.requests / c.seconds));
  }
  return out;
}
