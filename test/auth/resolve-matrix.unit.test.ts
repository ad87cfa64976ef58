// Bad credentials: every way a request can fail authentication, with the exact code, message and status.
import test from 'ava';
import { exportJWK } from 'jose';
import { createPublicKey } from 'node:crypto';
import { EngineError } from '../../src/core/errors.js';
import { parseJwtConfig, type AuthConfig } from '../../src/auth/config.js';
import { JwkStore } from '../../src/auth/jwk.js';
import { authErrorStatus, resolveSession, type ResolveDeps } from '../../src/auth/resolve.js';
import {
  deadUrl, HS_SECRET, hsToken, loopback, noneToken, NOW, NOW_MS, NS, rsaPair, rsToken, userClaims,
  type Loopback, type RsaPair,
} from './helpers.js';

const SECRET = 'the-admin-secret';
const noTimers = { setTimer: () => undefined, clearTimer: () => undefined };

interface Ctx {
  configs: Record<string, AuthConfig>;
  deps: Record<string, ResolveDeps>;
  rsa: RsaPair;
  other: RsaPair;
  servers: Loopback[];
}
const ctx = {} as Ctx;

test.before(async () => {
  ctx.rsa = await rsaPair();
  ctx.other = await rsaPair();
  ctx.servers = [];
  const hs = parseJwtConfig(JSON.stringify({ type: 'HS256', key: HS_SECRET }));
  const rs = parseJwtConfig(JSON.stringify({ type: 'RS512', key: ctx.rsa.publicPem, audience: ['app-1', 'app-2'], issuer: 'https://issuer.test' }));
  const path = parseJwtConfig(JSON.stringify({ type: 'HS256', key: HS_SECRET, claims_namespace_path: '$.engine.claims' }));
  const str = parseJwtConfig(JSON.stringify({ type: 'HS256', key: HS_SECRET, claims_format: 'stringified_json' }));

  // JWK endpoints: one serving the real key set, one answering garbage, one that is down.
  const jwk = { ...(await exportJWK(createPublicKey(ctx.rsa.publicPem))), kid: 'k1', alg: 'RS512', use: 'sig' };
  const good = await loopback((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  const garbage = await loopback((_req, res) => res.end('<html>not a key set</html>'));
  ctx.servers.push(good, garbage);
  const store = async (url: string): Promise<JwkStore> => {
    const s = new JwkStore(url, { ...noTimers, now: () => NOW_MS });
    await s.start();
    return s;
  };
  const jwkCfg = (url: string): AuthConfig => ({ adminSecret: SECRET, jwt: parseJwtConfig(JSON.stringify({ jwk_url: url })) });
  const down = await deadUrl();

  // Auth hooks: one route per behaviour.
  const hook = await loopback((req, res) => {
    const route = req.url ?? '';
    if (route === '/unauthorized') { res.statusCode = 401; res.end('{}'); return; }
    if (route === '/error') { res.statusCode = 500; res.end('{"message":"boom"}'); return; }
    if (route === '/redirect') { res.statusCode = 302; res.setHeader('location', '/ok'); res.end(); return; }
    if (route === '/garbage') { res.end('this is not json'); return; }
    if (route === '/array') { res.end('["x-engine-role"]'); return; }
    if (route === '/number') { res.end('{"X-Engine-Role":"user","X-Engine-User-Id":42}'); return; }
    if (route === '/norole') { res.end('{"X-Engine-User-Id":"42"}'); return; }
    if (route === '/emptyrole') { res.end('{"X-Engine-Role":""}'); return; }
    if (route === '/huge') { res.write('{"x-engine-role":"'); for (let i = 0; i < 40; i++) res.write('x'.repeat(64 * 1024)); res.end('"}'); return; }
    res.end('{"X-Engine-Role":"user"}');
  });
  ctx.servers.push(hook);
  const hookCfg = (route: string, mode: 'GET' | 'POST' = 'GET'): AuthConfig => ({ adminSecret: SECRET, authHook: { url: hook.url + route, mode } });

  ctx.configs = {
    none: {},
    secret: { adminSecret: SECRET },
    hs: { adminSecret: SECRET, jwt: hs },
    rs: { adminSecret: SECRET, jwt: rs },
    path: { adminSecret: SECRET, jwt: path },
    str: { adminSecret: SECRET, jwt: str },
    jwk: jwkCfg(good.url),
    jwkDown: jwkCfg(down),
    jwkGarbage: jwkCfg(garbage.url),
    hookUnauthorized: hookCfg('/unauthorized'),
    hookError: hookCfg('/error', 'POST'),
    hookRedirect: hookCfg('/redirect'),
    hookGarbage: hookCfg('/garbage'),
    hookArray: hookCfg('/array', 'POST'),
    hookNumber: hookCfg('/number'),
    hookNoRole: hookCfg('/norole'),
    hookEmptyRole: hookCfg('/emptyrole', 'POST'),
    hookHuge: hookCfg('/huge'),
    hookDown: { adminSecret: SECRET, authHook: { url: down + '/hook', mode: 'GET' } },
    hookOk: hookCfg('/ok'),
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

type Headers = Record<string, string>;
interface Case {
  name: string;
  config: string;
  headers: () => Headers;
  code: string;
  message: string;
  status: number;
}

const bearer = (token: string, extra: Headers = {}): Headers => ({ authorization: `Bearer ${token}`, ...extra });
const claims = (c: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ sub: '42', iat: NOW - 60, exp: NOW + 3600, [NS]: c, ...extra });
const roles = { 'x-engine-allowed-roles': ['user', 'editor'], 'x-engine-default-role': 'user' };
const jwtErr = (detail: string) => ({ code: 'invalid-jwt', message: `Could not verify JWT: ${detail}`, status: 400 });
const badSig = jwtErr('JWSError JWSInvalidSignature');
const malformed = { code: 'invalid-headers', message: 'Malformed Authorization header', status: 400 };
const wrongSecret = { code: 'access-denied', message: 'invalid x-engine-admin-secret/x-engine-access-key', status: 401 };
const notAllowed = { code: 'access-denied', message: 'Your requested role is not in allowed roles', status: 400 };
const invalidClaims = (message: string) => ({ code: 'jwt-invalid-claims', message, status: 400 });
const hookInvalid = (detail?: string) => ({
  code: 'unexpected',
  message: detail === undefined ? 'Invalid response from authorization hook' : `Invalid response from authorization hook: ${detail}`,
  status: 500,
});
const flip = (s: string, at: number): string => s.slice(0, at) + (s[at] === 'A' ? 'B' : 'A') + s.slice(at + 1);

const cases: Case[] = [
  // admin secret
  { name: 'wrong admin secret', config: 'secret', headers: () => ({ 'x-engine-admin-secret': 'nope' }), ...wrongSecret },
  { name: 'wrong deprecated access key', config: 'secret', headers: () => ({ 'x-engine-access-key': 'nope' }), ...wrongSecret },
  { name: 'empty admin secret header', config: 'secret', headers: () => ({ 'x-engine-admin-secret': '' }), ...wrongSecret },
  { name: 'admin secret prefix', config: 'secret', headers: () => ({ 'x-engine-admin-secret': SECRET.slice(0, -1) }), ...wrongSecret },
  { name: 'admin secret with trailing space', config: 'secret', headers: () => ({ 'X-Engine-Admin-Secret': `${SECRET} ` }), ...wrongSecret },
  { name: 'no credentials, no unauthorized role', config: 'secret', headers: () => ({ 'x-engine-role': 'user' }),
    code: 'access-denied', message: 'x-engine-admin-secret/x-engine-access-key required, but not found', status: 401 },
  { name: 'bad backend-only flag', config: 'secret', headers: () => ({ 'x-engine-admin-secret': SECRET, 'x-engine-use-backend-only-permissions': 'maybe' }),
    code: 'bad-request', status: 400,
    message: 'x-engine-use-backend-only-permissions:  Not a valid boolean text. True values are ["true","t","yes","y"] and  False values are ["false","f","no","n"]. All values are case insensitive' },
  { name: 'wrong admin secret with a valid JWT', config: 'hs', headers: () => bearer(hsToken(userClaims()), { 'x-engine-admin-secret': 'nope' }), ...wrongSecret },
  { name: 'wrong admin secret in hook mode', config: 'hookOk', headers: () => ({ 'x-engine-admin-secret': 'nope' }), ...wrongSecret },

  // Authorization header
  { name: 'missing Authorization header', config: 'hs', headers: () => ({ 'x-engine-role': 'user' }),
    code: 'invalid-headers', message: 'Missing Authorization header in JWT authentication mode', status: 400 },
  { name: 'no Bearer scheme', config: 'hs', headers: () => ({ authorization: hsToken(userClaims()) }), ...malformed },
  { name: 'other scheme', config: 'hs', headers: () => ({ authorization: `Basic ${hsToken(userClaims())}` }), ...malformed },
  { name: 'lower-case bearer', config: 'hs', headers: () => ({ authorization: `bearer ${hsToken(userClaims())}` }), ...malformed },
  { name: 'empty token', config: 'hs', headers: () => ({ authorization: 'Bearer ' }), ...malformed },
  { name: 'empty header', config: 'hs', headers: () => ({ authorization: '' }), ...malformed },
  { name: 'three words', config: 'hs', headers: () => ({ authorization: `Bearer ${hsToken(userClaims())} extra` }), ...malformed },
  { name: 'oversized header', config: 'hs', headers: () => ({ authorization: `Bearer ${'a'.repeat(20_000)}.b.c` }), ...malformed },

  // token structure
  { name: 'token of 2 parts', config: 'hs', headers: () => bearer('abc.def'),
    ...jwtErr('JWSError (CompactDecodeError Invalid number of parts: Expected 3 parts; got 2)') },
  { name: 'token of 1 part', config: 'hs', headers: () => bearer('garbage'),
    ...jwtErr('JWSError (CompactDecodeError Invalid number of parts: Expected 3 parts; got 1)') },
  { name: 'header not base64url JSON', config: 'hs', headers: () => bearer('!!!.e30.sig'),
    ...jwtErr('JWSError (CompactDecodeError Invalid text: the header is not base64url-encoded JSON)') },
  { name: 'unknown alg', config: 'hs', headers: () => bearer(hsToken(userClaims(), HS_SECRET, 'XX999')),
    ...jwtErr('JWSError (JSONDecodeError "unrecognised or missing alg")') },
  { name: 'payload not JSON', config: 'hs', headers: () => bearer(hsToken('{not json')),
    ...jwtErr('JWTClaimsSetDecodeError "the payload is not base64url-encoded JSON"') },
  { name: 'payload an array', config: 'hs', headers: () => bearer(hsToken('[1,2]')),
    ...jwtErr('JWTClaimsSetDecodeError "the payload is not a JSON object"') },
  { name: 'exp not a number', config: 'hs', headers: () => bearer(hsToken(userClaims({ exp: 'tomorrow' }))),
    ...jwtErr('JWTClaimsSetDecodeError "exp should be a NumericDate"') },

  // signature
  { name: 'alg none', config: 'hs', headers: () => bearer(noneToken(userClaims())), ...jwtErr('JWSError JWSNoSignatures') },
  { name: 'wrong HS secret', config: 'hs', headers: () => bearer(hsToken(userClaims(), 'another-secret-that-is-long-enough-000')), ...badSig },
  { name: 'tampered payload', config: 'hs', headers: () => {
    const [h, , s] = hsToken(userClaims()).split('.');
    const evil = Buffer.from(JSON.stringify(userClaims({ [NS]: { ...roles, 'x-engine-allowed-roles': ['admin'], 'x-engine-default-role': 'admin' } }))).toString('base64url');
    return bearer(`${h}.${evil}.${s}`);
  }, ...badSig },
  { name: 'tampered signature', config: 'hs', headers: () => { const t = hsToken(userClaims()); return bearer(flip(t, t.length - 5)); }, ...badSig },
  { name: 'signature stripped', config: 'hs', headers: () => { const t = hsToken(userClaims()); return bearer(t.slice(0, t.lastIndexOf('.') + 1)); }, ...badSig },
  { name: 'RS-signed token against an HS key', config: 'hs', headers: () => bearer(rsToken(userClaims(), ctx.rsa.privateKey)), ...badSig },
  { name: 'HS/RS confusion: public key used as HS secret', config: 'rs',
    headers: () => bearer(hsToken(userClaims({ aud: 'app-1', iss: 'https://issuer.test' }), ctx.rsa.publicPem, 'HS256')), ...badSig },
  { name: 'HS512 confusion with the public key', config: 'rs',
    headers: () => bearer(hsToken(userClaims({ aud: 'app-1', iss: 'https://issuer.test' }), ctx.rsa.publicPem, 'HS512')), ...badSig },
  // issue 8: only the configured algorithm is accepted, even with the right key
  { name: 'HS512 token against an HS256 key (same secret)', config: 'hs', headers: () => bearer(hsToken(userClaims(), HS_SECRET, 'HS512')), ...badSig },
  { name: 'HS384 token against an HS256 key (same secret)', config: 'hs', headers: () => bearer(hsToken(userClaims(), HS_SECRET, 'HS384')), ...badSig },
  { name: 'RS256 token against an RS512 key (same key pair)', config: 'rs',
    headers: () => bearer(rsToken(userClaims({ aud: 'app-1', iss: 'https://issuer.test' }), ctx.rsa.privateKey, 'RS256')), ...badSig },
  { name: 'RS384 token against an RS512 key (same key pair)', config: 'rs',
    headers: () => bearer(rsToken(userClaims({ aud: 'app-1', iss: 'https://issuer.test' }), ctx.rsa.privateKey, 'RS384')), ...badSig },
  { name: 'wrong RSA key', config: 'rs', headers: () => bearer(rsToken(userClaims({ aud: 'app-1', iss: 'https://issuer.test' }), ctx.other.privateKey)), ...badSig },

  // time claims
  { name: 'expired', config: 'hs', headers: () => bearer(hsToken(userClaims({ exp: NOW - 1 }))), ...jwtErr('JWTExpired') },
  { name: 'expiring exactly now', config: 'hs', headers: () => bearer(hsToken(userClaims({ exp: NOW }))), ...jwtErr('JWTExpired') },
  { name: 'issued in the future', config: 'hs', headers: () => bearer(hsToken(userClaims({ iat: NOW + 60 }))), ...jwtErr('JWTIssuedAtFuture') },
  { name: 'not yet valid (nbf)', config: 'hs', headers: () => bearer(hsToken(userClaims({ nbf: NOW + 60 }))), ...jwtErr('JWTNotYetValid') },

  // audience / issuer
  { name: 'wrong audience', config: 'rs', headers: () => bearer(rsToken(userClaims({ aud: 'app-3', iss: 'https://issuer.test' }), ctx.rsa.privateKey)), ...jwtErr('JWTNotInAudience') },
  { name: 'missing audience', config: 'rs', headers: () => bearer(rsToken(userClaims({ iss: 'https://issuer.test' }), ctx.rsa.privateKey)), ...jwtErr('JWTNotInAudience') },
  { name: 'wrong issuer', config: 'rs', headers: () => bearer(rsToken(userClaims({ aud: 'app-1', iss: 'https://evil.test' }), ctx.rsa.privateKey)), ...jwtErr('JWTNotInIssuer') },
  { name: 'missing issuer', config: 'rs', headers: () => bearer(rsToken(userClaims({ aud: ['app-2'] }), ctx.rsa.privateKey)), ...jwtErr('JWTNotInIssuer') },

  // claims
  { name: 'missing claims namespace', config: 'hs', headers: () => bearer(hsToken({ sub: '1', exp: NOW + 60, 'https://other/claims': roles })),
    ...invalidClaims(`claims key: '${NS}' not found`) },
  { name: 'claims not an object', config: 'hs', headers: () => bearer(hsToken({ exp: NOW + 60, [NS]: 'x' })),
    ...invalidClaims('expecting a json object when claims_format is json') },
  { name: 'claims not at claims_namespace_path', config: 'path', headers: () => bearer(hsToken({ exp: NOW + 60, engine: { other: roles } })),
    ...invalidClaims(`claims not found at claims_namespace_path: '$.engine.claims'`) },
  { name: 'stringified claims that are not a string', config: 'str', headers: () => bearer(hsToken(claims(roles))),
    ...invalidClaims('expecting a string when claims_format is stringified_json') },
  { name: 'stringified claims that are not JSON', config: 'str', headers: () => bearer(hsToken({ exp: NOW + 60, [NS]: '{not json' })),
    ...invalidClaims(`expecting stringified json at: 'claims_namespace ${NS}', but found: {not json`) },
  { name: 'missing default role', config: 'hs', headers: () => bearer(hsToken(claims({ 'x-engine-allowed-roles': ['user'] }))),
    code: 'jwt-missing-role-claims', message: 'JWT claim does not contain x-engine-default-role', status: 400 },
  { name: 'missing allowed roles', config: 'hs', headers: () => bearer(hsToken(claims({ 'x-engine-default-role': 'user' }))),
    code: 'jwt-missing-role-claims', message: 'JWT claim does not contain x-engine-allowed-roles', status: 400 },
  { name: 'allowed roles not a list', config: 'hs', headers: () => bearer(hsToken(claims({ ...roles, 'x-engine-allowed-roles': 'user' }))),
    ...invalidClaims('invalid x-engine-allowed-roles; should be a list of roles: parsing [] failed, expected Array, but encountered String') },
  { name: 'allowed roles with a number', config: 'hs', headers: () => bearer(hsToken(claims({ ...roles, 'x-engine-allowed-roles': ['user', 7] }))),
    ...invalidClaims('invalid x-engine-allowed-roles; should be a list of roles: parsing String failed, expected String, but encountered Number') },
  { name: 'default role not a string', config: 'hs', headers: () => bearer(hsToken(claims({ ...roles, 'x-engine-default-role': ['user'] }))),
    ...invalidClaims('invalid x-engine-default-role; should be a single role name: parsing String failed, expected String, but encountered Array') },
  { name: 'default role empty', config: 'hs', headers: () => bearer(hsToken(claims({ ...roles, 'x-engine-default-role': '' }))),
    ...invalidClaims('invalid x-engine-default-role; should be a single role name: empty string not allowed') },
  { name: 'default role not in allowed roles', config: 'hs', headers: () => bearer(hsToken(claims({ ...roles, 'x-engine-default-role': 'admin' }))), ...notAllowed },
  { name: 'requested role not allowed', config: 'hs', headers: () => bearer(hsToken(userClaims()), { 'x-engine-role': 'admin' }), ...notAllowed },
  { name: 'requested role differs in case', config: 'hs', headers: () => bearer(hsToken(userClaims()), { 'X-Engine-Role': 'User' }), ...notAllowed },
  { name: 'session claim not a string', config: 'hs', headers: () => bearer(hsToken(claims({ ...roles, 'x-engine-user-id': 42 }))),
    ...invalidClaims('x-engine-* claims: parsing Text failed, expected String, but encountered Number') },

  // JWK sets
  { name: 'JWK endpoint down', config: 'jwkDown', headers: () => bearer(rsToken(userClaims(), ctx.rsa.privateKey, 'RS512', { kid: 'k1' })),
    ...jwtErr('JWSError NoUsableKeys') },
  { name: 'JWK endpoint answering garbage', config: 'jwkGarbage', headers: () => bearer(rsToken(userClaims(), ctx.rsa.privateKey, 'RS512', { kid: 'k1' })),
    ...jwtErr('JWSError NoUsableKeys') },
  { name: 'JWK set without the signing key', config: 'jwk', headers: () => bearer(rsToken(userClaims(), ctx.other.privateKey, 'RS512', { kid: 'k1' })), ...badSig },
  { name: 'JWK key pinned to another alg', config: 'jwk', headers: () => bearer(rsToken(userClaims(), ctx.rsa.privateKey, 'RS256', { kid: 'k1' })), ...badSig },
  { name: 'JWK set with an HS token signed by the JWK modulus', config: 'jwk', headers: () => bearer(hsToken(userClaims(), ctx.rsa.publicPem, 'HS256', { kid: 'k1' })), ...badSig },

  // auth hook
  { name: 'hook answers 401', config: 'hookUnauthorized', headers: () => ({ authorization: 'Bearer x' }),
    code: 'access-denied', message: 'Authentication hook unauthorized this request', status: 401 },
  { name: 'hook answers 500', config: 'hookError', headers: () => ({}), ...hookInvalid() },
  { name: 'hook answers a redirect', config: 'hookRedirect', headers: () => ({}), ...hookInvalid() },
  { name: 'hook answers garbage', config: 'hookGarbage', headers: () => ({}), ...hookInvalid('Error in $: Failed reading: not a valid json value') },
  { name: 'hook answers an array', config: 'hookArray', headers: () => ({}),
    ...hookInvalid('Error in $: parsing HashMap ~Text failed, expected Object, but encountered Array') },
  { name: 'hook answers a number value', config: 'hookNumber', headers: () => ({}),
    ...hookInvalid("Error in $['X-Engine-User-Id']: parsing Text failed, expected String, but encountered Number") },
  { name: 'hook answers no role', config: 'hookNoRole', headers: () => ({ 'x-engine-role': 'admin' }),
    code: 'invalid-params', message: 'x-engine-role not found in session variables', status: 400 },
  { name: 'hook answers an empty role', config: 'hookEmptyRole', headers: () => ({}),
    code: 'invalid-params', message: 'x-engine-role not found in session variables', status: 400 },
  { name: 'hook answers a body over 1 MiB', config: 'hookHuge', headers: () => ({}), ...hookInvalid('response body larger than 1048576 bytes') },
  { name: 'hook down', config: 'hookDown', headers: () => ({}), code: 'unexpected', message: 'webhook authentication request failed', status: 500 },
];

for (const c of cases) {
  test(`rejects: ${c.name}`, async (t) => {
    const deps = ctx.deps[c.config] ?? { now: () => NOW_MS };
    const err = await t.throwsAsync(resolveSession(c.headers(), ctx.configs[c.config], deps), { instanceOf: EngineError });
    t.is(err?.code as string, c.code);
    t.is(err?.message, c.message);
    t.is(err?.status, c.status);
    t.is(err?.path, '$');
    // /v1/graphql answers every auth failure with 200; other endpoints with the error's own status.
    t.is(authErrorStatus(err as EngineError, '/v1/graphql'), 200);
    t.is(authErrorStatus(err as EngineError, '/v1/query'), c.status);
  });
}

test('the matrix has at least 40 cases', (t) => {
  t.true(cases.length >= 40, `${cases.length} cases`);
});
