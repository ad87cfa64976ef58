// JWK refresh schedule against a loopback server that rotates keys and varies its cache headers.
// The store gets a fake clock and fake timers, so the test drives time instead of waiting for it.
import test from 'ava';
import { exportJWK, type JWK } from 'jose';
import { createPublicKey } from 'node:crypto';
import { parseJwtConfig, type AuthConfig } from '../../src/auth/config.js';
import { expiryFromHeaders, JwkStore, maxAgeSeconds, nextRefreshDelay } from '../../src/auth/jwk.js';
import { resolveSession } from '../../src/auth/resolve.js';
import { EngineError } from '../../src/core/errors.js';
import { loopback, NOW_MS, rsaPair, rsToken, userClaims, type Loopback, type RsaPair } from './helpers.js';

// The expected schedule is worked out here from the headers our JWK server sends (SPEC §5 rule 10), never read from
// the module: max-age / s-maxage seconds, else the Expires time less the fetch time, else one minute between cycles.
const ONE_MINUTE_MS = 60_000;
const maxAge = (seconds: number) => ({ headers: { 'cache-control': `public, max-age=${seconds}` }, delay: seconds * 1000 });
const sMaxAge = (seconds: number) => ({ headers: { 'cache-control': `s-maxage=${seconds}` }, delay: seconds * 1000 });
/** An Expires header `ms` after `fetchedAt` (whole seconds, as HTTP dates are). */
const expiresIn = (ms: number, fetchedAt: number) => ({ headers: { expires: new Date(fetchedAt + ms).toUTCString() }, delay: ms });

interface ServerState {
  keys: JWK[];
  headers: Record<string, string>;
  mode: 'ok' | 'error' | 'garbage' | 'hangup' | 'huge';
  hits: number;
}

interface Fixture {
  server: Loopback;
  state: ServerState;
  clock: { now: number };
  timers: { id: number; fn: () => Promise<void>; ms: number }[];
  store: JwkStore;
  config: AuthConfig;
}

let pairs: RsaPair[];
let jwks: JWK[];
test.before(async () => {
  pairs = await Promise.all([rsaPair(), rsaPair(), rsaPair()]);
  jwks = await Promise.all(pairs.map(async (p, i) => ({ ...(await exportJWK(createPublicKey(p.publicPem))), kid: `k${i}` })));
});

async function fixture(initial: Partial<ServerState>): Promise<Fixture> {
  const state: ServerState = { keys: [], headers: {}, mode: 'ok', hits: 0, ...initial };
  const server = await loopback((req, res) => {
    state.hits += 1;
    if (state.mode === 'hangup') {
      req.socket.destroy();
      return;
    }
    if (state.mode === 'error') {
      res.statusCode = 503;
      res.end('unavailable');
      return;
    }
    if (state.mode === 'huge') {
      res.write('{"keys": [');
      for (let i = 0; i < 40; i++) res.write(' '.repeat(64 * 1024));
      res.end(']}');
      return;
    }
    for (const [k, v] of Object.entries(state.headers)) res.setHeader(k, v);
    res.end(state.mode === 'garbage' ? '{"keys": "nope"}' : JSON.stringify({ keys: state.keys }));
  });
  const clock = { now: NOW_MS };
  const timers: Fixture['timers'] = [];
  let nextId = 1;
  const store = new JwkStore(`${server.url}/.well-known/jwks.json`, {
    now: () => clock.now,
    setTimer: (fn, ms) => {
      const id = nextId++;
      timers.push({ id, fn, ms });
      return id;
    },
    clearTimer: (id) => {
      const i = timers.findIndex((t) => t.id === id);
      if (i >= 0) timers.splice(i, 1);
    },
  });
  const config: AuthConfig = { adminSecret: 's', jwt: parseJwtConfig(JSON.stringify({ jwk_url: store.url })) };
  return { server, state, clock, timers, store, config };
}

