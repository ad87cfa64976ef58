// The http-log line as logRequest writes it: strings and session variables with every kind of character are the
// JSON the original would print, and each line's http_info is its own request's, also when a keep-alive connection
// sends requests that differ in method, path, status, encoding or HTTP version.
import test from 'ava';
import type { IncomingMessage } from 'node:http';
import { configureLog } from '../../src/core/log.js';
import { EngineMetrics } from '../../src/core/metrics.js';
import { logRequest, type RequestOutcome } from '../../src/http/request-log.js';

interface Line {
  type: string;
  detail: { operation: Record<string, unknown>; http_info: Record<string, unknown> };
}

/** Lines logRequest writes for the outcomes, each on its own request of the socket (the logger restored after). */
function lines(requests: Array<{ req: Partial<IncomingMessage>; outcome: Partial<RequestOutcome> }>): Line[] {
  const out: string[] = [];
  configureLog('info', (l) => out.push(l), ['http-log']);
  try {
    const metrics = new EngineMetrics();
    for (const { req, outcome } of requests) {
      logRequest(metrics, { method: 'POST', httpVersionMajor: 1, httpVersionMinor: 1, httpVersion: '1.1', ...req } as IncomingMessage, {
        endpoint: '/v1/graphql', url: '/v1/graphql', status: 200, started: process.hrtime.bigint(), requestId: 'r', responseSize: 10,
        contentEncoding: null, ...outcome,
      });
    }
  } finally {
    configureLog('silent');
  }
  return out.map((l) => JSON.parse(l) as Line);
}

const socket = (remoteAddress: string | undefined) => ({ remoteAddress }) as IncomingMessage['socket'];

test('request ids and session variables are written as JSON.stringify writes them, whatever their characters', (t) => {
  const odd = ['plain', 'a"quote', 'back\\slash', 'tab\tnew\nline', '\u0001\u001f', 'é中🙂', '\ud800', '<script>', '', ' spaced out '];
  const variables: Record<string, string>[] = [
    { 'x-engine-role': 'admin' },
    ...odd.map((v, i) => ({ 'x-engine-role': 'user', [`x-engine-${i}`]: v })),
    { 'x-engine-"odd" name': 'x', 'x-engine-é': 'y' },
    // JWT sessions carry the allowed roles as a list: written as one.
    { 'x-engine-allowed-roles': ['user', 'editor'] as unknown as string, 'x-engine-role': 'user' },
  ];
  const ids = ['3f1a2b4c-5d6e-4f70-8192-a3b4c5d6e7f8', ...odd];
  const got = lines([
    ...variables.map((userVars) => ({ req: { socket: socket('127.0.0.1') }, outcome: { userVars } })),
    ...ids.map((requestId) => ({ req: { socket: socket('127.0.0.1') }, outcome: { requestId } })),
  ]);
  t.deepEqual(got.slice(0, variables.length).map((l) => l.detail.operation.user_vars), variables.map((v) => JSON.parse(JSON.stringify(v))));
  t.deepEqual(got.slice(variables.length).map((l) => l.detail.operation.request_id), ids.map((v) => JSON.parse(JSON.stringify(v))));
});

test('one keep-alive connection: every line has its own request\'s method, path, status, encoding and version', (t) => {
  const s = socket('::ffff:10.1.2.3');
  const requests: Array<{ req: Partial<IncomingMessage>; outcome: Partial<RequestOutcome> }> = [
    { req: { socket: s }, outcome: {} },
    { req: { socket: s }, outcome: {} },
    { req: { socket: s }, outcome: { status: 400 } },
    { req: { socket: s, method: 'GET' }, outcome: { status: 400 } },
    { req: { socket: s, method: 'GET' }, outcome: { status: 400, url: '/v1/version' } },
    { req: { socket: s, method: 'GET' }, outcome: { status: 400, url: '/v1/version', contentEncoding: 'gzip' } },
    { req: { socket: s, method: 'GET', httpVersionMinor: 0, httpVersion: '1.0' }, outcome: { status: 400, url: '/v1/version', contentEncoding: 'gzip' } },
    { req: { socket: s }, outcome: {} },
  ];
  const expected = requests.map(({ req, outcome }) => ({
    status: outcome.status ?? 200, method: req.method ?? 'POST', ip: '10.1.2.3', url: outcome.url ?? '/v1/graphql',
    http_version: `HTTP/${req.httpVersion ?? '1.1'}`, content_encoding: outcome.contentEncoding ?? null,
  }));
  t.deepEqual(lines(requests).map((l) => l.detail.http_info), expected);
});

test('a connection whose address is not known yet has no ip; a later line on it that knows one has it', (t) => {
  const s = { remoteAddress: undefined as string | undefined };
  const first = lines([{ req: { socket: s as IncomingMessage['socket'] }, outcome: {} }]);
  s.remoteAddress = '127.0.0.1';
  const second = lines([{ req: { socket: s as IncomingMessage['socket'] }, outcome: {} }]);
  t.false('ip' in first[0].detail.http_info);
  t.is(second[0].detail.http_info.ip, '127.0.0.1');
  // Two connections never share a line's end.
  const [a, b] = lines([{ req: { socket: socket('10.0.0.1') }, outcome: {} }, { req: { socket: socket('10.0.0.2') }, outcome: {} }]);
  t.deepEqual([a.detail.http_info.ip, b.detail.http_info.ip], ['10.0.0.1', '10.0.0.2']);
});
