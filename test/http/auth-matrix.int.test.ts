// Bad credentials end to end: engines in every auth mode over one real database; each bad request is sent to
// POST /v1/graphql, /v1/query, /v1alpha1/graphql, /v1beta1/relay, /v1/graphql/explain and GET /v1alpha1/config,
// must be answered with the right code, message and status, and must not make the engine take a single connection
// from its pool (counted with the pool's 'acquire' event: every statement the engine sends for GraphQL, metadata,
// DML or explain goes through a pool checkout).
import test from 'ava';
import { createConnection } from 'node:net';
import { exportJWK } from 'jose';
import { createPublicKey } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { request, startTestEngine, type TestEngine, type TestEngineOptions } from '../helpers/engine.js';
import { deadUrl, HS_SECRET, hsToken, loopback, noneToken, NS, rsaPair, rsToken, type Loopback, type RsaPair } from '../auth/helpers.js';

const SECRET = 'matrix-admin-secret';
const QUIET = { syncPollInterval: 3_600_000, pgConnections: 2, minVersionWait: 300 } satisfies TestEngineOptions;

interface Engine {
  te: TestEngine;
  /** Pool checkouts since start. */
  count(): number;
}

interface Ctx {
  db: TestDatabase;
  engines: Record<string, Engine>;
  rsa: RsaPair;
  other: RsaPair;
  servers: Loopback[];
  hookMode: string;
}
const ctx = { engines: {}, servers: [], hookMode: 'ok' } as unknown as Ctx;

async function engine(name: string, options: TestEngineOptions): Promise<void> {
  const te = await startTestEngine({ ...QUIET, ...options, database: ctx.db });
  let n = 0;
  te.engine.runtime.pool.on('acquire', () => {
    n += 1;
  });
  ctx.engines[name] = { te, count: () => n };
}

