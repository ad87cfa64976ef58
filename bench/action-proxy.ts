// The floor for bench/actions.ts, in its own process: the least a Node server can do per sync action — node:http
// in, one keep-alive (noDelay) POST of the fixed handler body out, the answer wrapped as the engine's `data`. No
// GraphQL, no session, no validation: engine/floor says what the engine's own work costs, engine/direct what the
// extra hop costs at all. Prints `{"msg":"proxy.ready","url":...}` when listening.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const target = new URL(process.env.BENCH_PROXY_TARGET ?? '');
const agent = new http.Agent({ keepAlive: true, maxSockets: 256, noDelay: true });
const BODY = JSON.stringify({ action: { name: 'echo' }, input: { id: 1 }, session_variables: { 'x-engine-role': 'admin' } });
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const out = http.request({
      method: 'POST', hostname: target.hostname, port: target.port, path: target.pathname, agent,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(BODY)) },
    }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const body = `{"data":{"echo":${Buffer.concat(chunks).toString('utf8')}}}`;
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)) });
        res.end(body);
      });
    });
    out.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    out.end(BODY);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.BENCH_PROXY_PORT ?? 0), '127.0.0.1', () => {
  console.log(JSON.stringify({ msg: 'proxy.ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
