// Load driver: one autocannon run (warm-up, then the measured run) of one query against one target.
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
  durationSeconds: number;
}

export interface LoadOptions {
  url: string; // the target's base URL; requests go to POST {url}/v1/graphql
  body: string;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
}

const run = (o: LoadOptions, duration: number) =>
  autocannon({
    url: `${o.url}/v1/graphql`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: o.body,
    connections: o.connections,
    duration,
    timeout: 30,
  });

export async function measure(o: LoadOptions): Promise<LoadResult> {
  if (o.warmupSeconds > 0) await run(o, o.warmupSeconds);
  const r = await run(o, o.durationSeconds);
  return {
    requestsPerSecond: r.requests.average,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    latencyMeanMs: r.latency.average,
    requests: r.requests.total,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    durationSeconds: r.duration,
  };
}
