// One auth webhook (as the original's test webhook: the token in `Authorization`, read from the request's headers in
// GET mode and from the body's `headers` object, key as sent, in POST mode) behind two engines, one per hook mode,
// over both websocket protocols: the `connection_init` headers authenticate queries and subscriptions alike, and the
// hook's Cache-Control / Expires end the connection the same way in both modes (issue 34, item 1).
import test from 'ava';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { queryOk, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { WsClient, type Msg } from '../helpers/ws.js';
import { loopback, readBody, type Loopback } from '../auth/helpers.js';

const SECRET = 'hook-modes-secret';
const ADMIN = { 'x-engine-admin-secret': SECRET };
const MODES = ['GET', 'POST'] as const;
const PROTOCOLS = ['graphql-ws', 'graphql-transport-ws'] as const;
type Mode = (typeof MODES)[number];
type Protocol = (typeof PROTOCOLS)[number];

let db: TestDatabase;
let hook: Loopback;
const engines = {} as Record<Mode, TestEngine>;
/** The `headers` objects POST-mode requests carried. */
const posted: Array<Record<string, string>> = [];

/**
 * The session the token asks for, with `expires-in` (seconds) turned into an Expires date; 401 without a Bearer
 * token. `authorization` is what the hook found under exactly that header.
 */
function answer(authorization: string | undefined, res: import('node:http').ServerResponse): void {
  if (authorization === undefined || !authorization.startsWith('Bearer ')) return void res.writeHead(401).end('{}');
  const session = JSON.parse(Buffer.from(authorization.slice(7), 'base64').toString('utf8')) as Record<string, string>;
  const { 'expires-in': expiresIn, ...body } = session;
  if (expiresIn !== undefined) body.Expires = new Date(Date.now() + Number(expiresIn) * 1000).toUTCString();
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

test.before(async () => {
  db = await createTestDatabase('hook_modes');
  hook = await loopback(async (req, res) => {
    if (req.method === 'GET') return answer(req.headers.authorization, res);
    const { headers } = JSON.parse(await readBody(req)) as { headers: Record<string, string> };
    posted.push(headers);
    answer(headers.Authorization, res);
  });
  for (const mode of MODES) {
    engines[mode] = await startTestEngine({
      database: db, adminSecret: SECRET, authHook: `${hook.url}/${mode}`, authHookMode: mode, liveQueries: { batchSize: 100, refetchInterval: 100 },
    });
  }
  await queryOk(engines.GET, { type: 'bulk', args: [
    { type: 'run_sql', args: { sql: "CREATE TABLE item (id int PRIMARY KEY, owner text NOT NULL); INSERT INTO item VALUES (1, 'u1'), (2, 'u2');" } },
    { type: 'track_table', args: 'item' },
    { type: 'create_select_permission', args: { table: 'item', role: 'user', permission: { columns: ['id'], filter: { owner: 'X-Engine-User-Id' } } } },
  ] }, ADMIN);
  // The POST engine follows the metadata the GET engine wrote.
  await queryOk(engines.POST, { type: 'reload_metadata', args: {} }, ADMIN);
});
test.after.always(async () => {
  for (const e of Object.values(engines)) await e.close();
  await hook?.close();
  await db?.drop();
});

/** The connection_init headers a client sends: its token as the Authorization header (the name's case as browsers send it). */
const initHeaders = (session: Record<string, string>): Record<string, string> => ({
  Authorization: `Bearer ${Buffer.from(JSON.stringify({ 'X-Engine-Role': 'user', ...session })).toString('base64')}`,
});

/** A socket of `protocol` on `mode`'s engine, initialised with `headers`: the ack, or the refusal as a string. */
async function connect(mode: Mode, protocol: Protocol, headers: Record<string, string>): Promise<{ c: WsClient; ack: string }> {
  const c = await WsClient.open(engines[mode].url, '/v1/graphql', protocol, { 'X-Handshake-Note': 'from the handshake' });
  c.send({ type: 'connection_init', payload: { headers } });
  if (protocol === 'graphql-ws') {
    const m = await c.next((x) => x.type === 'connection_ack' || x.type === 'connection_error');
    return { c, ack: m.type === 'connection_ack' ? 'ack' : `connection_error: ${String(m.payload)}` };
  }
  const m = await Promise.race([c.next((x) => x.type === 'connection_ack'), c.closed.then((x) => x)]);
  return { c, ack: 'type' in m ? 'ack' : `closed ${m.code} ${m.reason}` };
}

/** How and when the socket closed, or `open` if it is still open after `ms`. */
const closedWithin = (c: WsClient, ms: number): Promise<{ code: number | 'open'; reason: string; at: number }> =>
  Promise.race([
    c.closed.then((x) => ({ ...x, at: Date.now() })),
    new Promise<{ code: 'open'; reason: string; at: number }>((resolve) => setTimeout(() => resolve({ code: 'open', reason: '', at: Date.now() }), ms).unref()),
  ]);

/** Starts an operation: Apollo's `start`, graphql-ws's `subscribe`. */
const start = (c: WsClient, protocol: Protocol, id: string, query: string): void =>
  c.send({ id, type: protocol === 'graphql-ws' ? 'start' : 'subscribe', payload: { query } });

/** The next result of operation `id` (`data` / `next`), its payload. */
async function result(c: WsClient, id: string): Promise<Msg['payload']> {
  const m = await c.nextFor(id);
  if (m.type !== 'data' && m.type !== 'next') throw new Error(`expected a result, got ${JSON.stringify(m)}`);
  return m.payload;
}

for (const mode of MODES) {
  for (const protocol of PROTOCOLS) {
    test(`${mode} hook, ${protocol}: a query runs with the session the connection_init headers gave`, async (t) => {
      const { c, ack } = await connect(mode, protocol, initHeaders({ 'X-Engine-User-Id': 'u1' }));
      t.is(ack, 'ack');
      start(c, protocol, 'q', '{ item { id } }');
      t.deepEqual(await result(c, 'q'), { data: { item: [{ id: 1 }] } });
      t.is((await c.nextFor('q')).type, 'complete');
      c.close();
    });

    test(`${mode} hook, ${protocol}: a subscription gets its first result and the next change`, async (t) => {
      const owner = `sub-${mode}-${protocol}`;
      const id = 100 + MODES.indexOf(mode) * 10 + PROTOCOLS.indexOf(protocol);
      const { c, ack } = await connect(mode, protocol, initHeaders({ 'X-Engine-User-Id': owner }));
      t.is(ack, 'ack');
      start(c, protocol, 's', 'subscription { item { id } }');
      t.deepEqual(await result(c, 's'), { data: { item: [] } });
      await queryOk(engines[mode], { type: 'run_sql', args: { sql: `INSERT INTO item VALUES (${id}, '${owner}')` } }, ADMIN);
      t.deepEqual(await result(c, 's'), { data: { item: [{ id }] } });
      c.close();
    });

    test(`${mode} hook, ${protocol}: the hook's Cache-Control max-age and Expires end the connection`, async (t) => {
      const closeOf = protocol === 'graphql-ws' ? { code: 1000, reason: 'session expired' } : { code: 4403, reason: 'Forbidden' };
      const sentAt = Date.now();
      const byMaxAge = await connect(mode, protocol, initHeaders({ 'X-Engine-User-Id': 'u1', 'Cache-Control': 'max-age=2' }));
      const byExpires = await connect(mode, protocol, initHeaders({ 'X-Engine-User-Id': 'u1', 'expires-in': '3' }));
      t.is(byMaxAge.ack, 'ack');
      t.is(byExpires.ack, 'ack');
      const [maxAge, expires] = await Promise.all([closedWithin(byMaxAge.c, 30_000), closedWithin(byExpires.c, 30_000)]);
      t.like(maxAge, closeOf);
      t.like(expires, closeOf);
      // Expires has whole seconds (up to one earlier than asked); max-age counts from the hook's answer.
      t.true(maxAge.at - sentAt >= 2000 - 50, `max-age: closed after ${maxAge.at - sentAt} ms`);
      t.true(expires.at - sentAt >= 2000 - 50, `Expires: closed after ${expires.at - sentAt} ms`);
    });
  }
}

test('POST hook: the body carries the connection_init headers and the handshake\'s, names as sent, without the handshake\'s own', async (t) => {
  const { c, ack } = await connect('POST', 'graphql-ws', { ...initHeaders({ 'X-Engine-User-Id': 'u1' }), 'X-Client-Note': 'from init' });
  t.is(ack, 'ack');
  c.close();
  const body = posted.find((h) => h['X-Client-Note'] === 'from init');
  t.truthy(body, 'the init payload\'s headers keep their names');
  t.is(body?.['X-Handshake-Note'], 'from the handshake');
  t.true(body?.Authorization?.startsWith('Bearer '));
  for (const name of Object.keys(body ?? {})) {
    t.false(['sec-websocket-key', 'sec-websocket-version', 'upgrade', 'connection'].includes(name.toLowerCase()), name);
  }
});

test('a connection_init without the token is refused in both modes with the hook\'s 401', async (t) => {
  for (const mode of MODES) {
    const apollo = await connect(mode, 'graphql-ws', {});
    t.is(apollo.ack, 'connection_error: Authentication hook unauthorized this request', mode);
    apollo.c.close();
    const modern = await connect(mode, 'graphql-transport-ws', {});
    t.is(modern.ack, 'closed 4403 Forbidden', mode);
  }
});
