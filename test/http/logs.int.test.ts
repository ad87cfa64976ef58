// Structured logs: JSON lines, one per request with method, path, status, ms and request id; errors carry their code.
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

const httpLogs = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((x) => x.type === 'http-log');

test.serial('every line is JSON with timestamp, level and type; start-up is logged', (t) => {
  for (const l of lines) {
    const x = JSON.parse(l);
    t.truthy(x.timestamp);
    t.true(['debug', 'info', 'warn', 'error'].includes(x.level));
    t.is(typeof x.type, 'string');
  }
  t.true(lines.some((l) => l.includes('engine ready on')));
});

test.serial('one line per request, with method, path, status, ms, request id and the error code', async (t) => {
  const before = httpLogs().length;
  const ok = await e.get('/v1/version', { 'x-request-id': 'log-test-1' });
  const bad = await e.post('/v1/query', '{', { 'x-request-id': 'log-test-2' });
  const missing = await e.get('/missing');
  const logs = httpLogs().slice(before);
  t.is(logs.length, 3);
  t.like(logs[0], { method: 'GET', path: '/v1/version', status: 200, request_id: 'log-test-1', level: 'info' });
  t.like(logs[1], { method: 'POST', path: '/v1/query', status: 400, request_id: 'log-test-2', error_code: 'invalid-json' });
  t.like(logs[2], { method: 'GET', path: '/missing', status: 404, request_id: missing.headers.get('x-request-id') });
  for (const l of logs) t.is(typeof l.ms, 'number');
  t.is(ok.status, 200);
  t.is(bad.status, 400);
});
