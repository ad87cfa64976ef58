// Garbage in, EngineError out: random headers and random (validly signed) token contents never crash resolveSession.
import test from 'ava';
import { parseJwtConfig, type AuthConfig } from '../../src/auth/config.js';
import { resolveSession } from '../../src/auth/resolve.js';
import { EngineError } from '../../src/core/errors.js';
import { HS_SECRET, hsToken, NOW, NOW_MS, NS } from './helpers.js';

/** Deterministic PRNG (mulberry32) so a failure can be replayed. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

function randomValue(r: () => number, depth = 0): unknown {
  const pick = Math.floor(r() * (depth > 2 ? 6 : 9));
  switch (pick) {
    case 0: return null;
    case 1: return r() < 0.5;
    case 2: return Math.floor(r() * 2e10) - 1e10;
    case 3: return NOW + Math.floor(r() * 200) - 100;
    case 4: return ['user', 'editor', '', 'admin', '__proto__', 'x'.repeat(Math.floor(r() * 50))][Math.floor(r() * 6)];
    case 5: return JSON.stringify({ 'x-engine-allowed-roles': ['user'], 'x-engine-default-role': 'user' });
    case 6: return Array.from({ length: Math.floor(r() * 3) }, () => randomValue(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      const keys = ['x-engine-allowed-roles', 'x-engine-default-role', 'x-engine-user-id', 'X-Engine-Role', '__proto__', 'constructor', 'a'];
      for (let i = 0; i < 3; i++) o[keys[Math.floor(r() * keys.length)]] = randomValue(r, depth + 1);
      return o;
    }
  }
}

const SECRET = 'fuzz-admin-secret';
const configs: Record<string, AuthConfig> = {
  none: {},
  secret: { adminSecret: SECRET, unauthorizedRole: 'anon' },
  hs: { adminSecret: SECRET, jwt: parseJwtConfig(JSON.stringify({ type: 'HS256', key: HS_SECRET, audience: ['a'], issuer: 'i' })) },
  path: { adminSecret: SECRET, jwt: parseJwtConfig(JSON.stringify({ type: 'HS256', key: HS_SECRET, claims_namespace_path: '$.c[0]' })) },
  str: { adminSecret: SECRET, jwt: parseJwtConfig(JSON.stringify({ type: 'HS256', key: HS_SECRET, claims_format: 'stringified_json' })) },
};

/** Outcomes of the 400 seeded requests per configuration: sessions (admin or another role) and errors by status and code. */
const EXPECTED: Record<string, Record<string, number>> = {
  none: { admin: 304, session: 39, '400 bad-request': 57 },
  secret: { admin: 37, session: 316, '400 bad-request': 4, '401 access-denied': 43 },
  hs: { admin: 40, session: 4, '400 bad-request': 6, '400 invalid-headers': 171, '400 invalid-jwt': 140, '401 access-denied': 39 },
  path: { admin: 53, session: 5, '400 bad-request': 10, '400 invalid-headers': 182, '400 invalid-jwt': 122, '400 jwt-invalid-claims': 4, '401 access-denied': 24 },
  str: { admin: 50, session: 4, '400 bad-request': 6, '400 invalid-headers': 174, '400 invalid-jwt': 127, '401 access-denied': 39 },
};

for (const [name, config] of Object.entries(configs)) {
  test(`random requests against ${name}: a Session or an EngineError, nothing else`, async (t) => {
    const r = rng(name.length * 7919);
    const tally: Record<string, number> = {};
    const count = (k: string) => (tally[k] = (tally[k] ?? 0) + 1);
    for (let i = 0; i < 400; i++) {
      const payload: Record<string, unknown> = {};
      for (const k of ['exp', 'nbf', 'iat', 'aud', 'iss', NS, 'c']) if (r() < 0.6) payload[k] = randomValue(r);
      if (r() < 0.5) payload[NS] = { 'x-engine-allowed-roles': ['user', 'editor'], 'x-engine-default-role': randomValue(r), other: randomValue(r) };
      const token = hsToken(payload);
      const headers: Record<string, unknown> = {};
      const choices: [string, () => unknown][] = [
        ['authorization', () => `Bearer ${token}`],
        ['authorization', () => ['Bearer', token, 'x'].slice(0, 1 + Math.floor(r() * 3)).join(' ')],
        ['Authorization', () => randomValue(r)],
        ['x-engine-role', () => randomValue(r)],
        ['x-engine-admin-secret', () => (r() < 0.3 ? SECRET : randomValue(r))],
        ['x-engine-use-backend-only-permissions', () => randomValue(r)],
        ['x-engine-user-id', () => randomValue(r)],
      ];
      for (const [k, v] of choices) if (r() < 0.5) headers[k] = v();
      try {
        const s = await resolveSession(headers, config, { now: () => NOW_MS });
        t.is(typeof s.role, 'string');
        t.true(s.role.length > 0);
        t.is(s.variables['x-engine-role'], s.role);
        t.false('x-engine-admin-secret' in s.variables);
        for (const v of Object.values(s.variables)) t.is(typeof v, 'string');
        count(s.role === 'admin' ? 'admin' : 'session');
      } catch (e) {
        if (!(e instanceof EngineError)) t.fail(`non-engine error for ${JSON.stringify(headers)}: ${String(e)}`);
        else count(`${e.status} ${e.code}`);
      }
    }
    // The PRNG is seeded and the clock fixed: the outcomes are exactly these (a change in any resolution rule moves them).
    t.deepEqual(tally, EXPECTED[name]);
  });
}