/** Lets the only pending timer fire after its delay: the clock moves, the refresh runs to completion. */
async function fire(f: Fixture): Promise<number> {
  const timer = f.timers.shift();
  if (!timer) throw new Error('no timer pending');
  f.clock.now += timer.ms;
  await timer.fn();
  return timer.ms;
}

/** Which of the three key pairs the store currently accepts tokens from. */
async function accepted(f: Fixture): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < pairs.length; i++) {
    const token = rsToken(userClaims({ exp: Math.floor(f.clock.now / 1000) + 60, iat: undefined }), pairs[i].privateKey, 'RS256');
    try {
      await resolveSession({ authorization: `Bearer ${token}` }, f.config, { jwks: f.store, now: () => f.clock.now });
      out.push(i);
    } catch (e) {
      if (!(e instanceof EngineError) || e.code !== 'invalid-jwt') throw e;
    }
  }
  return out;
}

test('rotating keys follow Cache-Control max-age, then Expires, then fall back to one-minute retries', async (t) => {
  const fiveMinutes = maxAge(300);
  const f = await fixture({ keys: [jwks[0]], headers: fiveMinutes.headers });
  try {
    const first = await f.store.start();
    t.deepEqual(first, { ok: true, keys: 1, nextInMs: fiveMinutes.delay });
    t.deepEqual(f.timers.map((x) => x.ms), [fiveMinutes.delay]);
    t.deepEqual(await accepted(f), [0]);
    const sameToken = rsToken(userClaims({ exp: Math.floor(NOW_MS / 1000) + 86_400 }), pairs[0].privateKey, 'RS256');
    const check = () => resolveSession({ authorization: `Bearer ${sameToken}` }, f.config, { jwks: f.store, now: () => f.clock.now });
    t.is((await check()).role, 'user');

    // Rotation: key 1 replaces key 0; the response now only has Expires, 2 minutes after the (fake) fetch time.
    f.state.keys = [jwks[1]];
    const twoMinutes = expiresIn(120_000, f.clock.now + fiveMinutes.delay);
    f.state.headers = twoMinutes.headers;
    t.is(await fire(f), fiveMinutes.delay);
    t.deepEqual(await accepted(f), [1]);
    t.deepEqual(f.timers.map((x) => x.ms), [twoMinutes.delay]);
    // the token verified before the rotation is not trusted from cache afterwards
    await t.throwsAsync(check(), { message: 'Could not verify JWT: JWSError JWSInvalidSignature' });

    // Both keys published, s-maxage only.
    f.state.keys = [jwks[1], jwks[2]];
    const shared = sMaxAge(45);
    f.state.headers = shared.headers;
    t.is(await fire(f), twoMinutes.delay);
    t.deepEqual(await accepted(f), [1, 2]);
    t.deepEqual(f.timers.map((x) => x.ms), [shared.delay]);

    // Cache-Control without max-age (Expires is then ignored): keys taken, next cycle in one minute.
    f.state.keys = [jwks[2]];
    f.state.headers = { 'cache-control': 'no-cache', expires: new Date(f.clock.now + 3_600_000).toUTCString() };
    await fire(f);
    t.deepEqual(await accepted(f), [2]);
    t.deepEqual(f.timers.map((x) => x.ms), [ONE_MINUTE_MS]);

    // Endpoint failing (503, garbage, connection reset): keys kept, retried every minute, no crash.
    for (const mode of ['error', 'garbage', 'hangup', 'huge'] as const) {
      f.state.mode = mode;
      t.is(await fire(f), ONE_MINUTE_MS);
      t.false(f.store.last?.ok, mode);
      t.deepEqual(await accepted(f), [2], mode);
      t.deepEqual(f.timers.map((x) => x.ms), [ONE_MINUTE_MS], mode);
    }

    // Back up with max-age: schedule follows it again.
    f.state.mode = 'ok';
    f.state.keys = [jwks[0]];
    const tenSeconds = maxAge(10);
    f.state.headers = tenSeconds.headers;
    await fire(f);
    t.deepEqual(await accepted(f), [0]);
    t.deepEqual(f.timers.map((x) => x.ms), [tenSeconds.delay]);

    const hits = f.state.hits;
    f.store.stop();
    t.is(f.timers.length, 0);
    t.is(f.state.hits, hits);
  } finally {
    await f.server.close();
  }
});