test.before(async () => {
  ctx.db = await createTestDatabase('authm');
  ctx.rsa = await rsaPair();
  ctx.other = await rsaPair();
  await engine('secret', { adminSecret: SECRET });
  const setup = await ctx.engines.secret.te.query(
    {
      type: 'bulk',
      args: [
        { type: 'run_sql', args: { sql: "CREATE TABLE doc (id int PRIMARY KEY, owner int NOT NULL); INSERT INTO doc VALUES (1, 1), (2, 2);" } },
        { type: 'track_table', args: 'doc' },
        { type: 'create_select_permission', args: { table: 'doc', role: 'user', permission: { columns: ['id'], filter: { owner: 'X-Engine-User-Id' } } } },
      ],
    },
    { 'x-engine-admin-secret': SECRET },
  );
  if (setup.status !== 200) throw new Error(setup.text);

  const jwk = { ...(await exportJWK(createPublicKey(ctx.rsa.publicPem))), kid: 'k1', alg: 'RS512', use: 'sig' };
  const good = await loopback((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  const garbage = await loopback((_req, res) => res.end('<html>not a key set</html>'));
  // One auth hook whose behaviour each case switches (ctx.hookMode).
  const hook = await loopback((req, res) => {
    switch (ctx.hookMode) {
      case '401': res.statusCode = 401; res.end('{}'); return;
      case '500': res.statusCode = 500; res.end('{"message":"boom"}'); return;
      case 'garbage': res.end('this is not json'); return;
      case 'array': res.end('["x-engine-role"]'); return;
      case 'number': res.end('{"X-Engine-Role":"user","X-Engine-User-Id":1}'); return;
      case 'norole': res.end('{"X-Engine-User-Id":"1"}'); return;
      case 'hangup': req.socket.destroy(); return;
      default: res.end('{"X-Engine-Role":"user","X-Engine-User-Id":"1"}');
    }
  });
  ctx.servers.push(good, garbage, hook);
  const down = await deadUrl();

  await Promise.all([
    engine('hs', { adminSecret: SECRET, jwtSecret: { type: 'HS256', key: HS_SECRET } }),
    engine('rs', { adminSecret: SECRET, jwtSecret: { type: 'RS512', key: ctx.rsa.publicPem, audience: ['app-1', 'app-2'], issuer: 'https://issuer.test' } }),
    engine('path', { adminSecret: SECRET, jwtSecret: { type: 'HS256', key: HS_SECRET, claims_namespace_path: '$.engine.claims' } }),
    engine('str', { adminSecret: SECRET, jwtSecret: { type: 'HS256', key: HS_SECRET, claims_format: 'stringified_json' } }),
    engine('jwk', { adminSecret: SECRET, jwtSecret: { jwk_url: good.url } }),
    engine('jwkDown', { adminSecret: SECRET, jwtSecret: { jwk_url: down } }),
    engine('jwkGarbage', { adminSecret: SECRET, jwtSecret: { jwk_url: garbage.url } }),
    engine('hook', { adminSecret: SECRET, authHook: hook.url, authHookMode: 'GET' }),
  ]);
});

test.after.always(async () => {
  await Promise.all(Object.values(ctx.engines).map((e) => e.te.close()));
  await Promise.all(ctx.servers.map((s) => s.close()));
  await ctx.db?.drop();
});

type Headers = Record<string, string>;
interface Case {
  name: string;
  engine: string;
  headers: () => Headers;
  code: string;
  message: string;
  /** Status on /v1/query (on /v1/graphql it is always 200). */
  status: number;
  hook?: string;
}

const now = (): number => Math.floor(Date.now() / 1000);
const roles = { 'x-engine-allowed-roles': ['user', 'editor'], 'x-engine-default-role': 'user' };
const claims = (c: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ sub: '1', iat: now() - 60, exp: now() + 3600, [NS]: c, ...extra });
const userClaims = (extra: Record<string, unknown> = {}) => claims({ ...roles, 'x-engine-user-id': '1' }, extra);
const rsGood = { aud: 'app-1', iss: 'https://issuer.test' };
const bearer = (token: string, extra: Headers = {}): Headers => ({ authorization: `Bearer ${token}`, ...extra });
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
const segment = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');

const cases: Case[] = [
  // admin secret
  { name: 'wrong admin secret', engine: 'secret', headers: () => ({ 'x-engine-admin-secret': 'nope' }), ...wrongSecret },
  { name: 'wrong deprecated access key', engine: 'secret', headers: () => ({ 'x-engine-access-key': 'nope' }), ...wrongSecret },
  { name: 'empty admin secret header', engine: 'secret', headers: () => ({ 'x-engine-admin-secret': '' }), ...wrongSecret },
  { name: 'admin secret prefix', engine: 'secret', headers: () => ({ 'x-engine-admin-secret': SECRET.slice(0, -1) }), ...wrongSecret },
  { name: 'admin secret in another case', engine: 'secret', headers: () => ({ 'x-engine-admin-secret': SECRET.toUpperCase() }), ...wrongSecret },
  { name: 'no credentials, no unauthorized role', engine: 'secret', headers: () => ({ 'x-engine-role': 'user', 'x-engine-user-id': '1' }),
    code: 'access-denied', message: 'x-engine-admin-secret/x-engine-access-key required, but not found', status: 401 },
  { name: 'bad backend-only flag', engine: 'secret', headers: () => ({ 'x-engine-admin-secret': SECRET, 'x-engine-use-backend-only-permissions': 'maybe' }),
    code: 'bad-request', status: 400,
    message: 'x-engine-use-backend-only-permissions:  Not a valid boolean text. True values are ["true","t","yes","y"] and  False values are ["false","f","no","n"]. All values are case insensitive' },
  { name: 'wrong admin secret with a valid JWT', engine: 'hs', headers: () => bearer(hsToken(userClaims()), { 'x-engine-admin-secret': 'nope' }), ...wrongSecret },
  // a metadata version the instance has not reached must not make an unauthenticated request read the metadata log
  { name: 'wrong admin secret waiting for a metadata version', engine: 'secret',
    headers: () => ({ 'x-engine-admin-secret': 'nope', 'x-engine-min-metadata-version': '999999' }), ...wrongSecret },
  { name: 'no credentials waiting for a metadata version', engine: 'secret', headers: () => ({ 'x-engine-min-metadata-version': '999999' }),
    code: 'access-denied', message: 'x-engine-admin-secret/x-engine-access-key required, but not found', status: 401 },
  { name: 'wrong admin secret in hook mode', engine: 'hook', headers: () => ({ 'x-engine-admin-secret': 'nope' }), ...wrongSecret },

  // Authorization header
  { name: 'missing Authorization header', engine: 'hs', headers: () => ({ 'x-engine-role': 'user' }),
    code: 'invalid-headers', message: 'Missing Authorization header in JWT authentication mode', status: 400 },
  { name: 'no Bearer scheme', engine: 'hs', headers: () => ({ authorization: hsToken(userClaims()) }), ...malformed },
  { name: 'other scheme', engine: 'hs', headers: () => ({ authorization: `Basic ${hsToken(userClaims())}` }), ...malformed },
  { name: 'lower-case bearer', engine: 'hs', headers: () => ({ authorization: `bearer ${hsToken(userClaims())}` }), ...malformed },
  { name: 'empty token', engine: 'hs', headers: () => ({ authorization: 'Bearer ' }), ...malformed },
  { name: 'three words', engine: 'hs', headers: () => ({ authorization: `Bearer ${hsToken(userClaims())} extra` }), ...malformed },

  // token structure
  { name: 'token of 2 parts', engine: 'hs', headers: () => bearer('abc.def'),
    ...jwtErr('JWSError (CompactDecodeError Invalid number of parts: Expected 3 parts; got 2)') },
  { name: 'token of 1 part', engine: 'hs', headers: () => bearer('garbage'),
    ...jwtErr('JWSError (CompactDecodeError Invalid number of parts: Expected 3 parts; got 1)') },
  { name: 'header not base64url JSON', engine: 'hs', headers: () => bearer('!!!.e30.sig'),
    ...jwtErr('JWSError (CompactDecodeError Invalid text: the header is not base64url-encoded JSON)') },
  { name: 'large garbage token (12 KiB)', engine: 'hs', headers: () => bearer(`${'a'.repeat(12_000)}.b.c`),
    ...jwtErr('JWSError (CompactDecodeError Invalid text: the header is not base64url-encoded JSON)') },
  { name: 'unknown alg', engine: 'hs', headers: () => bearer(hsToken(userClaims(), HS_SECRET, 'XX999')),
    ...jwtErr('JWSError (JSONDecodeError "unrecognised or missing alg")') },
  { name: 'payload not JSON', engine: 'hs', headers: () => bearer(hsToken('{not json')),
    ...jwtErr('JWTClaimsSetDecodeError "the payload is not base64url-encoded JSON"') },
  { name: 'payload an array', engine: 'hs', headers: () => bearer(hsToken('[1,2]')),
    ...jwtErr('JWTClaimsSetDecodeError "the payload is not a JSON object"') },
  { name: 'exp not a number', engine: 'hs', headers: () => bearer(hsToken(userClaims({ exp: 'tomorrow' }))),
    ...jwtErr('JWTClaimsSetDecodeError "exp should be a NumericDate"') },
  { name: 'aud a number', engine: 'rs', headers: () => bearer(rsToken(userClaims({ ...rsGood, aud: 7 }), ctx.rsa.privateKey)),
    ...jwtErr('JWTClaimsSetDecodeError "aud should be a string or a list of strings"') },

  // signature
  { name: 'alg none', engine: 'hs', headers: () => bearer(noneToken(userClaims())), ...jwtErr('JWSError JWSNoSignatures') },
  { name: 'alg none with an admin role', engine: 'hs',
    headers: () => bearer(noneToken(claims({ 'x-engine-allowed-roles': ['admin'], 'x-engine-default-role': 'admin' }))), ...jwtErr('JWSError JWSNoSignatures') },
  { name: 'wrong HS secret', engine: 'hs', headers: () => bearer(hsToken(userClaims(), 'another-secret-that-is-long-enough-000')), ...badSig },
  { name: 'HS384 token with another secret', engine: 'hs', headers: () => bearer(hsToken(userClaims(), 'short', 'HS384')), ...badSig },
  { name: 'tampered payload (role escalation)', engine: 'hs', headers: () => {
    const [h, , s] = hsToken(userClaims()).split('.');
    const evil = segment(claims({ 'x-engine-allowed-roles': ['admin'], 'x-engine-default-role': 'admin' }));
    return bearer(`${h}.${evil}.${s}`);
  }, ...badSig },
  { name: 'tampered payload (user id)', engine: 'hs', headers: () => {
    const [h, , s] = hsToken(userClaims()).split('.');
    return bearer(`${h}.${segment(claims({ ...roles, 'x-engine-user-id': '2' }))}.${s}`);
  }, ...badSig },
  { name: 'tampered header (alg switched)', engine: 'hs', headers: () => {
    const [, p, s] = hsToken(userClaims()).split('.');
    return bearer(`${segment({ alg: 'HS512', typ: 'JWT' })}.${p}.${s}`);
  }, ...badSig },
  { name: 'tampered signature', engine: 'hs', headers: () => { const t = hsToken(userClaims()); return bearer(flip(t, t.length - 5)); }, ...badSig },
  { name: 'signature stripped', engine: 'hs', headers: () => { const t = hsToken(userClaims()); return bearer(t.slice(0, t.lastIndexOf('.') + 1)); }, ...badSig },
  { name: 'RS-signed token against an HS key', engine: 'hs', headers: () => bearer(rsToken(userClaims(), ctx.rsa.privateKey)), ...badSig },
  { name: 'HS/RS confusion: public key used as HS256 secret', engine: 'rs',
    headers: () => bearer(hsToken(userClaims(rsGood), ctx.rsa.publicPem, 'HS256')), ...badSig },
  { name: 'HS/RS confusion: public key used as HS512 secret', engine: 'rs',
    headers: () => bearer(hsToken(userClaims(rsGood), ctx.rsa.publicPem, 'HS512')), ...badSig },
  { name: 'wrong RSA key', engine: 'rs', headers: () => bearer(rsToken(userClaims(rsGood), ctx.other.privateKey)), ...badSig },
  { name: 'alg none against an RSA key', engine: 'rs', headers: () => bearer(noneToken(userClaims(rsGood))), ...jwtErr('JWSError JWSNoSignatures') },

  // time claims
  { name: 'expired', engine: 'hs', headers: () => bearer(hsToken(userClaims({ exp: now() - 1 }))), ...jwtErr('JWTExpired') },
  { name: 'expired long ago', engine: 'rs', headers: () => bearer(rsToken(userClaims({ ...rsGood, iat: 1, exp: 2 }), ctx.rsa.privateKey)), ...jwtErr('JWTExpired') },
  { name: 'issued in the future', engine: 'hs', headers: () => bearer(hsToken(userClaims({ iat: now() + 600 }))), ...jwtErr('JWTIssuedAtFuture') },
  { name: 'not yet valid (nbf)', engine: 'hs', headers: () => bearer(hsToken(userClaims({ nbf: now() + 600 }))), ...jwtErr('JWTNotYetValid') },

  // audience / issuer
  { name: 'wrong audience', engine: 'rs', headers: () => bearer(rsToken(userClaims({ ...rsGood, aud: 'app-3' }), ctx.rsa.privateKey)), ...jwtErr('JWTNotInAudience') },
  { name: 'missing audience', engine: 'rs', headers: () => bearer(rsToken(userClaims({ iss: rsGood.iss }), ctx.rsa.privateKey)), ...jwtErr('JWTNotInAudience') },
  { name: 'wrong issuer', engine: 'rs', headers: () => bearer(rsToken(userClaims({ ...rsGood, iss: 'https://evil.test' }), ctx.rsa.privateKey)), ...jwtErr('JWTNotInIssuer') },
  { name: 'missing issuer', engine: 'rs', headers: () => bearer(rsToken(userClaims({ aud: ['app-2'] }), ctx.rsa.privateKey)), ...jwtErr('JWTNotInIssuer') },

  // claims
  { name: 'missing claims namespace', engine: 'hs', headers: () => bearer(hsToken({ sub: '1', exp: now() + 60, 'https://other/claims': roles })),
    ...invalidClaims(`claims key: '${NS}' not found`) },
  { name: 'claims not an object', engine: 'hs', headers: () => bearer(hsToken({ exp: now() + 60, [NS]: 'x' })),
    ...invalidClaims('expecting a json object when claims_format is json') },
  { name: 'claims not at claims_namespace_path', engine: 'path', headers: () => bearer(hsToken({ exp: now() + 60, engine: { other: roles } })),
    ...invalidClaims(`claims not found at claims_namespace_path: '$.engine.claims'`) },
  { name: 'stringified claims that are not a string', engine: 'str', headers: () => bearer(hsToken(claims(roles))),
    ...invalidClaims('expecting a string when claims_format is stringified_json') },
  { name: 'stringified claims that are not JSON', engine: 'str', headers: () => bearer(hsToken({ exp: now() + 60, [NS]: '{not json' })),
    ...invalidClaims(`expecting stringified json at: 'claims_namespace ${NS}', but found: {not json`) },
  { name: 'stringified claims that are a JSON list', engine: 'str', headers: () => bearer(hsToken({ exp: now() + 60, [NS]: '["user"]' })),
    ...invalidClaims(`expecting stringified json at: 'claims_namespace ${NS}', but found: ["user"]`) },
  { name: 'missing default role', engine: 'hs', headers: () => bearer(hsToken(claims({ 'x-engine-allowed-roles': ['user'] }))),
    code: 'jwt-missing-role-claims', message: 'JWT claim does not contain x-engine-default-role', status: 400 },
  { name: 'missing allowed roles', engine: 'hs', headers: () => bearer(hsToken(claims({ 'x-engine-default-role': 'user' }))),
    code: 'jwt-missing-role-claims', message: 'JWT claim does not contain x-engine-allowed-roles', status: 400 },
  { name: 'allowed roles not a list', engine: 'hs', headers: () => bearer(hsToken(claims({ ...roles, 'x-engine-allowed-roles': 'user' }))),
    ...invalidClaims('invalid x-engine-allowed-roles; should be a list of roles: parsing [] failed, expected Array, but encountered String') },
  { name: 'allowed roles with a number', engine: 'hs', headers: () => bearer(hsToken(claims({ ...roles, 'x-engine-allowed-roles': ['user', 7] }))),
    ...invalidClaims('invalid x-engine-allowed-roles; should be a list of roles: parsing String failed, expected String, but encountered Number') },
  { name: 'default role not a string', engine: 'hs', headers: () => bearer(hsToken(claims({ ...roles, 'x-engine-default-role': ['user'] }))),
    ...invalidClaims('invalid x-engine-default-role; should be a single role name: parsing String failed, expected String, but encountered Array') },
  { name: 'default role empty', engine: 'hs', headers: () => bearer(hsToken(claims({ ...roles, 'x-engine-default-role': '' }))),
    ...invalidClaims('invalid x-engine-default-role; should be a single role name: empty string not allowed') },
  { name: 'default role not in allowed roles', engine: 'hs', headers: () => bearer(hsToken(claims({ ...roles, 'x-engine-default-role': 'admin' }))), ...notAllowed },
  { name: 'requested role not allowed (admin)', engine: 'hs', headers: () => bearer(hsToken(userClaims()), { 'x-engine-role': 'admin' }), ...notAllowed },
  { name: 'requested role differs in case', engine: 'hs', headers: () => bearer(hsToken(userClaims()), { 'X-Engine-Role': 'User' }), ...notAllowed },
  { name: 'session claim not a string', engine: 'hs', headers: () => bearer(hsToken(claims({ ...roles, 'x-engine-user-id': 1 }))),
    ...invalidClaims('x-engine-* claims: parsing Text failed, expected String, but encountered Number') },

  // JWK sets
  { name: 'JWK endpoint down', engine: 'jwkDown', headers: () => bearer(rsToken(userClaims(), ctx.rsa.privateKey, 'RS512', { kid: 'k1' })),
    ...jwtErr('JWSError NoUsableKeys') },
  { name: 'JWK endpoint answering garbage', engine: 'jwkGarbage', headers: () => bearer(rsToken(userClaims(), ctx.rsa.privateKey, 'RS512', { kid: 'k1' })),
    ...jwtErr('JWSError NoUsableKeys') },
  { name: 'JWK set without the signing key', engine: 'jwk', headers: () => bearer(rsToken(userClaims(), ctx.other.privateKey, 'RS512', { kid: 'k1' })), ...badSig },
  { name: 'JWK key pinned to another alg', engine: 'jwk', headers: () => bearer(rsToken(userClaims(), ctx.rsa.privateKey, 'RS256', { kid: 'k1' })), ...badSig },
  { name: 'JWK set and an HS token signed with the public PEM', engine: 'jwk', headers: () => bearer(hsToken(userClaims(), ctx.rsa.publicPem, 'HS256', { kid: 'k1' })), ...badSig },

  // auth hook
  { name: 'hook answers 401', engine: 'hook', hook: '401', headers: () => ({ authorization: 'Bearer x' }),
    code: 'access-denied', message: 'Authentication hook unauthorized this request', status: 401 },
  { name: 'hook answers 500', engine: 'hook', hook: '500', headers: () => ({}), ...hookInvalid() },
  { name: 'hook answers garbage', engine: 'hook', hook: 'garbage', headers: () => ({}), ...hookInvalid('Error in $: Failed reading: not a valid json value') },
  { name: 'hook answers an array', engine: 'hook', hook: 'array', headers: () => ({}),
    ...hookInvalid('Error in $: parsing HashMap ~Text failed, expected Object, but encountered Array') },
  { name: 'hook answers a number value', engine: 'hook', hook: 'number', headers: () => ({}),
    ...hookInvalid("Error in $['X-Engine-User-Id']: parsing Text failed, expected String, but encountered Number") },
  { name: 'hook answers no role', engine: 'hook', hook: 'norole', headers: () => ({ 'x-engine-role': 'admin' }),
    code: 'invalid-params', message: 'x-engine-role not found in session variables', status: 400 },
  { name: 'hook hangs up', engine: 'hook', hook: 'hangup', headers: () => ({}), code: 'unexpected', message: 'webhook authentication request failed', status: 500 },
];

const GRAPHQL = { query: '{ doc { id } }' };
const DML = { type: 'select', args: { table: 'doc', columns: ['id'] } };

for (const c of cases) {
  test.serial(`rejected without touching the database: ${c.name}`, async (t) => {
    const e = ctx.engines[c.engine];
    ctx.hookMode = c.hook ?? 'ok';
    const before = e.count();
    const g = await request(`${e.te.url}/v1/graphql`, 'POST', GRAPHQL, c.headers());
    t.is(g.status, 200);
    t.deepEqual(g.body, { errors: [{ extensions: { path: '$', code: c.code }, message: c.message }] });
    const q = await request(`${e.te.url}/v1/query`, 'POST', DML, c.headers());
    t.is(q.status, c.status);
    t.deepEqual(q.body, { path: '$', error: c.message, code: c.code });
    const legacy = await request(`${e.te.url}/v1alpha1/graphql`, 'POST', GRAPHQL, c.headers());
    t.is(legacy.status, c.status);
    t.deepEqual(legacy.body, g.body);
    const relay = await request(`${e.te.url}/v1beta1/relay`, 'POST', { query: '{ doc_connection { edges { node { id } } } }' }, c.headers());
    t.is(relay.status, 200);
    t.deepEqual(relay.body, g.body);
    const explain = await request(`${e.te.url}/v1/graphql/explain`, 'POST', { query: GRAPHQL }, c.headers());
    t.is(explain.status, c.status);
    t.deepEqual(explain.body, q.body);
    const config = await request(`${e.te.url}/v1alpha1/config`, 'GET', undefined, c.headers());
    t.is(config.status, c.status);
    t.deepEqual(config.body, q.body);
    t.is(e.count(), before, 'the engine took a database connection');
  });
}

/** Raw HTTP (headers fetch would refuse to send); resolves with the status line's code. */
function rawRequest(url: string, head: string): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: hostname, port: Number(port) }, () => socket.write(head));
    let data = '';
    socket.on('data', (d) => {
      data += d.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (m) {
        socket.destroy();
        resolve(Number(m[1]));
      }
    });
    socket.on('error', reject);
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0)));
  });
}

