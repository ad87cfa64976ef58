// The floor for bench/actions.ts, in its own process: the least a Node server can do per sync action — node:http
// in, one keep-alive (noDelay) POST of the fixed handler body out, the answer wrapped as the engine's `data`. No
// GraphQL, no session, no validation: engine/floor says what the engine's own work costs, engine/direct what the
// extra hop costs at all. The call goes out through node:http's client (the floor), or with
// BENCH_PROXY_CLIENT=undici through undici's dispatcher, the client the engine uses (src/core/http-client.ts).
// Prints `{"msg":"proxy.ready","url":...}` when listening.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';

const target = new URL(process.env.BENCH_PROXY_TARGET ?? '');
const BODY = JSON.stringify({ action: { name: 'echo' }, input: { id: 1 }, session_variables: { 'x-engine-role': 'admin' } });
const HEADERS = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(BODY)) };

type Send = (done: (answer: Buffer | null) => void) => void;

/** node:http's client, a keep-alive agent. */
function nodeHttp(): Send {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256, noDelay: true });
  return (done) => {
    const out = http.request({ method: 'POST', hostname: target.hostname, port: target.port, path: target.pathname, agent, headers: HEADERS }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => done(Buffer.concat(chunks)));
    });
    out.on('error', () => done(null));
    out.end(BODY);
  };
}

/** undici's dispatcher, a keep-alive pool per origin. */
function undici(): Send {
  const agent = new Agent({ connections: 256 }); // undici sets noDelay on its sockets
  const headers = ['content-type', 'application/json'];
  return (done) => {
    const chunks: Buffer[] = [];
    agent.dispatch({ origin: target.origin, path: target.pathname, method: 'POST', headers, body: BODY }, {
      onConnect: () => undefined,
      onHeaders: () => true,
      onData: (c: Buffer) => {
        chunks.push(c);
        return true;
      },
      onComplete: () => done(Buffer.concat(chunks)),
      onError: () => done(null),
    });
  };
}

const send = process.env.BENCH_PROXY_CLIENT === 'undici' ? undici() : nodeHttp();
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => send((answer) => {
    if (answer === null) {
      res.writeHead(502);
      res.end();
      return;
    }
    const body = `{"data":{"echo":${answer.toString('utf8')}}}`;
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)) });
    res.end(body);
  }));
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.BENCH_PROXY_PORT ?? 0), '127.0.0.1', () => {
  console.log(JSON.stringify({ msg: 'proxy.ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