test('start-up without parsable cache headers: keys loaded, never refreshed', async (t) => {
  const variants: Record<string, string>[] = [{}, { 'cache-control': 'no-store' }, { expires: 'not a date' }];
  for (const headers of variants) {
    const f = await fixture({ keys: [jwks[0]], headers });
    try {
      const outcome = await f.store.start();
      t.deepEqual(outcome, { ok: true, keys: 1, nextInMs: null });
      t.is(f.timers.length, 0, JSON.stringify(headers));
      t.deepEqual(await accepted(f), [0]);
    } finally {
      await f.server.close();
    }
  }
});

test('start-up with the endpoint down: tokens rejected with invalid-jwt, retried each minute until it answers', async (t) => {
  const tenMinutes = maxAge(600);
  const f = await fixture({ keys: [jwks[1]], headers: tenMinutes.headers, mode: 'error' });
  try {
    const outcome = await f.store.start();
    t.deepEqual(outcome, { ok: false, error: `Non-2xx response on fetching JWK from: ${f.store.url}` });
    t.deepEqual(await accepted(f), []);
    const token = rsToken(userClaims({ exp: NOW_MS / 1000 + 60 }), pairs[1].privateKey, 'RS256');
    const err = await t.throwsAsync(resolveSession({ authorization: `Bearer ${token}` }, f.config, { jwks: f.store, now: () => f.clock.now }));
    t.is((err as EngineError).code, 'invalid-jwt');
    t.is(err?.message, 'Could not verify JWT: JWSError NoUsableKeys');
    t.deepEqual(f.timers.map((x) => x.ms), [ONE_MINUTE_MS]);
    f.state.mode = 'ok';
    await fire(f);
    t.deepEqual(await accepted(f), [1]);
    t.deepEqual(f.timers.map((x) => x.ms), [tenMinutes.delay]);
    f.store.stop();
  } finally {
    await f.server.close();
  }
});

test('an Expires already past or max-age=0 does not spin: at least one second between fetches', async (t) => {
  const f = await fixture({ keys: [jwks[0]], headers: { expires: new Date(NOW_MS - 60_000).toUTCString() } });
  try {
    await f.store.start();
    t.deepEqual(f.timers.map((x) => x.ms), [1_000]);
    f.state.headers = { 'cache-control': 'max-age=0' };
    await fire(f);
    t.deepEqual(f.timers.map((x) => x.ms), [1_000]);
    f.store.stop();
  } finally {
    await f.server.close();
  }
});

test('cache header parsing', (t) => {
  t.is(maxAgeSeconds('max-age=60'), 60);
  t.is(maxAgeSeconds('public, s-maxage=30, max-age=60'), 60);
  t.is(maxAgeSeconds('s-maxage=30'), 30);
  t.is(maxAgeSeconds('MAX-AGE = 5'), 5);
  t.is(maxAgeSeconds('no-cache'), null);
  t.is(maxAgeSeconds('max-age=abc'), null);
  const get = (h: Record<string, string>) => (n: string) => h[n];
  t.is(expiryFromHeaders(get({ expires: new Date(NOW_MS + 5000).toUTCString() }), NOW_MS), 5000);
  t.is(expiryFromHeaders(get({ 'cache-control': 'private', expires: new Date(NOW_MS + 5000).toUTCString() }), NOW_MS), null);
  t.is(expiryFromHeaders(get({}), NOW_MS), null);
  t.is(nextRefreshDelay({ ok: true, keys: 1, nextInMs: null }, true), null);
  t.is(nextRefreshDelay({ ok: true, keys: 1, nextInMs: null }, false), ONE_MINUTE_MS);
  t.is(nextRefreshDelay({ ok: false, error: 'x' }, false), ONE_MINUTE_MS);
  t.is(nextRefreshDelay({ ok: true, keys: 1, nextInMs: 1e12 }, false), 2_147_483_647);
});