test.serial('oversized and malformed headers are refused by the HTTP layer without touching the database', async (t) => {
  const e = ctx.engines.hs;
  const before = e.count();
  const big = await request(`${e.te.url}/v1/graphql`, 'POST', GRAPHQL, bearer(`${'a'.repeat(20_000)}.b.c`));
  t.is(big.status, 431);
  const body = JSON.stringify(GRAPHQL);
  const bad = (header: string) =>
    `POST /v1/graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n${header}\r\n\r\n${body}`;
  t.is(await rawRequest(e.te.url, bad(`Authorization: Bearer ${hsToken(userClaims())}\u0001x`)), 400);
  t.is(await rawRequest(e.te.url, bad('Authorization Bearer x')), 400);
  t.is(await rawRequest(e.te.url, bad('X-Engine-Role: user\r\n continued')), 400);
  t.is(e.count(), before);
});

test.serial('the matrix has at least 40 cases and covers every engine', (t) => {
  t.true(cases.length >= 40, `${cases.length} cases`);
  t.deepEqual([...new Set(cases.map((c) => c.engine))].sort(), Object.keys(ctx.engines).sort());
});

// Positive controls: the counter is live, and the same engines do serve good credentials.
const goods: Array<{ engine: string; headers: () => Headers }> = [
  { engine: 'secret', headers: () => ({ 'x-engine-admin-secret': SECRET, 'x-engine-role': 'user', 'x-engine-user-id': '1' }) },
  { engine: 'hs', headers: () => bearer(hsToken(userClaims())) },
  { engine: 'rs', headers: () => bearer(rsToken(userClaims(rsGood), ctx.rsa.privateKey)) },
  { engine: 'path', headers: () => bearer(hsToken({ exp: now() + 60, engine: { claims: { ...roles, 'x-engine-user-id': '1' } } })) },
  { engine: 'str', headers: () => bearer(hsToken({ exp: now() + 60, [NS]: JSON.stringify({ ...roles, 'x-engine-user-id': '1' }) })) },
  { engine: 'jwk', headers: () => bearer(rsToken(userClaims(), ctx.rsa.privateKey, 'RS512', { kid: 'k1' })) },
  { engine: 'hook', headers: () => ({ authorization: 'Bearer anything' }) },
];
for (const g of goods) {
  test.serial(`good credentials reach the database: ${g.engine}`, async (t) => {
    const e = ctx.engines[g.engine];
    ctx.hookMode = 'ok';
    const before = e.count();
    const r = await request(`${e.te.url}/v1/graphql`, 'POST', GRAPHQL, g.headers());
    t.deepEqual(r.body, { data: { doc: [{ id: 1 }] } });
    t.true(e.count() > before);
  });
}

