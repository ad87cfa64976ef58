// Garbage in, EngineError out: random headers and random (validly signed) token contents never crash resolveSession,
// and each request gets the outcome a small reference model of the rules (written below from SPEC §2.8, §2.9, §5
// and SPEC-NOTES-runtime §6, not from src/auth) says it must: the session (role, variables, backend-only flag,
// expiry) or the error (status and code).
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

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

const STRINGS = ['user', 'editor', '', 'admin', '__proto__', 'i', 'a', 'true', 'No', 'x y'];

function randomValue(r: Rand, depth = 0): unknown {
  switch (Math.floor(r() * (depth > 2 ? 6 : 9))) {
    case 0: return null;
    case 1: return r() < 0.5;
    case 2: return Math.floor(r() * 2e10) - 1e10;
    case 3: return NOW + Math.floor(r() * 200) - 100;
    case 4: return r() < 0.1 ? 'x'.repeat(Math.floor(r() * 50)) : pick(r, STRINGS);
    case 5: return JSON.stringify({ 'x-engine-allowed-roles': ['user'], 'x-engine-default-role': 'user' });
    case 6: return Array.from({ length: Math.floor(r() * 3) }, () => randomValue(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      const keys = ['x-engine-allowed-roles', 'x-engine-default-role', 'x-engine-user-id', 'X-Engine-Role', '__proto__', 'constructor', 'a'];
      for (let i = 0; i < 3; i++) o[pick(r, keys)] = randomValue(r, depth + 1);
      return o;
    }
  }
}

/** Mostly well-formed engine claims, each part sometimes missing or of the wrong type. */
function claimsObject(r: Rand): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (r() < 0.75) o[pick(r, ['x-engine-allowed-roles', 'X-Engine-Allowed-Roles'])] = pick(r, [['user', 'editor'], ['user'], ['editor', ''], 'user', [1], []]);
  if (r() < 0.75) o['x-engine-default-role'] = pick(r, ['user', 'user', 'editor', 'admin', '', 5, null]);
  if (r() < 0.6) o[pick(r, ['x-engine-user-id', 'X-Engine-User-Id'])] = pick(r, ['7', '42', 7, null, '']);
  if (r() < 0.3) o.other = randomValue(r);
  return o;
}

/** Where the claims sit, as json or as stringified json, or garbage. */
const claimsValue = (r: Rand): unknown => {
  const x = r();
  return x < 0.25 ? randomValue(r) : x < 0.6 ? claimsObject(r) : JSON.stringify(claimsObject(r));
};

/** A payload whose registered claims are mostly good (valid now, issuer i, audience a), sometimes not. */
function randomPayload(r: Rand): Record<string, unknown> {
  const p: Record<string, unknown> = {};
  // [claim, how often it is there, a good value (mostly)]
  const good: [string, number, () => unknown][] = [
    ['exp', 0.75, () => NOW + Math.floor(r() * 120) - 20],
    ['nbf', 0.5, () => NOW + Math.floor(r() * 40) - 35],
    ['iat', 0.75, () => NOW + Math.floor(r() * 40) - 35],
    ['aud', 0.95, () => pick(r, ['a', ['b', 'a'], 'a', 'a', 'b', ['b']])],
    ['iss', 0.95, () => pick(r, ['i', 'i', 'i', 'i', 'j'])],
    ['sub', 0.5, () => '42'],
  ];
  for (const [k, often, v] of good) if (r() < often) p[k] = r() < 0.93 ? v() : randomValue(r);
  if (r() < 0.7) p[NS] = claimsValue(r);
  if (r() < 0.6) p.c = r() < 0.8 ? [claimsValue(r), randomValue(r)] : randomValue(r);
  return p;
}

function randomHeaders(r: Rand, token: string, secret: string): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  // [name, how often it is sent, its value]
  const choices: [string, number, () => unknown][] = [
    ['authorization', 0.85, () => (r() < 0.8 ? `Bearer ${token}` : pick(r, [`Bearer`, `bearer ${token}`, `Bearer ${token} x`, `Bearer  \t${token}`, [`Bearer ${token}`]]))],
    ['Authorization', 0.15, () => randomValue(r)],
    ['x-engine-role', 0.5, () => (r() < 0.6 ? pick(r, ['user', 'editor', 'admin', '']) : randomValue(r))],
    [pick(r, ['x-engine-admin-secret', 'X-Engine-Admin-Secret', 'x-engine-access-key']), 0.3, () => (r() < 0.5 ? secret : randomValue(r))],
    ['x-engine-use-backend-only-permissions', 0.4, () => (r() < 0.5 ? pick(r, ['true', 'T', 'yes', 'false', 'N', 'maybe', '', 'on']) : randomValue(r))],
    [pick(r, ['x-engine-user-id', 'X-ENGINE-USER-ID']), 0.5, () => randomValue(r)],
  ];
  for (const [k, p, v] of choices) if (r() < p) headers[k] = v();
  return headers;
}

// ---------------------------------------------------------------------------------------------------------------
// The reference model.

