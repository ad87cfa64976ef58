// The action handler of bench/actions.ts, in its own process: node:http answering every POST at once with the
// same small object (the output type `Out`), after BENCH_HANDLER_WORK_MS of CPU work per call (default 0: a handler
// that does real work, against which the engine's own share should vanish). Prints `{"msg":"handler.ready","url":...}`
// when listening.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const BODY = JSON.stringify({ id: 1, name: 'bench' });
const WORK_MS = Number(process.env.BENCH_HANDLER_WORK_MS ?? 0);

/** Busy for `ms` (CPU, not a timer: a timer would let one process serve many calls at once). */
function work(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (WORK_MS > 0) work(WORK_MS);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(BODY.length) });
    res.end(BODY);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.BENCH_HANDLER_PORT ?? 0), '127.0.0.1', () => {
  console.log(JSON.stringify({ msg: 'handler.ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
