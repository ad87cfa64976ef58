// Accepted credentials: no auth, admin secret, unauthorized role, JWT (HS and RS, namespace path, stringified claims,
// audience, issuer, JWK set) and the auth hook in GET and POST mode.
import test from 'ava';
import { exportJWK, SignJWT } from 'jose';
import { createPublicKey, createSecretKey } from 'node:crypto';
import { parseJwtConfig, type AuthConfig } from '../../src/auth/config.js';
import { JwkStore } from '../../src/auth/jwk.js';
import { resolveSession, startAuth } from '../../src/auth/resolve.js';
import { isAdmin, sessionFromHeaders } from '../../src/auth/session.js';
import { HS_SECRET, hsToken, loopback, NOW, NOW_MS, NS, rsaPair, rsToken, userClaims, readBody, type RsaPair } from './helpers.js';

const SECRET = 'the-admin-secret';
const now = () => NOW_MS;
const hsCfg = (extra: Record<string, unknown> = {}): AuthConfig => ({
  adminSecret: SECRET,
  jwt: parseJwtConfig(JSON.stringify({ type: 'HS256', key: HS_SECRET, ...extra })),
});
let rsa: RsaPair;
test.before(async () => {
  rsa = await rsaPair();
});

test('no auth configured: admin unless X-Engine-Role; headers become variables', async (t) => {
  const admin = await resolveSession({}, {});
  t.true(isAdmin(admin));
  t.deepEqual(admin.variables, { 'x-engine-role': 'admin' });
  const user = await resolveSession({ 'X-Engine-Role': 'user', 'X-Engine-User-Id': '7', 'x-engine-admin-secret': 'ignored', other: 'x' }, {});
  t.is(user.role, 'user');
  t.deepEqual(user.variables, { 'x-engine-role': 'user', 'x-engine-user-id': '7' });
  t.deepEqual(sessionFromHeaders({ 'x-engine-role': 'user' }).role, 'user');
});

test('no auth configured: backend-only flag honoured', async (t) => {
  t.true((await resolveSession({ 'x-engine-use-backend-only-permissions': 'true' }, {})).backendOnly);
  t.false((await resolveSession({ 'x-engine-use-backend-only-permissions': 'no' }, {})).backendOnly);
});

test('admin secret: correct secret gives admin, or the requested role with variables', async (t) => {
  const cfg: AuthConfig = { adminSecret: SECRET };
  const admin = await resolveSession({ 'x-engine-admin-secret': SECRET }, cfg);
  t.is(admin.role, 'admin');
  t.false('x-engine-admin-secret' in admin.variables);
  const viaKey = await resolveSession({ 'x-engine-access-key': SECRET }, cfg);
  t.is(viaKey.role, 'admin');
  const user = await resolveSession({ 'X-Engine-Admin-Secret': SECRET, 'X-Engine-Role': 'user', 'X-Engine-User-Id': '3' }, cfg);
  t.is(user.role, 'user');
  t.deepEqual(user.variables, { 'x-engine-role': 'user', 'x-engine-user-id': '3' });
  const backend = await resolveSession({ 'x-engine-admin-secret': SECRET, 'x-engine-use-backend-only-permissions': 'True' }, cfg);
  t.true(backend.backendOnly);
});

test('admin secret: the secret also works in JWT and hook modes (JWT and hook skipped)', async (t) => {
  const s = await resolveSession({ 'x-engine-admin-secret': SECRET, authorization: 'Bearer garbage' }, hsCfg());
  t.is(s.role, 'admin');
  const h = await resolveSession({ 'x-engine-admin-secret': SECRET }, { adminSecret: SECRET, authHook: { url: 'http://127.0.0.1:1/none', mode: 'GET' } });
  t.is(h.role, 'admin');
});