test.serial('metadata API, explain, config and pg_dump stay admin only, and refuse before touching the database', async (t) => {
  const e = ctx.engines.hs;
  const user = bearer(hsToken(userClaims()));
  const before = e.count();
  const sql = await request(`${e.te.url}/v1/query`, 'POST', { type: 'run_sql', args: { sql: 'SELECT 1' } }, user);
  t.is(sql.status, 400);
  t.deepEqual(sql.body, { path: '$.args', error: 'restricted access : admin only', code: 'access-denied' });
  const bulk = await request(`${e.te.url}/v1/query`, 'POST', { type: 'bulk', args: [DML, { type: 'clear_metadata', args: {} }] }, user);
  t.is(bulk.status, 400);
  t.is(bulk.body.code, 'access-denied');
  const track = await request(`${e.te.url}/v1/query`, 'POST', { type: 'track_table', args: 'doc' }, user);
  t.is(track.body.code, 'access-denied');
  const explain = await request(`${e.te.url}/v1/graphql/explain`, 'POST', { query: GRAPHQL }, user);
  t.is(explain.status, 400);
  t.deepEqual(explain.body, { path: '$', error: 'restricted access : admin only', code: 'access-denied' });
  const config = await request(`${e.te.url}/v1alpha1/config`, 'GET', undefined, user);
  t.is(config.status, 400);
  t.is(config.body.code, 'access-denied');
  const dump = await request(`${e.te.url}/v1alpha1/pg_dump`, 'POST', { opts: ['-O'] }, user);
  t.is(dump.body.code, 'access-denied');
  t.is(e.count(), before);
  // The admin secret still opens all of them.
  const adminSql = await request(`${e.te.url}/v1/query`, 'POST', { type: 'run_sql', args: { sql: 'SELECT 1' } }, { 'x-engine-admin-secret': SECRET });
  t.is(adminSql.status, 200);
  const adminConfig = await request(`${e.te.url}/v1alpha1/config`, 'GET', undefined, { 'x-engine-admin-secret': SECRET });
  t.is(adminConfig.status, 200);
  t.is(adminConfig.body.is_jwt_set, true);
});
