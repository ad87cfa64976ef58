// The GraphQL endpoints (direct routes of the request pipeline, src/http/pipeline.ts) against the expected exchanges
// of ./graphql-exchanges.ts: status, every header but Date and the connection's, body, and the http-log line. Then
// a koa-served route (/v1/query) against a direct one: the same pipeline headers (request id, CORS) and preflights.
import test from 'ava';
import { gunzipSync } from 'node:zlib';
import http from 'node:http';
import net from 'node:net';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';
import { EXCHANGES, SETUP_SQL, type Exchange } from './graphql-exchanges.js';

const lines: string[] = [];
let e: TestEngine;
let noCors: TestEngine;
test.before(async () => {
  e = await startTestEngine({ logSink: (l) => lines.push(l) });
  noCors = await startTestEngine({ disableCors: true, logSink: (l) => lines.push(l) });
  for (const engine of [e, noCors]) {
    const r = await engine.query({ type: 'run_sql', args: { sql: SETUP_SQL } });
    if (r.status !== 200) throw new Error(r.text);
    const t = await engine.query({ type: 'track_table', args: { schema: 'public', name: 'item' } });
    if (t.status !== 200) throw new Error(t.text);
  }
});
test.after.always(async () => {
  await Promise.all([e?.close(), noCors?.close()]);
});

interface Raw { status: number; headers: [string, string][]; body: Buffer }

/** A raw request (node:http keeps header order and leaves gzip bodies alone). */
function raw(url: string, path: string, body: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const hs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) hs.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
        resolve({ status: res.statusCode!, headers: hs, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Headers that belong to the connection or the clock, not to the answer. */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The expected value with each placeholder the actual value satisfies replaced by it (so a diff shows only real misses). */
function resolve(expected: unknown, actual: unknown, known: Record<string, string>): unknown {
  if (typeof expected === 'string') {
    if (expected in known) return known[expected];
    if (expected === '<uuid>') return typeof actual === 'string' && UUID.test(actual) ? actual : expected;
    if (expected === '<string>') return typeof actual === 'string' && actual !== '' ? actual : expected;
    return expected;
  }
  if (Array.isArray(expected)) return expected.map((x, i) => resolve(x, Array.isArray(actual) ? actual[i] : undefined, known));
  if (expected !== null && typeof expected === 'object') {
    const a = (actual ?? {}) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, resolve(v, a[k], known)]));
  }
  return expected;
}

const httpLogOf = (requestId: string) =>
  lines.map((l) => JSON.parse(l) as { type: string; detail: { operation: Record<string, unknown> } }).find((x) => x.type === 'http-log' && x.detail.operation.request_id === requestId);

for (const x of EXCHANGES) {
  test.serial(`exchange: ${x.name}`, async (t) => {
    const server = x.server === 'no-cors' ? noCors : e;
    const res = await raw(server.url, x.request.path, x.request.bodyText ?? JSON.stringify(x.request.body), x.request.headers);
    const headers = Object.fromEntries(res.headers.filter(([k]) => !TRANSPORT.has(k.toLowerCase())).map(([k, v]) => [k.toLowerCase(), v]));
    t.is(res.headers.filter(([k]) => !TRANSPORT.has(k.toLowerCase())).length, Object.keys(headers).length, 'a header sent twice');
    const gzipped = headers['content-encoding'] === 'gzip';
    const text = (gzipped ? gunzipSync(res.body) : res.body).toString('utf8');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* compared as text: the expectation is JSON, so it fails below */
    }
    const known = { '<body length>': String(res.body.length) };
    t.deepEqual({ status: res.status, headers, body }, resolve(x.response, { status: res.status, headers, body }, known) as Exchange['response']);

    // The log line of this request (its id is the one the response carries), written once the response is out.
    const requestId = headers['x-request-id'] ?? '';
    for (const end = Date.now() + 30_000; !httpLogOf(requestId) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
    const line = httpLogOf(requestId);
    // As the original: a line that carries the request's error, or answers 400 or more, is at level error.
    const level = x.response.status >= 400 || 'error' in x.log.operation ? 'error' : 'info';
    t.like(line, resolve({ level, detail: x.log }, line, { '<uuid>': requestId }) as object);
    t.is(line !== undefined && 'error' in line.detail.operation, 'error' in x.log.operation, 'an error logged iff the request failed');
    t.is(line?.detail.operation.response_size, res.body.length);
  });
}

