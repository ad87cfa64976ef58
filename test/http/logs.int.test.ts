// Structured logs as the original's: JSON lines {timestamp, level, type, detail}; one http-log line per request with
// detail.operation (request_id, user_vars, response_size, query_execution_time, error) and detail.http_info.
// (test/http/log-types.int.test.ts reads the lines a spawned server prints: log types, query-log, secrets.)
import test from 'ava';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';

const lines: string[] = [];
let e: TestEngine;
test.before(async () => {
  e = await startTestEngine({ logSink: (l) => lines.push(l) });
});
test.after.always(async () => {
  await e?.close();
});

type Line = { timestamp: string; level: string; type: string; detail: Record<string, any> };
const parsed = () => lines.map((l) => JSON.parse(l) as Line);
const httpLogs = () => parsed().filter((x) => x.type === 'http-log');

test.serial('every line is JSON with timestamp, level, type and detail; start-up is logged', (t) => {
  for (const x of parsed()) {
    t.regex(x.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    t.true(['debug', 'info', 'warn', 'error'].includes(x.level));
    t.is(typeof x.type, 'string');
    // An object of fields: not null, not an array (typeof says 'object' for both).
    t.is(Object.prototype.toString.call(x.detail), '[object Object]', JSON.stringify(x));
  }
  const ready = parsed().find((x) => x.type === 'startup' && x.detail.kind === 'server' && /^engine ready on http:/.test(x.detail.info.message));
  t.truthy(ready);
  t.is(typeof ready!.detail.info.time_taken, 'number');
});

test.serial('one http-log line per request: http_info and operation, the error as {path, error, code}', async (t) => {
  const before = httpLogs().length;
  const ok = await e.get('/v1/version', { 'x-request-id': 'log-test-1' });
  const bad = await e.post('/v1/query', '{', { 'x-request-id': 'log-test-2' });
  const missing = await e.get('/missing');
  const logs = httpLogs().slice(before);
  t.is(logs.length, 3);
  t.like(logs[0], {
    level: 'info',
    detail: {
      http_info: { method: 'GET', url: '/v1/version', status: 200, http_version: 'HTTP/1.1', content_encoding: null },
      operation: { request_id: 'log-test-1', response_size: Buffer.byteLength(ok.text) },
    },
  });
  t.regex(logs[0].detail.http_info.ip, /127\.0\.0\.1/);
  t.like(logs[1].detail, {
    http_info: { method: 'POST', url: '/v1/query', status: 400 },
    operation: { request_id: 'log-test-2', error: { path: '$', error: 'invalid json', code: 'invalid-json' } },
  });
  t.like(logs[2].detail, { http_info: { method: 'GET', url: '/missing', status: 404 }, operation: { request_id: missing.headers.get('x-request-id') } });
  for (const l of logs) {
    t.is(typeof l.detail.operation.query_execution_time, 'number');
    t.true(l.detail.operation.query_execution_time >= 0 && l.detail.operation.query_execution_time < 10);
  }
  t.is(ok.status, 200);
  t.is(bad.status, 400);
  t.is(logs[1].detail.operation.response_size, Buffer.byteLength(bad.text));
});

test.serial('GraphQL requests: user_vars of the session; a failed one logs its error and its query', async (t) => {
  const before = httpLogs().length;
  const good = await e.graphql({ query: '{ __typename }' }, { 'x-request-id': 'gq-ok', 'x-engine-role': 'admin', 'x-engine-user-id': '7' });
  const failed = await e.graphql({ query: 'query Q { nope }', operationName: 'Q' }, { 'x-request-id': 'gq-bad' });
  t.is(good.status, 200);
  t.is(failed.status, 200);
  const [g, f] = httpLogs().slice(before);
  t.deepEqual(g.detail.operation.user_vars, { 'x-engine-role': 'admin', 'x-engine-user-id': '7' });
  t.false('error' in g.detail.operation);
  t.false('query' in g.detail.operation, 'no query on success without query-log');
  t.like(f.detail.operation, {
    request_id: 'gq-bad',
    error: { code: 'validation-failed', path: '$.selectionSet.nope' },
    query: { query: 'query Q { nope }', operationName: 'Q', variables: null },
  });
});
