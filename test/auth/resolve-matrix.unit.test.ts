// Bad credentials at the resolver: every case of the shared table (bad-credentials.ts) rejected by resolveSession
// with the exact code, message, status and path; over HTTP the same table runs in test/http/auth-matrix.int.test.ts.
import test from 'ava';
import { exportJWK } from 'jose';
import { createPublicKey } from 'node:crypto';
import { EngineError } from '../../src/core/errors.js';
import { parseJwtConfig, type AuthConfig } from '../../src/auth/config.js';
import { JwkStore } from '../../src/auth/jwk.js';
import { authErrorStatus, resolveSession, type ResolveDeps } from '../../src/auth/resolve.js';
import { ADMIN_SECRET, answerHook, badCredentials, HOOK_BEHAVIOURS, jwtSecretOf, SETUPS, type HookBehaviour, type Keys, type Setup } from './bad-credentials.js';
import { deadUrl, loopback, NOW, NOW_MS, rsaPair, type Loopback } from './helpers.js';

const noTimers = { setTimer: () => undefined, clearTimer: () => undefined };

interface Ctx {
  keys: Keys;
  /** The auth configuration of a setup, with the hook answering as `hook` says. */
  config(setup: Setup, hook: HookBehaviour | undefined): AuthConfig;
  deps: Partial<Record<Setup, ResolveDeps>>;
  servers: Loopback[];
}
const ctx = {} as Ctx;

test.before(async () => {
  ctx.keys = { now: NOW, rsa: await rsaPair(), other: await rsaPair() };
  ctx.servers = [];
  // JWK endpoints: one serving the real key set, one answering garbage, one that is down.
  const jwk = { ...(await exportJWK(createPublicKey(ctx.keys.rsa.publicPem))), kid: 'k1', alg: 'RS512', use: 'sig' };
  const good = await loopback((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  const garbage = await loopback((_req, res) => res.end('<html>not a key set</html>'));
  const down = await deadUrl();
  // The auth hook: one route per behaviour (the resolver's cases run concurrently).
  const hook = await loopback((req, res) => {
    const route = (req.url ?? '/').slice(1);
    answerHook((HOOK_BEHAVIOURS as readonly string[]).includes(route) ? (route as HookBehaviour) : 'ok', req, res);
  });
  ctx.servers.push(good, garbage, hook);

  const urls = { rsa: ctx.keys.rsa, jwkUrl: good.url, garbageUrl: garbage.url, deadUrl: down };
  const jwt = Object.fromEntries(SETUPS.map((s) => [s, jwtSecretOf(s, urls)]));
  ctx.config = (setup, behaviour = 'ok') => {
    if (setup === 'hook' || setup === 'hookPost') {
      const url = behaviour === 'down' ? `${down}/hook` : `${hook.url}/${behaviour}`;
      return { adminSecret: ADMIN_SECRET, authHook: { url, mode: setup === 'hookPost' ? 'POST' : 'GET' } };
    }
    const j = jwt[setup];
    return j === null ? { adminSecret: ADMIN_SECRET } : { adminSecret: ADMIN_SECRET, jwt: parseJwtConfig(JSON.stringify(j)) };
  };
  const store = async (url: string): Promise<JwkStore> => {
    const s = new JwkStore(url, { ...noTimers, now: () => NOW_MS });
    await s.start();
    return s;
  };
  const base: ResolveDeps = { now: () => NOW_MS };
  ctx.deps = {
    jwk: { ...base, jwks: await store(good.url) },
    jwkDown: { ...base, jwks: await store(down) },
    jwkGarbage: { ...base, jwks: await store(garbage.url) },
  };
});

test.after.always(async () => {
  await Promise.all(ctx.servers.map((s) => s.close()));
});

for (const c of badCredentials) {
  test(`rejects: ${c.name}`, async (t) => {
    const deps = ctx.deps[c.setup] ?? { now: () => NOW_MS };
    const err = await t.throwsAsync(resolveSession(c.headers(ctx.keys), ctx.config(c.setup, c.hook), deps), { instanceOf: EngineError });
    t.is(err?.code as string, c.code);
    t.is(err?.message, c.message);
    t.is(err?.status, c.status);
    t.is(err?.path, '$');
    // /v1/graphql answers every auth failure with 200; other endpoints with the error's own status.
    t.is(authErrorStatus(err as EngineError, '/v1/graphql'), 200);
    t.is(authErrorStatus(err as EngineError, '/v1/query'), c.status);
  });
}

test('the table has at least 80 cases, in every setup and every hook behaviour', (t) => {
  t.true(badCredentials.length >= 80, `${badCredentials.length} cases`);
  t.deepEqual([...new Set(badCredentials.map((c) => c.setup))].sort(), [...SETUPS].sort());
  t.deepEqual([...new Set(badCredentials.flatMap((c) => (c.hook ? [c.hook] : [])))].sort(), HOOK_BEHAVIOURS.filter((b) => b !== 'ok').sort());
});