interface Rules {
  adminSecret?: string;
  unauthorizedRole?: string;
  jwt?: { claims: { namespace: string } | { path: (string | number)[] }; stringified: boolean; audience?: string[]; issuer?: string };
}

type Outcome =
  | { session: { role: string; variables: Record<string, string>; backendOnly: boolean; expiresAt?: number } }
  | { error: string };

const fail = (status: number, code: string): Outcome => ({ error: `${status} ${code}` });
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
/** A header's value as a server reads one: a string, or the first of several. */
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined);
/** Header names are case-insensitive; of several spellings, the first one sent with a readable value counts. */
const header = (h: Record<string, unknown>, name: string): string | undefined => {
  for (const [k, v] of Object.entries(h)) if (k.toLowerCase() === name && text(v) !== undefined) return text(v);
  return undefined;
};
/** X-Engine-* headers become session variables (lower-cased names), the admin secret never. */
function headerVariables(h: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    const name = k.toLowerCase();
    if (!name.startsWith('x-engine-') || name === 'x-engine-admin-secret' || name === 'x-engine-access-key') continue;
    if (text(v) !== undefined && !(name in out)) out[name] = text(v)!;
  }
  return out;
}

/** Admin secret given (and right), or no auth at all: X-Engine-Role or admin, the backend-only flag honoured. */
function trusted(h: Record<string, unknown>): Outcome {
  const flag = header(h, 'x-engine-use-backend-only-permissions')?.toLowerCase();
  if (flag !== undefined && !['true', 't', 'yes', 'y', 'false', 'f', 'no', 'n'].includes(flag)) return fail(400, 'bad-request');
  const variables = headerVariables(h);
  const role = variables['x-engine-role'] || 'admin';
  return { session: { role, variables: { ...variables, 'x-engine-role': role }, backendOnly: flag !== undefined && ['true', 't', 'yes', 'y'].includes(flag) } };
}

