// EngineMetrics: request counts and latency histograms per label set, exposed in Prometheus text at scrape time.
import test from 'ava';
import { EngineMetrics } from '../../src/core/metrics.js';

const value = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

test('counts and cumulative buckets per (endpoint, operation_type, status)', async (t) => {
  const m = new EngineMetrics();
  m.request('/v1/graphql', 'query', 200, 0.0005);
  m.request('/v1/graphql', 'query', 200, 0.003);
  m.request('/v1/graphql', 'query', 200, 20);
  m.request('/v1/query', '', 400, 0.01);
  const text = await m.scrape();
  const q = 'endpoint="/v1/graphql",operation_type="query",status="200"';
  t.is(value(text, `engine_http_requests_total{${q}}`), 3);
  t.is(value(text, `engine_http_requests_total{endpoint="/v1/query",operation_type="",status="400"}`), 1);
  t.is(value(text, `engine_http_request_duration_seconds_bucket{${q},le="0.001"}`), 1);
  t.is(value(text, `engine_http_request_duration_seconds_bucket{${q},le="0.005"}`), 2);
  t.is(value(text, `engine_http_request_duration_seconds_bucket{${q},le="10"}`), 2);
  t.is(value(text, `engine_http_request_duration_seconds_bucket{${q},le="+Inf"}`), 3);
  t.is(value(text, `engine_http_request_duration_seconds_count{${q}}`), 3);
  t.is(value(text, `engine_http_request_duration_seconds_sum{${q}}`), 20.0035);
  t.regex(text, /# TYPE engine_http_request_duration_seconds histogram/);
  t.regex(text, /# TYPE engine_http_requests_total counter/);
});

test('sampled gauges are read at scrape time', async (t) => {
  const m = new EngineMetrics();
  let n = 1;
  m.sampled('engine_test_value', 'a test value', () => n);
  m.sampled('engine_test_states', 'by state', () => [[{ state: 'a' }, 2], [{ state: 'b' }, 3]], ['state']);
  t.is(value(await m.scrape(), 'engine_test_value'), 1);
  n = 7;
  const text = await m.scrape();
  t.is(value(text, 'engine_test_value'), 7);
  t.is(value(text, 'engine_test_states{state="b"}'), 3);
});
