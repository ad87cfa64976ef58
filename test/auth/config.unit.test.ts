// JWT config validation (SPEC 2.8), start-up mode rules and the config API summary.
import test from 'ava';
import { generateKeyPairSync } from 'node:crypto';
import {
  authConfigFrom, authConfigSummary, checkAuthConfig, DEFAULT_CLAIMS_NAMESPACE, jwtConfigFromJson, parseAuthHookMode, parseJwtConfig,
  type AuthConfig,
} from '../../src/auth/config.js';
import { parseClaimsPath, valueAtPath } from '../../src/auth/claims-path.js';

const PREFIX = 'Invalid JWT config (--jwt-secret / ENGINE_GRAPHQL_JWT_SECRET): ';
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const rsaPem = rsa.publicKey.export({ type: 'spki', format: 'pem' }) as string;
const pkcs1Pem = rsa.publicKey.export({ type: 'pkcs1', format: 'pem' }) as string;
const ecPem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }) as string;

const bad: [string, unknown, string][] = [
  ['not JSON', '{type: HS256', 'not valid JSON'],
  ['not an object', [], 'expected a JSON object'],
  ['neither key nor jwk_url', { type: 'HS256' }, 'key and jwk_url both cannot be empty'],
  ['both key and jwk_url', { type: 'HS256', key: 'k'.repeat(32), jwk_url: 'https://x/jwks' }, 'key, jwk_url both cannot be present'],
  ['key without type', { key: 'k'.repeat(32) }, 'type is required when key is given'],
  ['HS256 key of 31 characters', { type: 'HS256', key: 'k'.repeat(31) }, 'Invalid JWK: Key size too small; should be atleast 32 characters'],
  ['HS384 key of 47 characters', { type: 'HS384', key: 'k'.repeat(47) }, 'Invalid JWK: Key size too small; should be atleast 48 characters'],
  ['HS512 key of 63 characters', { type: 'HS512', key: 'k'.repeat(63) }, 'Invalid JWK: Key size too small; should be atleast 64 characters'],
  ['EC type', { type: 'ES256', key: ecPem }, 'Invalid JWK: Key type: ES256 is not supported'],
  ['lower-case type', { type: 'hs256', key: 'k'.repeat(32) }, 'Invalid JWK: Key type: hs256 is not supported'],
  ['RS key that is not PEM', { type: 'RS256', key: 'hello' }, 'Invalid JWK: Could not decode PEM: '],
  ['RS key that is an EC key', { type: 'RS256', key: ecPem }, 'Invalid JWK: expected an RSA public key, got ec'],
  ['RS private key', { type: 'RS256', key: rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }) },
    'Invalid JWK: Could not decode PEM: expected a public key or an X509 certificate, not a private key'],
  ['namespace and path', { type: 'HS256', key: 'k'.repeat(32), claims_namespace: 'a', claims_namespace_path: '$.a' },
    'claims_namespace and claims_namespace_path both cannot be set'],
  ['bad path', { type: 'HS256', key: 'k'.repeat(32), claims_namespace_path: '$.a b' },
    "invalid JSON path claims_namespace_path error: $.a b. Accept letters, digits, underscore (_) or hyphen (-) only. Use single quotes enclosed in bracket (['...']) if there is any special character"],
  ['bad claims_format', { type: 'HS256', key: 'k'.repeat(32), claims_format: 'yaml' }, '$.claims_format: '],
  ['audience a number', { type: 'HS256', key: 'k'.repeat(32), audience: 5 }, '$.audience: '],
  ['issuer a list', { type: 'HS256', key: 'k'.repeat(32), issuer: ['a'] }, '$.issuer: '],
  ['jwk_url not a URL', { jwk_url: 'not a url' }, '$.jwk_url: '],
  ['jwk_url not http', { jwk_url: 'file:///etc/passwd' }, 'jwk_url must be an http or https URL'],
  ['key not a string', { type: 'HS256', key: 12 }, '$.key: '],
];

for (const [name, raw, message] of bad) {
  test(`parseJwtConfig refuses: ${name}`, (t) => {
    const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
    const err = t.throws(() => parseJwtConfig(text));
    t.true(err?.message.startsWith(PREFIX + message), err?.message);
    t.false(err?.message.includes('\n'), 'one line');
  });
}

test('parseJwtConfig defaults and accepted forms', (t) => {
  const hs = parseJwtConfig(JSON.stringify({ type: 'HS256', key: 'k'.repeat(32) }));
  t.deepEqual(hs.claims, { kind: 'namespace', namespace: DEFAULT_CLAIMS_NAMESPACE });
  t.is(hs.claimsFormat, 'json');
  t.is(hs.audience, undefined);
  t.is(hs.allowedSkewSeconds, 0);
  t.is(hs.source.kind === 'key' && hs.source.family, 'HS');
  for (const key of [rsaPem, pkcs1Pem]) {
    const rs = parseJwtConfig(JSON.stringify({ type: 'RS384', key, audience: 'a', issuer: 'i', claims_format: 'stringified_json' }));
    t.deepEqual(rs.audience, ['a']);
    t.is(rs.issuer, 'i');
    t.is(rs.claimsFormat, 'stringified_json');
  }
  const jwk = jwtConfigFromJson({ jwk_url: 'https://example.com/.well-known/jwks.json', claims_namespace_path: "$['https://a.b/c'].x", audience: ['a', 'b'] });
  t.deepEqual(jwk.source, { kind: 'jwk_url', url: 'https://example.com/.well-known/jwks.json' });
  t.deepEqual(jwk.claims, { kind: 'path', path: ['https://a.b/c', 'x'], text: "$['https://a.b/c'].x" });
  t.deepEqual(jwk.audience, ['a', 'b']);
  // unknown keys are refused at start-up (issue 8: a misspelt or unsupported key must not be silently ignored)
  t.is(
    t.throws(() => parseJwtConfig(JSON.stringify({ type: 'HS256', key: 'k'.repeat(32), header: { type: 'Authorization' } })))?.message,
    `${PREFIX}unknown key: header`,
  );
  // multi-byte characters count as bytes
  t.notThrows(() => parseJwtConfig(JSON.stringify({ type: 'HS256', key: 'é'.repeat(16) })));
});

