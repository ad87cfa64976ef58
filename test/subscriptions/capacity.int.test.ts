// The websocket capacity (src/core/open-files.ts): past it an upgrade is refused with a 503 and the metadata-style
// body instead of being accepted into a process out of file descriptors (where the kernel would reset it); open
// sockets keep working, and a socket closing makes room again.
import test from 'ava';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';
import { WsClient } from '../helpers/ws.js';

const SECRET = 'capacity-secret';
const ADMIN = { 'x-engine-admin-secret': SECRET };
let e: TestEngine;

test.before(async () => {
  e = await startTestEngine({ adminSecret: SECRET, websocket: { maxConnections: 2 } });
});
test.after.always(() => e?.close());

const refusal = async (protocol?: string): Promise<{ status: number; body: unknown } | null> => {
  try {
    (await WsClient.open(e.url, '/v1/graphql', protocol)).close();
    return null;
  } catch (err) {
    const x = err as Error & { status?: number; body?: string };
    if (x.status === undefined) throw err;
    return { status: x.status, body: JSON.parse(x.body ?? 'null') };
  }
};

test('past the capacity an upgrade answers 503; open sockets still work; a closed one makes room', async (t) => {
  const a = await WsClient.connect(e.url, ADMIN);
  const b = await WsClient.connect(e.url, ADMIN, '/v1/graphql', 'graphql-transport-ws');
  for (const protocol of [undefined, 'graphql-transport-ws']) {
    t.deepEqual(await refusal(protocol), {
      status: 503,
      body: { path: '$', error: "too many websocket connections (2): the server's open-files limit is reached", code: 'unexpected' },
    });
  }
  a.send({ id: '1', type: 'start', payload: { query: '{ __typename }' } });
  t.deepEqual((await a.nextFor('1')).payload, { data: { __typename: 'query_root' } });
  b.close();
  await b.closed;
  // The server sees the close a moment after the client: retried until it does (the deadline only catches a hang).
  let c: WsClient | null = null;
  for (const end = Date.now() + 30_000; c === null && Date.now() < end; ) {
    c = await WsClient.connect(e.url, ADMIN).catch(() => null);
    if (c === null) await new Promise((r) => setTimeout(r, 20));
  }
  t.not(c, null);
  c?.close();
  a.close();
});
