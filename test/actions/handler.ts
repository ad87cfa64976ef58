// What the action suites share: a real action handler (node:http on a free loopback port; every request is recorded,
// and each route answers as its name says), the tables and custom types they start from, and an engine set up with them.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { queryOk, startTestEngine, type TestEngine, type TestEngineOptions } from '../helpers/engine.js';

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

/**
 * The set-up both action suites start from, as one bulk: `table` created (and filled) by `sql` and tracked, role
 * `user` selecting `columns` of the rows whose `owner` column is its X-Engine-User-Id, the custom types (whose
 * objects may relate to the table), then `actions` (create_action, create_action_permission, ...).
 */
export function actionSetup(o: { sql: string; table: string; columns: string[]; owner: string; customTypes: unknown; actions: unknown[] }) {
  return {
    type: 'bulk',
    args: [
      { type: 'run_sql', args: { sql: o.sql } },
      { type: 'track_table', args: { name: o.table, schema: 'public' } },
      { type: 'create_select_permission', args: { table: o.table, role: 'user', permission: { columns: o.columns, filter: { [o.owner]: 'X-Engine-User-Id' } } } },
      { type: 'set_custom_types', args: o.customTypes },
      ...o.actions,
    ],
  };
}

/** An engine (with `options`) on which `setup` answered 200; a set-up that fails closes it and throws with the answer. */
export async function startActionEngine(setup: unknown, options: TestEngineOptions = {}): Promise<TestEngine> {
  const e = await startTestEngine(options);
  try {
    await queryOk(e, setup);
  } catch (err) {
    await e.close();
    throw err;
  }
  return e;
}