test('unauthorized role: admin-secret mode and JWT mode without Authorization', async (t) => {
  const a = await resolveSession({ 'x-engine-user-id': '5', 'x-engine-role': 'admin' }, { adminSecret: SECRET, unauthorizedRole: 'anonymous' });
  t.is(a.role, 'anonymous');
  t.deepEqual(a.variables, { 'x-engine-role': 'anonymous', 'x-engine-user-id': '5' });
  t.false(a.backendOnly);
  const j = await resolveSession({ 'x-engine-use-backend-only-permissions': 'true' }, { ...hsCfg(), unauthorizedRole: 'anonymous' });
  t.is(j.role, 'anonymous');
  t.false(j.backendOnly);
});

test('JWT HS256: default role, claims become variables, expiry kept', async (t) => {
  const s = await resolveSession({ authorization: `Bearer ${hsToken(userClaims())}` }, hsCfg(), { now });
  t.is(s.role, 'user');
  t.deepEqual(s.variables, { 'x-engine-role': 'user', 'x-engine-user-id': '42' });
  t.is(s.expiresAt, (NOW + 3600) * 1000);
  t.false(s.backendOnly);
});

test('JWT: the requested role must be allowed, and X-Engine-* headers other than the role are ignored', async (t) => {
  const s = await resolveSession(
    { authorization: `Bearer ${hsToken(userClaims())}`, 'x-engine-role': 'editor', 'x-engine-user-id': '999' },
    hsCfg(),
    { now },
  );
  t.is(s.role, 'editor');
  t.is(s.variables['x-engine-user-id'], '42');
});

test('JWT: claim names are matched case-insensitively and lower-cased', async (t) => {
  const token = hsToken({ exp: NOW + 60, [NS]: { 'X-Engine-Allowed-Roles': ['user'], 'X-Engine-Default-Role': 'user', 'X-Engine-Org-Id': 'o1', other: 1 } });
  const s = await resolveSession({ authorization: `Bearer ${token}` }, hsCfg(), { now });
  t.deepEqual(s.variables, { 'x-engine-role': 'user', 'x-engine-org-id': 'o1' });
});

test('JWT: a token signed with jose SignJWT (HS256) is accepted; another HS algorithm with the same secret is not', async (t) => {
  const key = createSecretKey(Buffer.from(HS_SECRET));
  const token = await new SignJWT(userClaims()).setProtectedHeader({ alg: 'HS256' }).sign(key);
  t.is((await resolveSession({ authorization: `Bearer ${token}` }, hsCfg(), { now })).role, 'user');
  const hs384 = await new SignJWT(userClaims()).setProtectedHeader({ alg: 'HS384' }).sign(key);
  const err = await t.throwsAsync(resolveSession({ authorization: `Bearer ${hs384}` }, hsCfg(), { now }));
  t.is(err?.message, 'Could not verify JWT: JWSError JWSInvalidSignature');
});

test('JWT HS512 config with a 64-character key', async (t) => {
  const key = 'k'.repeat(64);
  const cfg: AuthConfig = { adminSecret: SECRET, jwt: parseJwtConfig(JSON.stringify({ type: 'HS512', key })) };
  const s = await resolveSession({ authorization: `Bearer ${hsToken(userClaims(), key, 'HS512')}` }, cfg, { now });
  t.is(s.role, 'user');
});

test('JWT RS512 with audience array and issuer', async (t) => {
  const cfg: AuthConfig = {
    adminSecret: SECRET,
    jwt: parseJwtConfig(JSON.stringify({ type: 'RS512', key: rsa.publicPem, audience: ['app-1', 'app-2'], issuer: 'https://issuer.test' })),
  };
  const token = await new SignJWT(userClaims({ aud: ['other', 'app-2'], iss: 'https://issuer.test' }))
    .setProtectedHeader({ alg: 'RS512' })
    .sign(rsa.privateKey);
  const s = await resolveSession({ authorization: `Bearer ${token}` }, cfg, { now });
  t.is(s.role, 'user');
  const single = rsToken(userClaims({ aud: 'app-1', iss: 'https://issuer.test' }), rsa.privateKey, 'RS512');
  t.is((await resolveSession({ authorization: `Bearer ${single}` }, cfg, { now })).role, 'user');
});

