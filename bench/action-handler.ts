// The action handler of bench/actions.ts, in its own process: node:http answering every POST at once with the
// same small object (the output type `Out`). Prints `{"msg":"handler.ready","url":...}` when listening.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const BODY = JSON.stringify({ id: 1, name: 'bench' });
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(BODY.length) });
    res.end(BODY);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.BENCH_HANDLER_PORT ?? 0), '127.0.0.1', () => {
  console.log(JSON.stringify({ msg: 'handler.ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
