// The engine's HTTP client (src/core/http-client.ts) against real servers on loopback: what it sends, the answer as
// received, and each kind of failure with the name the original's http-client gives it. Event deliveries' wording
// of the same failures (src/triggers/webhook.ts) is checked here too.
import test from 'ava';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { HttpFailure, makeAgents, postJson } from '../../src/core/http-client.js';
import { deliverWebhook } from '../../src/triggers/webhook.js';

interface Seen {
  rawHeaders: string[];
  body: string;
}

/** A server answering with `handler`; what it received. */
async function serve(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ rawHeaders: req.rawHeaders, body: Buffer.concat(chunks).toString('utf8') });
      handler(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook?x=1`,
    seen,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const failureOf = async (p: Promise<unknown>): Promise<HttpFailure> => {
  const e = await p.then(() => null, (x: unknown) => x);
  if (!(e instanceof HttpFailure)) throw new Error(`expected an HttpFailure, got ${String(e)}`);
  return e;
};

test('the body and headers go out as given, with Host and Content-Length; the answer is as received', async (t) => {
  const s = await serve((_req, res) => {
    res.writeHead(201, [['X-One', 'a'], ['Set-Cookie', 'k=1'], ['Set-Cookie', 'k2=2'], ['Content-Type', 'application/json']]);
    res.end('{"ok":true}');
  });
  t.teardown(() => s.close());
  const a = await postJson(s.url, { 'content-type': 'application/json', 'x-engine-ignored-by-nobody': 'v' }, '{"héllo":1}', { timeoutMs: 2000 });
  t.is(a.status, 201);
  t.is(a.body, '{"ok":true}');
  // In the order received, as named (the server's own Date, Connection... left aside).
  t.deepEqual(a.headers.filter((h) => ['X-One', 'Set-Cookie', 'Content-Type'].includes(h.name)), [
    { name: 'X-One', value: 'a' }, { name: 'Set-Cookie', value: 'k=1' }, { name: 'Set-Cookie', value: 'k2=2' }, { name: 'Content-Type', value: 'application/json' },
  ]);
  t.deepEqual(a.headerMap['set-cookie'], ['k=1', 'k2=2']);
  t.is(s.seen[0].body, '{"héllo":1}');
  const sent = Object.fromEntries(s.seen[0].rawHeaders.flatMap((v, i, all) => (i % 2 === 0 ? [[v.toLowerCase(), all[i + 1]]] : [])));
  t.is(sent.host, new URL(s.url).host);
  t.is(sent['content-length'], String(Buffer.byteLength('{"héllo":1}')));
  t.is(sent['x-engine-ignored-by-nobody'], 'v');
});

test('credentials in the URL go out as Basic authorization (decoded), unless the caller gives one; none without them', async (t) => {
  const s = await serve((_req, res) => res.end('{}'));
  t.teardown(() => s.close());
  const withCreds = new URL(s.url);
  withCreds.username = 'us%40er';
  withCreds.password = 'p%3Ass';
  await postJson(withCreds.toString(), {}, '{}', { timeoutMs: 2000 });
  await postJson(s.url, {}, '{}', { timeoutMs: 2000 });
  await postJson(withCreds.toString(), { Authorization: 'Bearer configured' }, '{}', { timeoutMs: 2000 });
  const header = (i: number, name: string) => s.seen[i].rawHeaders.filter((_v, j, all) => j % 2 === 1 && all[j - 1].toLowerCase() === name);
  t.deepEqual(header(0, 'authorization'), [`Basic ${Buffer.from('us@er:p:ss').toString('base64')}`]);
  t.deepEqual(header(1, 'authorization'), []);
  // A header given by the caller (an action's configured header) wins.
  t.deepEqual(header(2, 'authorization'), ['Bearer configured']);
  t.is(header(0, 'host')[0], new URL(s.url).host);
});

test('failures: ResponseTimeout, ConnectionFailure with the code, InvalidUrlException, an abort', async (t) => {
  const slow = await serve((_req, res) => setTimeout(() => res.end('late'), 1000));
  t.teardown(() => slow.close());
  const timeout = await failureOf(postJson(slow.url, {}, '{}', { timeoutMs: 100 }));
  t.like(timeout, { kind: 'timeout', message: 'ResponseTimeout' });

  const refused = await failureOf(postJson(`http://127.0.0.1:${await closedPort()}/`, {}, '{}', { timeoutMs: 2000 }));
  t.like(refused, { kind: 'network', message: 'ConnectionFailure ECONNREFUSED', code: 'ECONNREFUSED' });

  t.like(await failureOf(postJson('ftp://example.com/x', {}, '{}', { timeoutMs: 100 })), {
    kind: 'invalid-url', message: 'InvalidUrlException "ftp://example.com/x" "Invalid scheme"', detail: 'unsupported protocol ftp:',
  });
  t.like(await failureOf(postJson('not a url', {}, '{}', { timeoutMs: 100 })), { kind: 'invalid-url', message: 'InvalidUrlException "not a url" "Invalid URL"' });

  const abort = new AbortController();
  const pending = postJson(slow.url, {}, '{}', { timeoutMs: 5000, signal: abort.signal });
  setTimeout(() => abort.abort(), 50);
  t.like(await failureOf(pending), { kind: 'aborted' });
});