function expected(h: Record<string, unknown>, rules: Rules): Outcome {
  if (rules.adminSecret === undefined) return trusted(h);
  const secret = header(h, 'x-engine-admin-secret') ?? header(h, 'x-engine-access-key');
  if (secret !== undefined) return secret === rules.adminSecret ? trusted(h) : fail(401, 'access-denied');
  if (rules.jwt === undefined) {
    // Only the unauthorized role is configured here (no hook in these configs).
    const variables = headerVariables(h);
    return { session: { role: rules.unauthorizedRole!, variables: { ...variables, 'x-engine-role': rules.unauthorizedRole! }, backendOnly: false } };
  }
  const authorization = header(h, 'authorization');
  if (authorization === undefined) return fail(400, 'invalid-headers');
  const words = authorization.split(/\s+/).filter((w) => w !== '');
  if (words.length !== 2 || words[0] !== 'Bearer') return fail(400, 'invalid-headers');
  // Every token here is HS256-signed with the configured key: only its payload decides.
  const payload = JSON.parse(Buffer.from(words[1].split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
  return fromPayload(payload, h, rules.jwt);
}

function fromPayload(p: Record<string, unknown>, h: Record<string, unknown>, jwt: NonNullable<Rules['jwt']>): Outcome {
  const invalidJwt = fail(400, 'invalid-jwt');
  const invalidClaims = fail(400, 'jwt-invalid-claims');
  // Registered claims: NumericDates, strings, aud a string or strings; then the times (no skew), issuer, audience.
  if (['exp', 'nbf', 'iat'].some((k) => k in p && typeof p[k] !== 'number')) return invalidJwt;
  if (['iss', 'sub', 'jti'].some((k) => k in p && typeof p[k] !== 'string')) return invalidJwt;
  const aud = p.aud === undefined ? [] : Array.isArray(p.aud) ? p.aud : [p.aud];
  if (!aud.every((a) => typeof a === 'string')) return invalidJwt;
  if (typeof p.exp === 'number' && NOW >= p.exp) return invalidJwt;
  if (typeof p.iat === 'number' && p.iat > NOW) return invalidJwt;
  if (typeof p.nbf === 'number' && NOW < p.nbf) return invalidJwt;
  if (jwt.issuer !== undefined && p.iss !== jwt.issuer) return invalidJwt;
  if (jwt.audience !== undefined && !aud.some((a) => jwt.audience!.includes(a as string))) return invalidJwt;
  // The claims object, at its namespace or path.
  let where: unknown;
  if ('namespace' in jwt.claims) where = Object.hasOwn(p, jwt.claims.namespace) ? p[jwt.claims.namespace] : undefined;
  else {
    where = p;
    for (const step of jwt.claims.path) {
      if (typeof step === 'number') where = Array.isArray(where) && step < where.length ? where[step] : undefined;
      else where = isObject(where) && Object.hasOwn(where, step) ? where[step] : undefined;
    }
  }
  if (where === undefined) return invalidClaims;
  if (jwt.stringified) {
    if (typeof where !== 'string') return invalidClaims;
    try {
      where = JSON.parse(where);
    } catch {
      return invalidClaims;
    }
  }
  if (!isObject(where)) return invalidClaims;
  const claims = new Map<string, unknown>();
  for (const [k, v] of Object.entries(where)) if (k.toLowerCase().startsWith('x-engine-')) claims.set(k.toLowerCase(), v);
  // The original's order: allowed roles, default role, the requested role, then the other claims as text.
  const role = (v: unknown) => typeof v === 'string' && v !== '';
  if (!claims.has('x-engine-allowed-roles')) return fail(400, 'jwt-missing-role-claims');
  const allowed = claims.get('x-engine-allowed-roles');
  if (!Array.isArray(allowed) || !allowed.every(role)) return invalidClaims;
  if (!claims.has('x-engine-default-role')) return fail(400, 'jwt-missing-role-claims');
  if (!role(claims.get('x-engine-default-role'))) return invalidClaims;
  // An empty X-Engine-Role counts as not sent (as in the trusted case).
  const current = header(h, 'x-engine-role') || (claims.get('x-engine-default-role') as string);
  if (!allowed.includes(current)) return fail(400, 'access-denied');
  claims.delete('x-engine-allowed-roles');
  claims.delete('x-engine-default-role');
  const variables: Record<string, string> = {};
  for (const [k, v] of claims) {
    if (typeof v !== 'string') return invalidClaims;
    variables[k] = v;
  }
  const expiresAt = typeof p.exp === 'number' ? { expiresAt: p.exp * 1000 } : {};
  return { session: { role: current, variables: { ...variables, 'x-engine-role': current }, backendOnly: false, ...expiresAt } };
}

// ---------------------------------------------------------------------------------------------------------------

const SECRET = 'fuzz-admin-secret';
const hs = { type: 'HS256', key: HS_SECRET };
const configs: Record<string, { config: AuthConfig; rules: Rules }> = {
  none: { config: {}, rules: {} },
  secret: { config: { adminSecret: SECRET, unauthorizedRole: 'anon' }, rules: { adminSecret: SECRET, unauthorizedRole: 'anon' } },
  hs: {
    config: { adminSecret: SECRET, jwt: parseJwtConfig(JSON.stringify({ ...hs, audience: ['a'], issuer: 'i' })) },
    rules: { adminSecret: SECRET, jwt: { claims: { namespace: NS }, stringified: false, audience: ['a'], issuer: 'i' } },
  },
  path: {
    config: { adminSecret: SECRET, jwt: parseJwtConfig(JSON.stringify({ ...hs, claims_namespace_path: '$.c[0]' })) },
    rules: { adminSecret: SECRET, jwt: { claims: { path: ['c', 0] }, stringified: false } },
  },
  str: {
    config: { adminSecret: SECRET, jwt: parseJwtConfig(JSON.stringify({ ...hs, claims_format: 'stringified_json' })) },
    rules: { adminSecret: SECRET, jwt: { claims: { namespace: NS }, stringified: true } },
  },
};

/** Outcome kinds each configuration must meet at least 5 times in its 1500 requests (so the fuzzing reaches them). */
const REACHED: Record<string, string[]> = {
  none: ['admin', 'role', '400 bad-request'],
  secret: ['admin', 'role', '401 access-denied', '400 bad-request'],
  hs: ['admin', 'role', '401 access-denied', '400 invalid-headers', '400 invalid-jwt', '400 jwt-invalid-claims', '400 jwt-missing-role-claims', '400 access-denied'],
  path: ['admin', 'role', '401 access-denied', '400 invalid-headers', '400 invalid-jwt', '400 jwt-invalid-claims', '400 jwt-missing-role-claims', '400 access-denied'],
  str: ['admin', 'role', '401 access-denied', '400 invalid-headers', '400 invalid-jwt', '400 jwt-invalid-claims', '400 jwt-missing-role-claims', '400 access-denied'],
};

for (const [name, { config, rules }] of Object.entries(configs)) {
  test(`random requests against ${name}: the session or the error the rules give, never anything else`, async (t) => {
    const r = rng(name.length * 7919);
    const reached = new Map<string, number>();
    for (let i = 0; i < 1500; i++) {
      const payload = randomPayload(r);
      const headers = randomHeaders(r, hsToken(payload), SECRET);
      const want = expected(headers, rules);
      let got: Outcome;
      try {
        const s = await resolveSession(headers, config, { now: () => NOW_MS });
        got = { session: { role: s.role, variables: s.variables, backendOnly: s.backendOnly ?? false, ...(s.expiresAt !== undefined ? { expiresAt: s.expiresAt } : {}) } };
      } catch (e) {
        if (!(e instanceof EngineError)) return t.fail(`non-engine error for ${JSON.stringify(headers)}: ${String(e)}`);
        got = fail(e.status, e.code);
      }
      t.deepEqual(got, want, JSON.stringify({ i, headers, payload }));
      const kind = 'error' in want ? want.error : want.session.role === 'admin' ? 'admin' : 'role';
      reached.set(kind, (reached.get(kind) ?? 0) + 1);
    }
    for (const kind of REACHED[name]) t.true((reached.get(kind) ?? 0) >= 5, `${kind} reached ${reached.get(kind) ?? 0} times: ${JSON.stringify([...reached])}`);
  });
}
