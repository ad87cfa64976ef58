// A real action handler for the tests: node:http on a free loopback port; every request is recorded, and each
// route answers as its name says.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** When `/slow` answers: far beyond the 1 s timeout the tests give it. */
export const SLOW_MS = 20_000;

export interface Recorded {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: { action: { name: string }; input: Record<string, unknown>; session_variables: Record<string, string> };
}

export interface Handler {
  url: string;
  calls: Recorded[];
  /** Extra route behaviour set by a test. */
  routes: Map<string, (r: Recorded, res: http.ServerResponse) => void | Promise<void>>;
  close(): Promise<void>;
}

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

export async function startHandler(): Promise<Handler> {
  const calls: Recorded[] = [];
  const routes: Handler['routes'] = new Map();
  routes.set('/mirror', (r, res) => json(res, 200, r.body.input.arg, { 'Set-Cookie': 'session=abc' }));
  routes.set('/items', (r, res) => json(res, 200, (r.body.input.ids as number[]).map((id) => ({ id, name: `n${id}` }))));
  routes.set('/one', (r, res) => json(res, 200, { id: r.body.input.id, name: 'one' }));
  routes.set('/fail4xx', (_r, res) => json(res, 422, { message: 'no such thing', code: 'my-code' }));
  routes.set('/fail4xx-nocode', (_r, res) => json(res, 409, { message: 'conflict here' }));
  routes.set('/fail500', (_r, res) => json(res, 500, { message: 'boom' }));
  routes.set('/badjson', (_r, res) => json(res, 200, 'this is not json'));
  // Answers long after any timeout a test sets, so "timed out" never depends on how loaded the machine is.
  routes.set('/slow', async (_r, res) => {
    await new Promise((ok) => setTimeout(ok, SLOW_MS).unref());
    json(res, 200, { id: 1 });
  });
  routes.set('/extra', (_r, res) => json(res, 200, { id: 1, name: 'x', nope: true, nada: 1 }));
  routes.set('/missing', (_r, res) => json(res, 200, { name: 'x' }));
  routes.set('/nullid', (_r, res) => json(res, 200, { id: null, name: 'x' }));
  routes.set('/array', (_r, res) => json(res, 200, [{ id: 1 }]));
  routes.set('/scalar', (_r, res) => json(res, 200, 42));
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: Recorded = { path: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') };
      calls.push(rec);
      const route = routes.get(rec.path);
      if (!route) return json(res, 404, { message: 'no route' });
      void route(rec, res);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    routes,
    close: () => new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    }),
  };
}