test('JWT RS256 key given as an X509 certificate', async (t) => {
  const { execFileSync } = await import('node:child_process');
  const { mkdtempSync, readFileSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(`${tmpdir()}/jwtcert-`);
  writeFileSync(`${dir}/key.pem`, rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
  try {
    execFileSync('openssl', ['req', '-new', '-x509', '-key', `${dir}/key.pem`, '-out', `${dir}/cert.pem`, '-days', '2', '-subj', '/CN=test'], { stdio: 'ignore' });
  } catch {
    t.pass('openssl not available');
    return;
  }
  const cert = readFileSync(`${dir}/cert.pem`, 'utf8');
  const cfg: AuthConfig = { adminSecret: SECRET, jwt: parseJwtConfig(JSON.stringify({ type: 'RS256', key: cert })) };
  const s = await resolveSession({ authorization: `Bearer ${rsToken(userClaims(), rsa.privateKey, 'RS256')}` }, cfg, { now });
  t.is(s.role, 'user');
});

test('JWT claims_namespace_path, nested and root', async (t) => {
  const roles = { 'x-engine-allowed-roles': ['user'], 'x-engine-default-role': 'user', 'x-engine-user-id': '9' };
  const nested = await resolveSession(
    { authorization: `Bearer ${hsToken({ exp: NOW + 60, engine: { claims: roles } })}` },
    hsCfg({ claims_namespace_path: '$.engine.claims' }),
    { now },
  );
  t.is(nested.variables['x-engine-user-id'], '9');
  const root = await resolveSession({ authorization: `Bearer ${hsToken({ exp: NOW + 60, ...roles })}` }, hsCfg({ claims_namespace_path: '$' }), { now });
  t.is(root.role, 'user');
  const bracket = await resolveSession(
    { authorization: `Bearer ${hsToken({ 'https://x.io/c': [roles] })}` },
    hsCfg({ claims_namespace_path: "$['https://x.io/c'][0]" }),
    { now },
  );
  t.is(bracket.role, 'user');
});

test('JWT stringified_json claims and a custom namespace', async (t) => {
  const roles = { 'x-engine-allowed-roles': ['user'], 'x-engine-default-role': 'user', 'x-engine-user-id': '9' };
  const s = await resolveSession(
    { authorization: `Bearer ${hsToken({ exp: NOW + 60, 'https://my/ns': JSON.stringify(roles) })}` },
    hsCfg({ claims_format: 'stringified_json', claims_namespace: 'https://my/ns' }),
    { now },
  );
  t.deepEqual(s.variables, { 'x-engine-role': 'user', 'x-engine-user-id': '9' });
});

test('JWT allowed_skew tolerates small clock differences', async (t) => {
  const s = await resolveSession({ authorization: `Bearer ${hsToken(userClaims({ exp: NOW - 5, iat: NOW + 5 }))}` }, hsCfg({ allowed_skew: 10 }), { now });
  t.is(s.role, 'user');
});

test('JWT via a JWK set (kid match) started with startAuth', async (t) => {
  const jwk = { ...(await exportJWK(createPublicKey(rsa.publicPem))), kid: 'k1', use: 'sig' };
  const other = await rsaPair();
  const otherJwk = { ...(await exportJWK(createPublicKey(other.publicPem))), kid: 'k2' };
  const server = await loopback((_req, res) => res.end(JSON.stringify({ keys: [otherJwk, jwk] })));
  try {
    const cfg: AuthConfig = { adminSecret: SECRET, jwt: parseJwtConfig(JSON.stringify({ jwk_url: `${server.url}/jwks.json` })) };
    const runtime = await startAuth(cfg, { now });
    t.true(runtime.jwkStart?.ok);
    const withKid = rsToken(userClaims(), rsa.privateKey, 'RS256', { kid: 'k1' });
    t.is((await resolveSession({ authorization: `Bearer ${withKid}` }, cfg, runtime.deps)).role, 'user');
    const noKid = rsToken(userClaims(), other.privateKey, 'RS512');
    t.is((await resolveSession({ authorization: `Bearer ${noKid}` }, cfg, runtime.deps)).role, 'user');
    runtime.stop();
  } finally {
    await server.close();
  }
  t.true(new JwkStore('http://x').candidates(undefined).length === 0);
});

test('auth hook GET: client headers forwarded (minus the ignored ones), answer becomes the session', async (t) => {
  let seen: Record<string, string | string[] | undefined> = {};
  const hook = await loopback((req, res) => {
    seen = req.headers;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ 'X-Engine-Role': 'user', 'X-Engine-User-Id': '11', 'Cache-Control': 'max-age=600', note: 'kept out' }));
  });
  try {
    const cfg: AuthConfig = { adminSecret: SECRET, authHook: { url: `${hook.url}/auth`, mode: 'GET' } };
    const s = await resolveSession(
      { authorization: 'Bearer abc', cookie: 'sid=1', 'x-engine-role': 'admin', 'user-agent': 'curl/8', origin: 'http://o', accept: '*/*' },
      cfg,
      { now, version: 'v9' },
    );
    t.is(s.role, 'user');
    t.deepEqual(s.variables, { 'x-engine-role': 'user', 'x-engine-user-id': '11' });
    t.is(s.expiresAt, NOW_MS + 600_000);
    t.is(seen.authorization, 'Bearer abc');
    t.is(seen.cookie, 'sid=1');
    t.is(seen['x-engine-role'], 'admin');
    t.is(seen['user-agent'], 'engine-graphql-engine/v9');
    t.is(seen['content-type'], 'application/json');
    t.is(seen.origin, undefined);
  } finally {
    await hook.close();
  }
});