test.serial('one pipeline: a koa route and a direct route get the same request id and CORS headers, and preflights alike', async (t) => {
  const origin = { origin: 'http://example.com', 'x-request-id': 'same-id' };
  const pipelineHeaders = (r: Raw) => r.headers.filter(([k]) => k === 'x-request-id' || k.startsWith('Access-Control-'));
  const direct = await raw(e.url, '/v1/graphql', JSON.stringify({ query: '{ __typename }' }), origin);
  const viaKoa = await raw(e.url, '/v1/query', JSON.stringify({ type: 'export_metadata', args: {} }), origin);
  t.is(direct.status, 200);
  t.is(viaKoa.status, 200);
  t.deepEqual(pipelineHeaders(viaKoa), pipelineHeaders(direct));
  t.deepEqual(pipelineHeaders(direct), [
    ['x-request-id', 'same-id'],
    ['Access-Control-Allow-Origin', 'http://example.com'],
    ['Access-Control-Allow-Credentials', 'true'],
    ['Access-Control-Allow-Methods', 'GET,POST,PUT,PATCH,DELETE,OPTIONS'],
  ]);
  const preflight = (path: string) => new Promise<{ status: number; headers: [string, string][] }>((resolve, reject) => {
    const req = http.request(`${e.url}${path}`, { method: 'OPTIONS', headers: { ...origin, 'access-control-request-headers': 'content-type' } }, (res) => {
      res.resume();
      const hs: [string, string][] = [];
      for (let i = 0; i < res.rawHeaders.length; i += 2) hs.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
      res.on('end', () => resolve({ status: res.statusCode!, headers: hs.filter(([k]) => k !== 'Date' && k !== 'Connection' && k !== 'Keep-Alive') }));
    });
    req.on('error', reject);
    req.end();
  });
  const [p1, p2] = [await preflight('/v1/graphql'), await preflight('/v1/query')];
  t.is(p1.status, 204);
  t.deepEqual(p1, p2);
  t.deepEqual(p1.headers.slice(-2), [['Access-Control-Max-Age', '1728000'], ['Access-Control-Allow-Headers', 'content-type']]);
});

test.serial('a direct route is matched as the router matched it: any case, one trailing slash', async (t) => {
  const body = JSON.stringify({ query: '{ item(limit: 1, order_by: {id: asc}) { id } }' });
  for (const path of ['/v1/graphql/', '/V1/GraphQL', '/v1/graphql/?x=1']) {
    const r = await raw(e.url, path, body);
    t.is(r.status, 200, path);
    t.deepEqual(JSON.parse(r.body.toString('utf8')), { data: { item: [{ id: 1 }] } }, path);
  }
  t.is((await raw(e.url, '/v1/graphql//', body)).status, 404);
});

test.serial('a client gone before its body ended: the request is logged as failed, and the engine goes on serving', async (t) => {
  const { hostname, port } = new URL(e.url);
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write('POST /v1/graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\nx-request-id: gone-early\r\n\r\n{"query":');
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, 100);
    });
    socket.on('error', reject);
  });
  for (const end = Date.now() + 30_000; !httpLogOf('gone-early') && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
  const line = httpLogOf('gone-early') as { level?: string; detail: { operation: { error?: { error: string } } } } | undefined;
  t.is(line?.level, 'error');
  t.is(line?.detail.operation.error?.error, 'an unexpected error occurred');
  const r = await raw(e.url, '/v1/graphql', JSON.stringify({ query: '{ item(limit: 1, order_by: {id: asc}) { id } }' }));
  t.deepEqual(JSON.parse(r.body.toString('utf8')), { data: { item: [{ id: 1 }] } });
});
