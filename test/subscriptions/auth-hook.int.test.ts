// Websocket auth through a real auth webhook on loopback (POST mode): the handshake's cookie reaches the hook
// (CORS on) or is dropped (CORS disabled, unless --ws-read-cookie), the hook's Expires closes the socket, the
// Origin is checked against the CORS domains.
import test from 'ava';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';
import { WsClient } from '../helpers/ws.js';
import { loopback, readBody, type Loopback } from '../auth/helpers.js';

let hook: Loopback;
const seen: Array<Record<string, string>> = [];
/** The last Expires the hook gave (ms since the epoch). */
let expiresAt = 0;

test.before(async () => {
  // Authorises a request that has a cookie; `x-expire-in: N` in the headers makes the session expire in N s.
  hook = await loopback(async (req, res) => {
    const { headers } = JSON.parse(await readBody(req)) as { headers: Record<string, string> };
    seen.push(headers);
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    if (!lower.cookie) {
      res.writeHead(401).end('{}');
      return;
    }
    const body: Record<string, string> = { 'x-engine-role': 'admin' };
    if (lower['x-expire-in']) {
      body.Expires = new Date(Date.now() + Number(lower['x-expire-in']) * 1000).toUTCString();
      expiresAt = Date.parse(body.Expires);
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
});
test.after.always(() => hook?.close());

async function engine(extra: Record<string, unknown>): Promise<TestEngine> {
  const e = await startTestEngine({ adminSecret: 'hook-secret', authHook: `${hook.url}/auth`, authHookMode: 'POST', ...extra });
  await e.query({ type: 'run_sql', args: { sql: 'CREATE TABLE t (id int PRIMARY KEY); INSERT INTO t VALUES (1);' } }, { 'x-engine-admin-secret': 'hook-secret' });
  await e.query({ type: 'track_table', args: 't' }, { 'x-engine-admin-secret': 'hook-secret' });
  return e;
}

async function tryQuery(e: TestEngine, headers: Record<string, string>, init: Record<string, string> = {}) {
  const c = await WsClient.open(e.url, '/v1alpha1/graphql', undefined, headers);
  c.send({ type: 'connection_init', payload: { headers: init } });
  c.send({ id: '1', type: 'start', payload: { query: '{ t { id } }' } });
  const m = await c.next();
  return { c, m };
}

test.serial('CORS on: the handshake cookie reaches the hook; the hook\'s Expires closes the socket', async (t) => {
  const e = await engine({});
  try {
    // Expires (whole seconds) 4-5 s away: the ack and the query's answer come well before it on a loaded machine.
    const { c, m } = await tryQuery(e, { Cookie: 'foo=bar;', Origin: 'http://example.com' }, { 'x-expire-in': '5' });
    t.deepEqual(m, { type: 'connection_ack' });
    t.deepEqual((await c.nextFor('1')).payload, { data: { t: [{ id: 1 }] } });
    t.is(seen.at(-1)?.Cookie, 'foo=bar;', 'the handshake cookie, named as the client sent it');
    const closed = await c.closed;
    const late = Date.now() - expiresAt;
    t.log(`closed ${late} ms after Expires`);
    t.is(closed.code, 1000, 'a normal close, at Expires (a dropped peer would be 1006)');
    t.true(late >= -50, 'not before Expires');
  } finally {
    await e.close();
  }
});

test.serial('CORS disabled: the cookie is dropped (hook says 401 → connection_error); --ws-read-cookie keeps it', async (t) => {
  const off = await engine({ disableCors: true });
  try {
    const { c, m } = await tryQuery(off, { Cookie: 'foo=bar;', Origin: 'http://example.com' });
    t.deepEqual(m, { type: 'connection_error', payload: 'Authentication hook unauthorized this request' });
    c.close();
  } finally {
    await off.close();
  }
  const read = await engine({ disableCors: true, wsReadCookie: true });
  try {
    const { c, m } = await tryQuery(read, { Cookie: 'foo=bar;', Origin: 'http://example.com' });
    t.deepEqual(m, { type: 'connection_ack' });
    c.close();
  } finally {
    await read.close();
  }
});

test.serial('an Origin outside the CORS domains is refused at the handshake', async (t) => {
  const e = await engine({ corsDomain: 'http://good.example' });
  try {
    const err = await t.throwsAsync(WsClient.open(e.url, '/v1/graphql', undefined, { Origin: 'http://evil.example' }));
    t.is((err as Error & { status: number }).status, 400);
    t.deepEqual(JSON.parse((err as Error & { body: string }).body), { path: '$', error: 'received origin header does not match configured CORS domains', code: 'access-denied' });
    const ok = await WsClient.open(e.url, '/v1/graphql', undefined, { Origin: 'http://good.example' });
    ok.close();
  } finally {
    await e.close();
  }
});