test('auth hook POST: body {headers} with all client headers; Expires gives the expiry', async (t) => {
  let body: unknown;
  let method = '';
  const hook = await loopback(async (req, res) => {
    method = req.method ?? '';
    body = JSON.parse(await readBody(req));
    res.end(JSON.stringify({ 'x-engine-role': 'editor', expires: 'Thu, 01 Jan 2026 01:00:00 GMT' }));
  });
  try {
    const cfg: AuthConfig = { adminSecret: SECRET, authHook: { url: hook.url, mode: 'POST' } };
    const s = await resolveSession({ authorization: 'Bearer abc', 'user-agent': 'curl/8' }, cfg, { now });
    t.is(method, 'POST');
    t.deepEqual(body, { headers: { authorization: 'Bearer abc', 'user-agent': 'curl/8' } });
    t.is(s.role, 'editor');
    t.is(s.expiresAt, Date.UTC(2026, 0, 1, 1));
  } finally {
    await hook.close();
  }
});

test('a token seen before is still checked for expiry, and a cached result is not reused after a key change', async (t) => {
  const token = hsToken(userClaims({ exp: NOW + 10 }));
  const cfg = hsCfg();
  t.is((await resolveSession({ authorization: `Bearer ${token}` }, cfg, { now })).role, 'user');
  t.is((await resolveSession({ authorization: `Bearer ${token}` }, cfg, { now })).role, 'user');
  const later = () => NOW_MS + 11_000;
  await t.throwsAsync(resolveSession({ authorization: `Bearer ${token}` }, cfg, { now: later }), { message: 'Could not verify JWT: JWTExpired' });
  // the requested role is checked on every request too
  await t.throwsAsync(resolveSession({ authorization: `Bearer ${token}`, 'x-engine-role': 'admin' }, cfg, { now }), {
    message: 'Your requested role is not in allowed roles',
  });
  // same token, another secret: verified afresh, rejected
  const other: AuthConfig = { adminSecret: SECRET, jwt: parseJwtConfig(JSON.stringify({ type: 'HS256', key: 'x'.repeat(40) })) };
  await t.throwsAsync(resolveSession({ authorization: `Bearer ${token}` }, other, { now }), { message: 'Could not verify JWT: JWSError JWSInvalidSignature' });
});
