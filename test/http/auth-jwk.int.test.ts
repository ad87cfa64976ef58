// JWK refresh end to end: an engine started with jwk_url pointing at a loopback server that rotates its keys and
// its cache headers; the engine refetches when Cache-Control max-age / Expires say so (real timers, second-sized
// delays), accepts the new keys, drops the old ones, and stops refetching when the headers stop giving a time.
import test from 'ava';
import { exportJWK, type JWK } from 'jose';
import { createPublicKey } from 'node:crypto';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';
import { loopback, NS, rsaPair, rsToken, type Loopback, type RsaPair } from '../auth/helpers.js';

const SECRET = 'jwk-admin-secret';
let e: TestEngine;
let server: Loopback;
let pairs: RsaPair[];
let jwks: JWK[];
const state = { keys: [] as JWK[], headers: {} as Record<string, string>, hits: [] as number[] };

test.before(async () => {
  pairs = await Promise.all([rsaPair(), rsaPair()]);
  jwks = await Promise.all(pairs.map(async (p, i) => ({ ...(await exportJWK(createPublicKey(p.publicPem))), kid: `k${i}`, alg: 'RS512' })));
  server = await loopback((_req, res) => {
    state.hits.push(Date.now());
    for (const [k, v] of Object.entries(state.headers)) res.setHeader(k, v);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: state.keys }));
  });
  state.keys = [jwks[0]];
  state.headers = { 'cache-control': 'public, max-age=1' };
  e = await startTestEngine({ adminSecret: SECRET, jwtSecret: { jwk_url: `${server.url}/jwks.json` } });
  const r = await e.query(
    { type: 'bulk', args: [
      { type: 'run_sql', args: { sql: 'CREATE TABLE note (id int PRIMARY KEY); INSERT INTO note VALUES (1);' } },
      { type: 'track_table', args: 'note' },
      { type: 'create_select_permission', args: { table: 'note', role: 'user', permission: { columns: ['id'], filter: {} } } },
    ] },
    { 'x-engine-admin-secret': SECRET },
  );
  if (r.status !== 200) throw new Error(r.text);
});

test.after.always(async () => {
  await e?.close();
  await server?.close();
});

/** Which key pairs the engine accepts right now (a token per pair, kid matching the published JWK). */
async function accepted(): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < pairs.length; i++) {
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: '1', iat: now - 5, exp: now + 60, [NS]: { 'x-engine-allowed-roles': ['user'], 'x-engine-default-role': 'user' } };
    const token = rsToken(claims, pairs[i].privateKey, 'RS512', { kid: `k${i}` });
    const r = await e.graphql({ query: '{ note { id } }' }, { authorization: `Bearer ${token}` });
    if (r.body.data) out.push(i);
    else if (r.body.errors?.[0]?.message !== 'Could not verify JWT: JWSError JWSInvalidSignature') throw new Error(r.text);
  }
  return out;
}

/** accepted() once the engine has taken the fetched set in (the server notes a fetch before the engine reads it). */
async function acceptedAfterFetch(expected: number[]): Promise<number[]> {
  const until = Date.now() + 30_000; // the set stays as it is until the test changes it: a deadline, not a window
  for (;;) {
    const got = await accepted();
    if (JSON.stringify(got) === JSON.stringify(expected) || Date.now() > until) return got;
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function waitForHits(n: number, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (state.hits.length < n) {
    if (Date.now() > until) throw new Error(`only ${state.hits.length} JWK fetches, waited for ${n}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

test.serial('keys rotate on the schedule of Cache-Control max-age, then Expires; no time in the headers: no more refetches soon', async (t) => {
  // The engine may already have refetched during set-up (max-age=1): fetches are counted from each change on.
  t.true(state.hits.length >= 1, 'fetched at start-up');
  t.deepEqual(await accepted(), [0]);

  // Rotation: the next fetch (max-age=1 after the previous one) publishes key 1 only, valid per Expires for ~2 more seconds.
  const b1 = state.hits.length;
  state.keys = [jwks[1]];
  state.headers = { expires: new Date(Date.now() + 2_500).toUTCString() };
  await waitForHits(b1 + 1);
  const first = state.hits[b1] - state.hits[b1 - 1];
  t.true(first >= 900 && first < 5_000, `max-age=1 refetch after ${first} ms`);
  t.deepEqual(await acceptedAfterFetch([1]), [1]);

  // Both keys, then no cache headers at all: the refetch after Expires takes them, and the next one is a minute away.
  const b2 = state.hits.length;
  state.keys = [jwks[0], jwks[1]];
  state.headers = {};
  await waitForHits(b2 + 1);
  const second = state.hits[b2] - state.hits[b2 - 1];
  t.true(second >= 900 && second < 6_000, `Expires refetch after ${second} ms`);
  t.deepEqual(await acceptedAfterFetch([0, 1]), [0, 1]);
  await new Promise((r) => setTimeout(r, 2_500));
  t.is(state.hits.length, b2 + 1, 'no refetch within seconds once the headers give no expiry');
});