test('a connection dropped while the answer is read: a failure carrying what arrived; a capped body', async (t) => {
  const dropping = await serve((_req, res) => {
    res.writeHead(200, { 'content-length': '100' });
    res.write('{"par');
    setTimeout(() => res.socket?.destroy(), 20);
  });
  t.teardown(() => dropping.close());
  const f = await failureOf(postJson(dropping.url, {}, '{}', { timeoutMs: 2000 }));
  t.like(f, { kind: 'network', message: 'ConnectionFailure' });
  t.is(f.partial?.status, 200);
  t.is(f.partial?.body, '{"par');

  const big = await serve((_req, res) => res.end('x'.repeat(70_000)));
  t.teardown(() => big.close());
  t.is((await postJson(big.url, {}, '{}', { timeoutMs: 2000, maxBody: 65_536 })).body.length, 65_536);
});

test('event deliveries word the failures for the invocation log, and a dropped answer is still an answer', async (t) => {
  const agents = makeAgents(4);
  t.teardown(() => agents.destroy());
  const slow = await serve((_req, res) => setTimeout(() => res.end('late'), 1000));
  t.teardown(() => slow.close());
  t.deepEqual(await deliverWebhook(slow.url, '{}', [], 100, agents), { kind: 'client_error', message: 'ResponseTimeout: no response within 100 ms' });
  t.deepEqual(await deliverWebhook('ftp://example.com/', '{}', [], 100, agents), { kind: 'client_error', message: 'invalid webhook url: unsupported protocol ftp:' });
  const abort = new AbortController();
  abort.abort();
  t.deepEqual(await deliverWebhook(slow.url, '{}', [], 1000, agents, abort.signal), { kind: 'client_error', message: 'delivery aborted: the engine is shutting down' });

  const dropping = await serve((_req, res) => {
    res.writeHead(502, { 'x-why': 'gone' });
    res.write('par');
    setTimeout(() => res.socket?.destroy(), 20);
  });
  t.teardown(() => dropping.close());
  const o = await deliverWebhook(dropping.url, '{}', [{ name: 'CONTENT-TYPE', value: 'text/plain' }], 2000, agents);
  t.like(o, { kind: 'response', status: 502, body: 'par' });
  t.true(o.kind === 'response' && o.headers.some((h) => h.name === 'x-why' && h.value === 'gone'));
  // The configured content-type replaced the default one: one header, the configured value.
  const sent = dropping.seen[0].rawHeaders.filter((_, i, all) => i % 2 === 1 && all[i - 1].toLowerCase() === 'content-type');
  t.deepEqual(sent, ['text/plain']);
});

/** A raw TCP server: `answer` gets each connection (what node:http would not let a server send). */
async function rawServer(answer: (socket: net.Socket) => void): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    answer(s);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((r) => { for (const s of sockets) s.destroy(); server.close(() => r()); }),
  };
}

test('an HTTP/1.0 answer without a Content-Length is read until the server closes', async (t) => {
  const s = await rawServer((socket) => socket.once('data', () => socket.end('HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n{"old":"server"}')));
  t.teardown(() => s.close());
  const a = await postJson(s.url, {}, '{}', { timeoutMs: 2000 });
  t.is(a.status, 200);
  t.is(a.body, '{"old":"server"}');
});

test('a server that closes without answering: ConnectionFailure ECONNRESET ("socket hang up", as node:http words it)', async (t) => {
  const s = await rawServer((socket) => socket.once('data', () => socket.end()));
  t.teardown(() => s.close());
  t.like(await failureOf(postJson(s.url, {}, '{}', { timeoutMs: 2000 })), {
    kind: 'network', message: 'ConnectionFailure ECONNRESET', code: 'ECONNRESET', detail: 'socket hang up',
  });
});

test("the header map is node:http's own reading of the same answer (repeated headers joined, kept first, listed)", async (t) => {
  const s = await serve((_req, res) => {
    res.writeHead(200, [
      ['X-Dup', 'a'], ['Content-Type', 'application/json'], ['x-dup', 'b'], ['Content-Type', 'text/plain'],
      ['Set-Cookie', 'k=1'], ['Server', 'one'], ['Server', 'two'], ['Set-Cookie', 'k2=2'], ['Cookie', 'c=1'], ['Cookie', 'c=2'],
    ]);
    res.end('{}');
  });
  t.teardown(() => s.close());
  const ours = (await postJson(s.url, {}, '{}', { timeoutMs: 2000 })).headerMap;
  const nodes = await new Promise<http.IncomingHttpHeaders>((resolve, reject) => {
    const req = http.request(s.url, { method: 'POST', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers));
    });
    req.on('error', reject);
    req.end('{}');
  });
  // The Date header may tick between the two answers; Connection and Keep-Alive follow each client's keep-alive.
  const without = (h: http.IncomingHttpHeaders) => Object.fromEntries(Object.entries(h).filter(([k]) => !['date', 'connection', 'keep-alive'].includes(k)));
  t.deepEqual(without(ours), without(nodes));
  t.is(ours['x-dup'], 'a, b'); // the server did repeat it
});

test('hop-by-hop headers a caller gives are not sent, and the call goes out; keep-alive reuses the connection', async (t) => {
  const ports: number[] = [];
  const s = await serve((req, res) => {
    ports.push(req.socket.remotePort!);
    res.end('{}');
  });
  t.teardown(() => s.close());
  const agents = makeAgents(1);
  t.teardown(() => agents.destroy());
  const a = await postJson(s.url, { Connection: 'upgrade', 'Transfer-Encoding': 'chunked', 'Content-Length': '999', 'X-Kept': 'yes' }, '{"a":1}', { timeoutMs: 2000, agents });
  t.is(a.status, 200);
  await postJson(s.url, {}, '{}', { timeoutMs: 2000, agents });
  const names = s.seen[0].rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
  t.false(names.includes('transfer-encoding'));
  t.true(names.includes('x-kept'));
  t.is(s.seen[0].body, '{"a":1}');
  t.is(ports[0], ports[1]);
});
