// The one table of bad credentials: every way a request can fail authentication, with the exact code, message and
// status (on /v1/query; /v1/graphql answers 200) the original gives. Two runners read it: the resolver alone
// (test/auth/resolve-matrix.unit.test.ts) and real engines over HTTP (test/http/auth-matrix.int.test.ts), so the two
// cannot drift apart. A case names its auth setup (the engine's configuration) and, in hook mode, how the auth hook
// answers; tokens are built from the clock the runner gives (a fixed one for the resolver, the real one over HTTP).
import type http from 'node:http';
import { HS_SECRET, hsToken, noneToken, NS, rsToken, type RsaPair } from './helpers.js';

export const ADMIN_SECRET = 'bad-credentials-admin-secret';

/** The auth setups the table uses; each runner makes one configuration (or engine) per setup. */
export const SETUPS = ['secret', 'hs', 'rs', 'path', 'str', 'jwk', 'jwkDown', 'jwkGarbage', 'hook', 'hookPost'] as const;
export type Setup = (typeof SETUPS)[number];

/** The JWT secret (--jwt-secret JSON) of each JWT setup, given the RSA key, the JWK set's URL and a dead URL. */
export function jwtSecretOf(setup: Setup, k: { rsa: RsaPair; jwkUrl: string; garbageUrl: string; deadUrl: string }): Record<string, unknown> | null {
  switch (setup) {
    case 'hs': return { type: 'HS256', key: HS_SECRET };
    case 'rs': return { type: 'RS512', key: k.rsa.publicPem, audience: ['app-1', 'app-2'], issuer: 'https://issuer.test' };
    case 'path': return { type: 'HS256', key: HS_SECRET, claims_namespace_path: '$.engine.claims' };
    case 'str': return { type: 'HS256', key: HS_SECRET, claims_format: 'stringified_json' };
    case 'jwk': return { jwk_url: k.jwkUrl };
    case 'jwkDown': return { jwk_url: k.deadUrl };
    case 'jwkGarbage': return { jwk_url: k.garbageUrl };
    default: return null;
  }
}

/** How the auth hook answers (setups hook: GET, hookPost: POST). `down`: nothing listens at the hook's URL. */
export const HOOK_BEHAVIOURS = ['ok', '401', '500', 'redirect', 'garbage', 'array', 'number', 'norole', 'emptyrole', 'huge', 'hangup', 'down'] as const;
export type HookBehaviour = (typeof HOOK_BEHAVIOURS)[number];

/** The auth hook's answer for a behaviour (`down` is not answered: the runner points the hook at a dead URL). */
export function answerHook(behaviour: HookBehaviour, req: http.IncomingMessage, res: http.ServerResponse): void {
  switch (behaviour) {
    case '401': res.statusCode = 401; res.end('{}'); return;
    case '500': res.statusCode = 500; res.end('{"message":"boom"}'); return;
    case 'redirect': res.statusCode = 302; res.setHeader('location', '/ok'); res.end(); return;
    case 'garbage': res.end('this is not json'); return;
    case 'array': res.end('["x-engine-role"]'); return;
    case 'number': res.end('{"X-Engine-Role":"user","X-Engine-User-Id":42}'); return;
    case 'norole': res.end('{"X-Engine-User-Id":"42"}'); return;
    case 'emptyrole': res.end('{"X-Engine-Role":""}'); return;
    case 'huge': res.write('{"x-engine-role":"'); for (let i = 0; i < 40; i++) res.write('x'.repeat(64 * 1024)); res.end('"}'); return;
    case 'hangup': req.socket.destroy(); return;
    default: res.end('{"X-Engine-Role":"user","X-Engine-User-Id":"1"}');
  }
}

/** What a case's headers are built from. */
export interface Keys {
  /** The clock the credentials are checked against, seconds. */
  now: number;
  /** The key pair of the rs and jwk setups. */
  rsa: RsaPair;
  /** A key pair nobody trusts. */
  other: RsaPair;
}

type Headers = Record<string, string>;

