// Prometheus metrics of one engine instance (prom-client), scraped at GET /v1/metrics.
// Request metrics are plain numbers per label set on the hot path (label sets found through nested maps of the
// label values, no string built, no label hashing) and turned into prom-client's counter and histogram values at
// scrape time; sampled values (pool, plan cache, metadata seq) are read at scrape time too.
//
// Other features register their own metrics on `registry` (`new Counter({..., registers: [metrics.registry]})`)
// or a value read at scrape time with `sampled(...)`; names start with `engine_`.
import { Gauge, Registry, type Metric } from 'prom-client';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** One label set's request count, latency sum and (non-cumulative) bucket counts. */
interface Series {
  labels: { endpoint: string; operation_type: string; status: string };
  count: number;
  sum: number;
  buckets: Float64Array;
}

/** A sampled gauge's value: one number, or numbers by label set. */
type Sample = number | Array<[Record<string, string>, number]>;

type MetricValue = { labels: Record<string, string | number>; value: number; metricName?: string };

export class EngineMetrics {
  readonly registry = new Registry();
  private readonly series: Series[] = [];
  /** endpoint → operation type → status → series. */
  private readonly index = new Map<string, Map<string, Map<number, Series>>>();

  constructor() {
    this.custom('engine_http_requests_total', 'HTTP requests by endpoint, GraphQL operation type and status.', 'counter',
      () => this.series.map((s) => ({ labels: s.labels, value: s.count })));
    this.custom('engine_http_request_duration_seconds', 'Time to answer HTTP requests, by endpoint, GraphQL operation type and status.', 'histogram',
      () => this.series.flatMap((s) => histogramValues('engine_http_request_duration_seconds', s)));
  }

  /**
   * One answered request. `endpoint` must come from a bounded set (the route's path, or "other"), `operationType`
   * is query / mutation / subscription, or "" when the request is not (or not yet) a GraphQL operation.
   */
  request(endpoint: string, operationType: string, status: number, seconds: number): void {
    let byOp = this.index.get(endpoint);
    if (byOp === undefined) this.index.set(endpoint, (byOp = new Map()));
    let byStatus = byOp.get(operationType);
    if (byStatus === undefined) byOp.set(operationType, (byStatus = new Map()));
    let s = byStatus.get(status);
    if (s === undefined) {
      s = { labels: { endpoint, operation_type: operationType, status: String(status) }, count: 0, sum: 0, buckets: new Float64Array(BUCKETS.length) };
      byStatus.set(status, s);
      this.series.push(s);
    }
    s.count++;
    s.sum += seconds;
    for (let i = 0; i < BUCKETS.length; i++) {
      if (seconds <= BUCKETS[i]) {
        s.buckets[i]++;
        break;
      }
    }
  }

  /** A metric whose exposition values are computed at scrape time (prom-client's registry only calls get()). */
  private custom(name: string, help: string, type: 'counter' | 'histogram', values: () => MetricValue[]): void {
    const metric = {
      name,
      help,
      type,
      aggregator: 'sum',
      get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
      reset: () => undefined,
    };
    this.registry.registerMetric(metric as unknown as Metric);
  }

  /** A gauge whose value(s) are read when the metrics are scraped: `read` returns a number or [labels, number] pairs. */
  sampled(
    name: string, help: string, read: () => Sample | Promise<Sample>, labelNames: string[] = [],
  ): Gauge<string> {
    return new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        const v = await read();
        if (typeof v === 'number') this.set(v);
        else for (const [labels, n] of v) this.set(labels, n);
      },
    });
  }

  /** The exposition text (content type: `contentType`). */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/** A histogram series as Prometheus wants it: cumulative buckets up to +Inf, then sum and count. */
function histogramValues(name: string, s: Series): MetricValue[] {
  const out: MetricValue[] = [];
  let cumulative = 0;
  BUCKETS.forEach((le, i) => {
    cumulative += s.buckets[i];
    out.push({ metricName: `${name}_bucket`, labels: { ...s.labels, le }, value: cumulative });
  });
  out.push({ metricName: `${name}_bucket`, labels: { ...s.labels, le: '+Inf' }, value: s.count });
  out.push({ metricName: `${name}_sum`, labels: s.labels, value: s.sum });
  out.push({ metricName: `${name}_count`, labels: s.labels, value: s.count });
  return out;
}
