// Prometheus metrics of one engine instance (prom-client), scraped at GET /v1/metrics.
// Request metrics are recorded on the hot path through label children cached per label set (prom-client hashes
// the labels on every call otherwise); sampled values (pool, plan cache, metadata seq) are read at scrape time.
//
// Other features register their own metrics on `registry` (`new Counter({..., registers: [metrics.registry]})`)
// or a value read at scrape time with `sampled(...)`; names start with `engine_`.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

type Observe = (seconds: number) => void;

export class EngineMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'endpoint' | 'operation_type' | 'status'>;
  private readonly duration: Histogram<'endpoint' | 'operation_type' | 'status'>;
  private readonly children = new Map<string, Observe>();

  constructor() {
    const labelNames = ['endpoint', 'operation_type', 'status'] as const;
    this.requests = new Counter({
      name: 'engine_http_requests_total', help: 'HTTP requests by endpoint, GraphQL operation type and status.', labelNames, registers: [this.registry],
    });
    this.duration = new Histogram({
      name: 'engine_http_request_duration_seconds', help: 'Time to answer HTTP requests, by endpoint, GraphQL operation type and status.',
      labelNames, buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [this.registry],
    });
  }

  /**
   * One answered request. `endpoint` must come from a bounded set (the route's path, or "other"), `operationType`
   * is query / mutation / subscription, or "" when the request is not (or not yet) a GraphQL operation.
   */
  request(endpoint: string, operationType: string, status: number, seconds: number): void {
    const key = `${endpoint} ${operationType} ${status}`;
    let observe = this.children.get(key);
    if (observe === undefined) {
      const labels = { endpoint, operation_type: operationType, status: String(status) };
      const counter = this.requests.labels(labels);
      const histogram = this.duration.labels(labels);
      observe = (s) => {
        counter.inc();
        histogram.observe(s);
      };
      this.children.set(key, observe);
    }
    observe(seconds);
  }

  /** A gauge whose value(s) are read when the metrics are scraped: `read` returns a number or [labels, number] pairs. */
  sampled(
    name: string, help: string, read: () => number | Array<[Record<string, string>, number]> | Promise<number>, labelNames: string[] = [],
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