export interface BadCredentials {
  name: string;
  setup: Setup;
  /** In the hook setups: how the hook answers (default ok). */
  hook?: HookBehaviour;
  headers(k: Keys): Headers;
  code: string;
  message: string;
  /** The status on /v1/query (and the resolver's error status); /v1/graphql answers 200. */
  status: number;
  /** Only for the resolver: over HTTP the request is refused (or changed) before authentication, as said. */
  resolverOnly?: string;
}

const roles = { 'x-engine-allowed-roles': ['user', 'editor'], 'x-engine-default-role': 'user' };
const claims = (k: Keys, c: unknown, extra: Record<string, unknown> = {}) => ({ sub: '1', iat: k.now - 60, exp: k.now + 3600, [NS]: c, ...extra });
/** Claims of a user who may be `user` or `editor`. */
export const userClaims = (k: Keys, extra: Record<string, unknown> = {}) => claims(k, { ...roles, 'x-engine-user-id': '1' }, extra);
/** What the rs setup requires besides a good signature. */
export const RS_GOOD = { aud: 'app-1', iss: 'https://issuer.test' };
export const bearer = (token: string, extra: Headers = {}): Headers => ({ authorization: `Bearer ${token}`, ...extra });
const jwtErr = (detail: string) => ({ code: 'invalid-jwt', message: `Could not verify JWT: ${detail}`, status: 400 });
const badSig = jwtErr('JWSError JWSInvalidSignature');
const malformed = { code: 'invalid-headers', message: 'Malformed Authorization header', status: 400 };
const wrongSecret = { code: 'access-denied', message: 'invalid x-engine-admin-secret/x-engine-access-key', status: 401 };
const noSecret = { code: 'access-denied', message: 'x-engine-admin-secret/x-engine-access-key required, but not found', status: 401 };
const notAllowed = { code: 'access-denied', message: 'Your requested role is not in allowed roles', status: 400 };
const invalidClaims = (message: string) => ({ code: 'jwt-invalid-claims', message, status: 400 });
const missingRole = (claim: string) => ({ code: 'jwt-missing-role-claims', message: `JWT claim does not contain ${claim}`, status: 400 });
const hookInvalid = (detail?: string) => ({
  code: 'unexpected',
  message: detail === undefined ? 'Invalid response from authorization hook' : `Invalid response from authorization hook: ${detail}`,
  status: 500,
});
const hookFailed = { code: 'unexpected', message: 'webhook authentication request failed', status: 500 };
const noHookRole = { code: 'invalid-params', message: 'x-engine-role not found in session variables', status: 400 };
const flip = (s: string, at: number): string => s.slice(0, at) + (s[at] === 'A' ? 'B' : 'A') + s.slice(at + 1);
const segment = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
const hs = (k: Keys, extra: Record<string, unknown> = {}) => hsToken(userClaims(k, extra));
const rs = (k: Keys, extra: Record<string, unknown> = {}, key = k.rsa, alg = 'RS512') => rsToken(userClaims(k, { ...RS_GOOD, ...extra }), key.privateKey, alg);
const jwkToken = (k: Keys, key: RsaPair, alg = 'RS512') => rsToken(userClaims(k), key.privateKey, alg, { kid: 'k1' });
const admin = { 'x-engine-allowed-roles': ['admin'], 'x-engine-default-role': 'admin' };