test('claims paths', (t) => {
  t.deepEqual(parseClaimsPath('$'), []);
  t.deepEqual(parseClaimsPath('$.a.b-c_d'), ['a', 'b-c_d']);
  t.deepEqual(parseClaimsPath('a.b'), ['a', 'b']);
  t.deepEqual(parseClaimsPath(`$["x.y"][2]['z']`), ['x.y', 2, 'z']);
  for (const bad of ['', '$.', '$[', "$['a'", '$..a', '$.a b']) t.throws(() => parseClaimsPath(bad), undefined, bad);
  t.is(valueAtPath({ a: [{ b: 1 }] }, ['a', 0, 'b']), 1);
  t.is(valueAtPath({ a: [] }, ['a', 0]), undefined);
  t.is(valueAtPath({ a: 1 }, ['toString']), undefined);
});

test('auth hook mode', (t) => {
  t.is(parseAuthHookMode('GET'), 'GET');
  t.is(parseAuthHookMode('POST'), 'POST');
  t.throws(() => parseAuthHookMode('PUT'), { message: 'Only expecting GET / POST' });
});

test('start-up mode rules', (t) => {
  const jwt = parseJwtConfig(JSON.stringify({ type: 'HS256', key: 'k'.repeat(32) }));
  const hook = { url: 'http://127.0.0.1/hook', mode: 'GET' as const };
  const ok: AuthConfig[] = [
    {},
    { adminSecret: 's' },
    { adminSecret: 's', unauthorizedRole: 'anon' },
    { adminSecret: 's', jwt },
    { adminSecret: 's', jwt, unauthorizedRole: 'anon' },
    { adminSecret: 's', authHook: hook },
  ];
  for (const c of ok) t.notThrows(() => checkAuthConfig(c));
  const fails: [AuthConfig, RegExp][] = [
    [{ jwt }, /^Fatal Error : --jwt-secret \(ENGINE_GRAPHQL_JWT_SECRET\) requires --admin-secret/],
    [{ authHook: hook }, /^Fatal Error : --auth-hook \(ENGINE_GRAPHQL_AUTH_HOOK\) requires --admin-secret/],
    [{ adminSecret: 's', jwt, authHook: hook }, /Both webhook and JWT mode cannot be enabled at the same time/],
    [{ unauthorizedRole: 'anon' }, /--unauthorized-role .* is not allowed when --auth-hook/],
    [{ adminSecret: 's', authHook: hook, unauthorizedRole: 'anon' }, /--unauthorized-role/],
    [{ adminSecret: '' }, /admin secret must not be empty/],
    [{ adminSecret: 's', authHook: { url: 'ftp://x', mode: 'GET' } }, /must be an http or https URL/],
  ];
  for (const [c, re] of fails) t.throws(() => checkAuthConfig(c), { message: re });
});

test('config API summary', (t) => {
  t.deepEqual(authConfigSummary({}), { is_admin_secret_set: false, is_auth_hook_set: false, is_jwt_set: false, jwt: null });
  const jwt = parseJwtConfig(JSON.stringify({ type: 'HS256', key: 'k'.repeat(32), claims_format: 'stringified_json' }));
  t.deepEqual(authConfigSummary({ adminSecret: 's', jwt }), {
    is_admin_secret_set: true,
    is_auth_hook_set: false,
    is_jwt_set: true,
    jwt: { claims_namespace: DEFAULT_CLAIMS_NAMESPACE, claims_format: 'stringified_json' },
  });
  const byPath = parseJwtConfig(JSON.stringify({ type: 'HS256', key: 'k'.repeat(32), claims_namespace_path: '$.a.b' }));
  t.deepEqual(authConfigSummary({ adminSecret: 's', jwt: byPath }).jwt, { claims_namespace_path: '$.a.b', claims_format: 'json' });
});

test('authConfigFrom: settings to a checked config', (t) => {
  const cfg = authConfigFrom({ adminSecret: 's', jwtSecret: { type: 'HS256', key: 'k'.repeat(32) }, authHookMode: 'GET' });
  t.is(cfg.adminSecret, 's');
  t.is(cfg.jwt?.source.kind, 'key');
  t.is(cfg.authHook, undefined);
  t.deepEqual(authConfigFrom({ adminSecret: 's', authHook: 'http://h/x', authHookMode: 'POST' }).authHook, { url: 'http://h/x', mode: 'POST' });
  t.deepEqual(authConfigFrom({}), {});
  t.throws(() => authConfigFrom({ jwtSecret: { type: 'HS256', key: 'short' }, adminSecret: 's' }), { message: /Key size too small/ });
  t.throws(() => authConfigFrom({ jwtSecret: { type: 'HS256', key: 'k'.repeat(32) } }), { message: /requires --admin-secret/ });
});
