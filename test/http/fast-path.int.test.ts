// POST /v1/graphql is a direct route of the request pipeline (src/http/pipeline.ts) and /v1/graphql?x is the same
// route: both must answer the same (status, headers but Date and generated request ids, body, log line) for success,
// errors, CORS, gzip, legacy paths. A koa-served route gets the same pipeline headers (request id, CORS, preflight).
import test from 'ava';
import { gunzipSync } from 'node:zlib';
import http from 'node:http';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';

const lines: string[] = [];
let e: TestEngine;
let noCors: TestEngine;
test.before(async () => {
  e = await startTestEngine({ logSink: (l) => lines.push(l) });
  noCors = await startTestEngine({ disableCors: true, logSink: (l) => lines.push(l) });
  const r = await e.query({ type: 'run_sql', args: { sql: "CREATE TABLE item (id int PRIMARY KEY, name text); INSERT INTO item SELECT g, repeat('x', 20) || g FROM generate_series(1, 200) g;" } });
  if (r.status !== 200) throw new Error(r.text);
  const t = await e.query({ type: 'track_table', args: { schema: 'public', name: 'item' } });
  if (t.status !== 200) throw new Error(t.text);
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

const comparable = (r: Raw, headers: Record<string, string>) => ({
  status: r.status,
  // Date varies; a generated request id differs per request.
  headers: r.headers.filter(([k]) => k !== 'Date' && !(k === 'x-request-id' && !headers['x-request-id'])),
  body: r.headers.some(([k, v]) => k === 'Content-Encoding' && v === 'gzip') ? gunzipSync(r.body).toString('utf8') : r.body.toString('utf8'),
});

const cases: Array<[string, string, Record<string, string>]> = [
  ['a query', JSON.stringify({ query: '{ item(limit: 2, order_by: {id: asc}) { id name } }' }), { 'x-request-id': 'fp-1' }],
  ['variables and an operation name', JSON.stringify({ query: 'query Q($id: Int!) { item_by_pk(id: $id) { name } }', variables: { id: 3 }, operationName: 'Q' }), {}],
  ['a batch', JSON.stringify([{ query: '{ item(limit: 1) { id } }' }, { query: '{ item_by_pk(id: 2) { id } }' }]), {}],
  ['invalid JSON', '{', { 'x-request-id': 'fp-2' }],
  ['a validation error', JSON.stringify({ query: '{ nope }' }), {}],
  ['a bad body shape', JSON.stringify({ query: 1 }), {}],
  ['an origin (CORS)', JSON.stringify({ query: '{ item(limit: 1) { id } }' }), { origin: 'http://example.com' }],
  ['gzip for a big body', JSON.stringify({ query: '{ item { id name } }' }), { 'accept-encoding': 'gzip, deflate' }],
  ['gzip accepted but a small body', JSON.stringify({ query: '{ item(limit: 1) { id } }' }), { 'accept-encoding': 'gzip' }],
  ['a min metadata version already reached', JSON.stringify({ query: '{ item(limit: 1) { id } }' }), { 'x-engine-min-metadata-version': '1' }],
  ['a role without permissions', JSON.stringify({ query: '{ item { id } }' }), { 'x-engine-role': 'user' }],
];

for (const [name, body, headers] of cases) {
  test.serial(`fast path = koa path: ${name}`, async (t) => {
    const before = lines.length;
    const fast = await raw(e.url, '/v1/graphql', body, headers);
    const koa = await raw(e.url, '/v1/graphql?via=koa', body, headers);
    t.deepEqual(comparable(fast, headers), comparable(koa, headers));
    t.is(fast.status, 200);
    // One log line each, the same but for ms and a generated request id.
    const logs = lines.slice(before).map((l) => JSON.parse(l) as Record<string, unknown>).filter((x) => x.type === 'http-log');
    t.is(logs.length, 2);
    type Line = { detail: { operation: Record<string, unknown>; http_info: Record<string, unknown> } };
    const strip = (x: Record<string, unknown>) => {
      const { operation, http_info } = (x as unknown as Line).detail;
      const op = { ...operation, query_execution_time: typeof operation.query_execution_time, request_id: headers['x-request-id'] ?? typeof operation.request_id };
      return { ...x, timestamp: 0, detail: { operation: op, http_info } };
    };
    t.deepEqual(strip(logs[0]), strip(logs[1]));
    t.like(logs[0], { detail: { http_info: { method: 'POST', url: '/v1/graphql', status: 200 } } });
  });
}

test.serial('fast path: the request id is echoed and logged', async (t) => {
  const before = lines.length;
  const r = await raw(e.url, '/v1/graphql', JSON.stringify({ query: '{ item(limit: 1) { id } }' }), { 'x-request-id': 'fp-echo' });
  t.true(r.headers.some(([k, v]) => k === 'x-request-id' && v === 'fp-echo'));
  t.true(lines.slice(before).some((l) => l.includes('"request_id":"fp-echo"')));
});

test.serial('fast path with CORS disabled: no CORS headers', async (t) => {
  const body = JSON.stringify({ query: '{ __typename }' });
  const fast = await raw(noCors.url, '/v1/graphql', body, { origin: 'http://example.com' });
  const koa = await raw(noCors.url, '/v1/graphql?via=koa', body, { origin: 'http://example.com' });
  t.deepEqual(comparable(fast, {}), comparable(koa, {}));
  t.false(fast.headers.some(([k]) => k.toLowerCase().startsWith('access-control')));
});

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