export const badCredentials: BadCredentials[] = [
  // admin secret
  { name: 'wrong admin secret', setup: 'secret', headers: () => ({ 'x-engine-admin-secret': 'nope' }), ...wrongSecret },
  { name: 'wrong deprecated access key', setup: 'secret', headers: () => ({ 'x-engine-access-key': 'nope' }), ...wrongSecret },
  { name: 'empty admin secret header', setup: 'secret', headers: () => ({ 'x-engine-admin-secret': '' }), ...wrongSecret },
  { name: 'admin secret prefix', setup: 'secret', headers: () => ({ 'x-engine-admin-secret': ADMIN_SECRET.slice(0, -1) }), ...wrongSecret },
  { name: 'admin secret in another case', setup: 'secret', headers: () => ({ 'x-engine-admin-secret': ADMIN_SECRET.toUpperCase() }), ...wrongSecret },
  { name: 'admin secret with trailing space', setup: 'secret', headers: () => ({ 'X-Engine-Admin-Secret': `${ADMIN_SECRET} ` }), ...wrongSecret,
    resolverOnly: 'HTTP header values lose their trailing whitespace on the wire' },
  { name: 'no credentials, no unauthorized role', setup: 'secret', headers: () => ({ 'x-engine-role': 'user', 'x-engine-user-id': '1' }), ...noSecret },
  { name: 'bad backend-only flag', setup: 'secret', headers: () => ({ 'x-engine-admin-secret': ADMIN_SECRET, 'x-engine-use-backend-only-permissions': 'maybe' }),
    code: 'bad-request', status: 400,
    message: 'x-engine-use-backend-only-permissions:  Not a valid boolean text. True values are ["true","t","yes","y"] and  False values are ["false","f","no","n"]. All values are case insensitive' },
  { name: 'wrong admin secret with a valid JWT', setup: 'hs', headers: (k) => bearer(hs(k), { 'x-engine-admin-secret': 'nope' }), ...wrongSecret },
  // a metadata version the instance has not reached must not make an unauthenticated request read the metadata log
  { name: 'wrong admin secret waiting for a metadata version', setup: 'secret',
    headers: () => ({ 'x-engine-admin-secret': 'nope', 'x-engine-min-metadata-version': '999999' }), ...wrongSecret },
  { name: 'no credentials waiting for a metadata version', setup: 'secret', headers: () => ({ 'x-engine-min-metadata-version': '999999' }), ...noSecret },
  { name: 'wrong admin secret in hook mode', setup: 'hook', headers: () => ({ 'x-engine-admin-secret': 'nope' }), ...wrongSecret },

  // Authorization header
  { name: 'missing Authorization header', setup: 'hs', headers: () => ({ 'x-engine-role': 'user' }),
    code: 'invalid-headers', message: 'Missing Authorization header in JWT authentication mode', status: 400 },
  { name: 'no Bearer scheme', setup: 'hs', headers: (k) => ({ authorization: hs(k) }), ...malformed },
  { name: 'other scheme', setup: 'hs', headers: (k) => ({ authorization: `Basic ${hs(k)}` }), ...malformed },
  { name: 'lower-case bearer', setup: 'hs', headers: (k) => ({ authorization: `bearer ${hs(k)}` }), ...malformed },
  { name: 'empty token', setup: 'hs', headers: () => ({ authorization: 'Bearer ' }), ...malformed },
  { name: 'empty header', setup: 'hs', headers: () => ({ authorization: '' }), ...malformed },
  { name: 'three words', setup: 'hs', headers: (k) => ({ authorization: `Bearer ${hs(k)} extra` }), ...malformed },
  { name: 'oversized header', setup: 'hs', headers: () => ({ authorization: `Bearer ${'a'.repeat(20_000)}.b.c` }), ...malformed,
    resolverOnly: 'the HTTP server answers 431 before authentication (auth-matrix.int tests it)' },

  // token structure
  { name: 'token of 2 parts', setup: 'hs', headers: () => bearer('abc.def'),
    ...jwtErr('JWSError (CompactDecodeError Invalid number of parts: Expected 3 parts; got 2)') },
  { name: 'token of 1 part', setup: 'hs', headers: () => bearer('garbage'),
    ...jwtErr('JWSError (CompactDecodeError Invalid number of parts: Expected 3 parts; got 1)') },
  { name: 'header not base64url JSON', setup: 'hs', headers: () => bearer('!!!.e30.sig'),
    ...jwtErr('JWSError (CompactDecodeError Invalid text: the header is not base64url-encoded JSON)') },
  { name: 'large garbage token (12 KiB)', setup: 'hs', headers: () => bearer(`${'a'.repeat(12_000)}.b.c`),
    ...jwtErr('JWSError (CompactDecodeError Invalid text: the header is not base64url-encoded JSON)') },
  { name: 'unknown alg', setup: 'hs', headers: (k) => bearer(hsToken(userClaims(k), HS_SECRET, 'XX999')),
    ...jwtErr('JWSError (JSONDecodeError "unrecognised or missing alg")') },
  { name: 'payload not JSON', setup: 'hs', headers: () => bearer(hsToken('{not json')),
    ...jwtErr('JWTClaimsSetDecodeError "the payload is not base64url-encoded JSON"') },
  { name: 'payload an array', setup: 'hs', headers: () => bearer(hsToken('[1,2]')),
    ...jwtErr('JWTClaimsSetDecodeError "the payload is not a JSON object"') },
  { name: 'exp not a number', setup: 'hs', headers: (k) => bearer(hs(k, { exp: 'tomorrow' })),
    ...jwtErr('JWTClaimsSetDecodeError "exp should be a NumericDate"') },
  { name: 'aud a number', setup: 'rs', headers: (k) => bearer(rs(k, { aud: 7 })),
    ...jwtErr('JWTClaimsSetDecodeError "aud should be a string or a list of strings"') },

  // signature
  { name: 'alg none', setup: 'hs', headers: (k) => bearer(noneToken(userClaims(k))), ...jwtErr('JWSError JWSNoSignatures') },
  { name: 'alg none with an admin role', setup: 'hs', headers: (k) => bearer(noneToken(claims(k, admin))), ...jwtErr('JWSError JWSNoSignatures') },
  { name: 'alg none against an RSA key', setup: 'rs', headers: (k) => bearer(noneToken(userClaims(k, RS_GOOD))), ...jwtErr('JWSError JWSNoSignatures') },
  { name: 'wrong HS secret', setup: 'hs', headers: (k) => bearer(hsToken(userClaims(k), 'another-secret-that-is-long-enough-000')), ...badSig },
  { name: 'HS384 token with another secret', setup: 'hs', headers: (k) => bearer(hsToken(userClaims(k), 'short', 'HS384')), ...badSig },
  { name: 'tampered payload (role escalation)', setup: 'hs', headers: (k) => {
    const [h, , s] = hs(k).split('.');
    return bearer(`${h}.${segment(claims(k, admin))}.${s}`);
  }, ...badSig },
  { name: 'tampered payload (user id)', setup: 'hs', headers: (k) => {
    const [h, , s] = hs(k).split('.');
    return bearer(`${h}.${segment(claims(k, { ...roles, 'x-engine-user-id': '2' }))}.${s}`);
  }, ...badSig },
  { name: 'tampered header (alg switched)', setup: 'hs', headers: (k) => {
    const [, p, s] = hs(k).split('.');
    return bearer(`${segment({ alg: 'HS512', typ: 'JWT' })}.${p}.${s}`);
  }, ...badSig },
  { name: 'tampered signature', setup: 'hs', headers: (k) => { const t = hs(k); return bearer(flip(t, t.length - 5)); }, ...badSig },
  { name: 'signature stripped', setup: 'hs', headers: (k) => { const t = hs(k); return bearer(t.slice(0, t.lastIndexOf('.') + 1)); }, ...badSig },
  { name: 'RS-signed token against an HS key', setup: 'hs', headers: (k) => bearer(rsToken(userClaims(k), k.rsa.privateKey)), ...badSig },
  { name: 'HS/RS confusion: public key used as HS256 secret', setup: 'rs', headers: (k) => bearer(hsToken(userClaims(k, RS_GOOD), k.rsa.publicPem, 'HS256')), ...badSig },
  { name: 'HS/RS confusion: public key used as HS512 secret', setup: 'rs', headers: (k) => bearer(hsToken(userClaims(k, RS_GOOD), k.rsa.publicPem, 'HS512')), ...badSig },
  // issue 8: only the configured algorithm is accepted, even with the right key
  { name: 'HS512 token against an HS256 key (same secret)', setup: 'hs', headers: (k) => bearer(hsToken(userClaims(k), HS_SECRET, 'HS512')), ...badSig },
  { name: 'HS384 token against an HS256 key (same secret)', setup: 'hs', headers: (k) => bearer(hsToken(userClaims(k), HS_SECRET, 'HS384')), ...badSig },
  { name: 'RS256 token against an RS512 key (same key pair)', setup: 'rs', headers: (k) => bearer(rs(k, {}, k.rsa, 'RS256')), ...badSig },
  { name: 'RS384 token against an RS512 key (same key pair)', setup: 'rs', headers: (k) => bearer(rs(k, {}, k.rsa, 'RS384')), ...badSig },
  { name: 'wrong RSA key', setup: 'rs', headers: (k) => bearer(rs(k, {}, k.other)), ...badSig },

  // time claims
  { name: 'expired', setup: 'hs', headers: (k) => bearer(hs(k, { exp: k.now - 1 })), ...jwtErr('JWTExpired') },
  { name: 'expiring exactly now', setup: 'hs', headers: (k) => bearer(hs(k, { exp: k.now })), ...jwtErr('JWTExpired') },
  { name: 'expired long ago', setup: 'rs', headers: (k) => bearer(rs(k, { iat: 1, exp: 2 })), ...jwtErr('JWTExpired') },
  { name: 'issued in the future', setup: 'hs', headers: (k) => bearer(hs(k, { iat: k.now + 600 })), ...jwtErr('JWTIssuedAtFuture') },
  { name: 'not yet valid (nbf)', setup: 'hs', headers: (k) => bearer(hs(k, { nbf: k.now + 600 })), ...jwtErr('JWTNotYetValid') },

  // audience / issuer
  { name: 'wrong audience', setup: 'rs', headers: (k) => bearer(rs(k, { aud: 'app-3' })), ...jwtErr('JWTNotInAudience') },
  { name: 'missing audience', setup: 'rs', headers: (k) => bearer(rsToken(userClaims(k, { iss: RS_GOOD.iss }), k.rsa.privateKey)), ...jwtErr('JWTNotInAudience') },
  { name: 'wrong issuer', setup: 'rs', headers: (k) => bearer(rs(k, { iss: 'https://evil.test' })), ...jwtErr('JWTNotInIssuer') },
  { name: 'missing issuer', setup: 'rs', headers: (k) => bearer(rsToken(userClaims(k, { aud: ['app-2'] }), k.rsa.privateKey)), ...jwtErr('JWTNotInIssuer') },

  // claims
  { name: 'missing claims namespace', setup: 'hs', headers: (k) => bearer(hsToken({ sub: '1', exp: k.now + 60, 'https://other/claims': roles })),
    ...invalidClaims(`claims key: '${NS}' not found`) },
  { name: 'claims not an object', setup: 'hs', headers: (k) => bearer(hsToken({ exp: k.now + 60, [NS]: 'x' })),
    ...invalidClaims('expecting a json object when claims_format is json') },
  { name: 'claims not at claims_namespace_path', setup: 'path', headers: (k) => bearer(hsToken({ exp: k.now + 60, engine: { other: roles } })),
    ...invalidClaims(`claims not found at claims_namespace_path: '$.engine.claims'`) },
  { name: 'stringified claims that are not a string', setup: 'str', headers: (k) => bearer(hsToken(claims(k, roles))),
    ...invalidClaims('expecting a string when claims_format is stringified_json') },
  { name: 'stringified claims that are not JSON', setup: 'str', headers: (k) => bearer(hsToken({ exp: k.now + 60, [NS]: '{not json' })),
    ...invalidClaims(`expecting stringified json at: 'claims_namespace ${NS}', but found: {not json`) },
  { name: 'stringified claims that are a JSON list', setup: 'str', headers: (k) => bearer(hsToken({ exp: k.now + 60, [NS]: '["user"]' })),
    ...invalidClaims(`expecting stringified json at: 'claims_namespace ${NS}', but found: ["user"]`) },
  { name: 'missing default role', setup: 'hs', headers: (k) => bearer(hsToken(claims(k, { 'x-engine-allowed-roles': ['user'] }))),
    ...missingRole('x-engine-default-role') },
  { name: 'missing allowed roles', setup: 'hs', headers: (k) => bearer(hsToken(claims(k, { 'x-engine-default-role': 'user' }))),
    ...missingRole('x-engine-allowed-roles') },
  { name: 'allowed roles not a list', setup: 'hs', headers: (k) => bearer(hsToken(claims(k, { ...roles, 'x-engine-allowed-roles': 'user' }))),
    ...invalidClaims('invalid x-engine-allowed-roles; should be a list of roles: parsing [] failed, expected Array, but encountered String') },
  { name: 'allowed roles with a number', setup: 'hs', headers: (k) => bearer(hsToken(claims(k, { ...roles, 'x-engine-allowed-roles': ['user', 7] }))),
    ...invalidClaims('invalid x-engine-allowed-roles; should be a list of roles: parsing String failed, expected String, but encountered Number') },
  { name: 'default role not a string', setup: 'hs', headers: (k) => bearer(hsToken(claims(k, { ...roles, 'x-engine-default-role': ['user'] }))),
    ...invalidClaims('invalid x-engine-default-role; should be a single role name: parsing String failed, expected String, but encountered Array') },
  { name: 'default role empty', setup: 'hs', headers: (k) => bearer(hsToken(claims(k, { ...roles, 'x-engine-default-role': '' }))),
    ...invalidClaims('invalid x-engine-default-role; should be a single role name: empty string not allowed') },
  { name: 'default role not in allowed roles', setup: 'hs', headers: (k) => bearer(hsToken(claims(k, { ...roles, 'x-engine-default-role': 'admin' }))), ...notAllowed },
  { name: 'requested role not allowed (admin)', setup: 'hs', headers: (k) => bearer(hs(k), { 'x-engine-role': 'admin' }), ...notAllowed },
  { name: 'requested role differs in case', setup: 'hs', headers: (k) => bearer(hs(k), { 'X-Engine-Role': 'User' }), ...notAllowed },
  { name: 'session claim not a string', setup: 'hs', headers: (k) => bearer(hsToken(claims(k, { ...roles, 'x-engine-user-id': 42 }))),
    ...invalidClaims('x-engine-* claims: parsing Text failed, expected String, but encountered Number') },

  // JWK sets
  { name: 'JWK endpoint down', setup: 'jwkDown', headers: (k) => bearer(jwkToken(k, k.rsa)), ...jwtErr('JWSError NoUsableKeys') },
  { name: 'JWK endpoint answering garbage', setup: 'jwkGarbage', headers: (k) => bearer(jwkToken(k, k.rsa)), ...jwtErr('JWSError NoUsableKeys') },
  { name: 'JWK set without the signing key', setup: 'jwk', headers: (k) => bearer(jwkToken(k, k.other)), ...badSig },
  { name: 'JWK key pinned to another alg', setup: 'jwk', headers: (k) => bearer(jwkToken(k, k.rsa, 'RS256')), ...badSig },
  { name: 'JWK set and an HS token signed with the public PEM', setup: 'jwk',
    headers: (k) => bearer(hsToken(userClaims(k), k.rsa.publicPem, 'HS256', { kid: 'k1' })), ...badSig },

  // auth hook
  { name: 'hook answers 401', setup: 'hook', hook: '401', headers: () => ({ authorization: 'Bearer x' }),
    code: 'access-denied', message: 'Authentication hook unauthorized this request', status: 401 },
  { name: 'hook answers 500', setup: 'hookPost', hook: '500', headers: () => ({}), ...hookInvalid() },
  { name: 'hook answers a redirect', setup: 'hook', hook: 'redirect', headers: () => ({}), ...hookInvalid() },
  { name: 'hook answers garbage', setup: 'hook', hook: 'garbage', headers: () => ({}), ...hookInvalid('Error in $: Failed reading: not a valid json value') },
  { name: 'hook answers an array', setup: 'hookPost', hook: 'array', headers: () => ({}),
    ...hookInvalid('Error in $: parsing HashMap ~Text failed, expected Object, but encountered Array') },
  { name: 'hook answers a number value', setup: 'hook', hook: 'number', headers: () => ({}),
    ...hookInvalid("Error in $['X-Engine-User-Id']: parsing Text failed, expected String, but encountered Number") },
  { name: 'hook answers no role', setup: 'hook', hook: 'norole', headers: () => ({ 'x-engine-role': 'admin' }), ...noHookRole },
  { name: 'hook answers an empty role', setup: 'hookPost', hook: 'emptyrole', headers: () => ({}), ...noHookRole },
  { name: 'hook answers a body over 1 MiB', setup: 'hook', hook: 'huge', headers: () => ({}), ...hookInvalid('response body larger than 1048576 bytes') },
  { name: 'hook hangs up', setup: 'hook', hook: 'hangup', headers: () => ({}), ...hookFailed },
  { name: 'hook down', setup: 'hook', hook: 'down', headers: () => ({}), ...hookFailed,
    resolverOnly: 'an engine per unreachable hook; "hook hangs up" is the same failure over HTTP' },
];
