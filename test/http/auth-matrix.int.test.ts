// Bad credentials end to end: engines in every auth setup of the shared table (test/auth/bad-credentials.ts, which
// the resolver's unit test runs too) over one real database; each bad request is sent to POST /v1/graphql,
// /v1/query, /v1alpha1/graphql, /v1beta1/relay, /v1/graphql/explain and GET /v1alpha1/config, must be answered with
// the right code, message and status, and must not make the engine take a single connection from its pool (counted
// with the pool's 'acquire' event: every statement the engine sends for GraphQL, metadata, DML or explain goes
// through a pool checkout).
import test from 'ava';
import { createConnection } from 'node:net';
import { exportJWK } from 'jose';
import { createPublicKey } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { request, startTestEngine, type TestEngine, type TestEngineOptions } from '../helpers/engine.js';
import {
  ADMIN_SECRET as SECRET, answerHook, badCredentials, bearer, jwtSecretOf, RS_GOOD, SETUPS, userClaims, type HookBehaviour, type Keys, type Setup,
} from '../auth/bad-credentials.js';
import { deadUrl, hsToken, loopback, NS, rsaPair, rsToken, type Loopback, type RsaPair } from '../auth/helpers.js';

const QUIET = { syncPollInterval: 3_600_000, pgConnections: 2, minVersionWait: 300 } satisfies TestEngineOptions;

interface Engine {
  te: TestEngine;
  /** Pool checkouts since start. */
  count(): number;
}

interface Ctx {
  db: TestDatabase;
  engines: Record<Setup, Engine>;
  rsa: RsaPair;
  other: RsaPair;
  servers: Loopback[];
  hookMode: HookBehaviour;
}
const ctx = { engines: {}, servers: [], hookMode: 'ok' } as unknown as Ctx;
/** The credentials' clock: the real one. */
const keys = (): Keys => ({ now: now(), rsa: ctx.rsa, other: ctx.other });

async function engine(name: Setup, options: TestEngineOptions): Promise<void> {
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
  const hook = await loopback((req, res) => answerHook(ctx.hookMode, req, res));
  ctx.servers.push(good, garbage, hook);
  const down = await deadUrl();

  const urls = { rsa: ctx.rsa, jwkUrl: good.url, garbageUrl: garbage.url, deadUrl: down };
  await Promise.all(SETUPS.filter((s) => s !== 'secret').map((s) => {
    if (s === 'hook' || s === 'hookPost') return engine(s, { adminSecret: SECRET, authHook: hook.url, authHookMode: s === 'hook' ? 'GET' : 'POST' });
    return engine(s, { adminSecret: SECRET, jwtSecret: jwtSecretOf(s, urls) as TestEngineOptions['jwtSecret'] });
  }));
});

test.after.always(async () => {
  await Promise.all(Object.values(ctx.engines).map((e) => e.te.close()));
  await Promise.all(ctx.servers.map((s) => s.close()));
  await ctx.db?.drop();
});

type Headers = Record<string, string>;
const now = (): number => Math.floor(Date.now() / 1000);
const roles = { 'x-engine-allowed-roles': ['user', 'editor'], 'x-engine-default-role': 'user' };
const cases = badCredentials.filter((c) => c.resolverOnly === undefined);

const GRAPHQL = { query: '{ doc { id } }' };
const DML = { type: 'select', args: { table: 'doc', columns: ['id'] } };

for (const c of cases) {
  test.serial(`rejected without touching the database: ${c.name}`, async (t) => {
    const e = ctx.engines[c.setup];
    ctx.hookMode = c.hook ?? 'ok';
    const headers = c.headers(keys());
    const before = e.count();
    const g = await request(`${e.te.url}/v1/graphql`, 'POST', GRAPHQL, headers);
    t.is(g.status, 200);
    t.deepEqual(g.body, { errors: [{ extensions: { path: '$', code: c.code }, message: c.message }] });
    const q = await request(`${e.te.url}/v1/query`, 'POST', DML, headers);
    t.is(q.status, c.status);
    t.deepEqual(q.body, { path: '$', error: c.message, code: c.code });
    const legacy = await request(`${e.te.url}/v1alpha1/graphql`, 'POST', GRAPHQL, headers);
    t.is(legacy.status, c.status);
    t.deepEqual(legacy.body, g.body);
    const relay = await request(`${e.te.url}/v1beta1/relay`, 'POST', { query: '{ doc_connection { edges { node { id } } } }' }, headers);
    t.is(relay.status, 200);
    t.deepEqual(relay.body, g.body);
    const explain = await request(`${e.te.url}/v1/graphql/explain`, 'POST', { query: GRAPHQL }, headers);
    t.is(explain.status, c.status);
    t.deepEqual(explain.body, q.body);
    const config = await request(`${e.te.url}/v1alpha1/config`, 'GET', undefined, headers);
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
  t.is(await rawRequest(e.te.url, bad(`Authorization: Bearer ${hsToken(userClaims(keys()))}\u0001x`)), 400);
  t.is(await rawRequest(e.te.url, bad('Authorization Bearer x')), 400);
  t.is(await rawRequest(e.te.url, bad('X-Engine-Role: user\r\n continued')), 400);
  t.is(e.count(), before);
});

test.serial('the table runs here with at least 80 cases and covers every engine', (t) => {
  t.true(cases.length >= 80, `${cases.length} cases`);
  t.deepEqual([...new Set(cases.map((c) => c.setup))].sort(), Object.keys(ctx.engines).sort());
});

// Positive controls: the counter is live, and the same engines do serve good credentials.
const goods: Array<{ engine: Setup; headers: () => Headers }> = [
  { engine: 'secret', headers: () => ({ 'x-engine-admin-secret': SECRET, 'x-engine-role': 'user', 'x-engine-user-id': '1' }) },
  { engine: 'hs', headers: () => bearer(hsToken(userClaims(keys()))) },
  { engine: 'rs', headers: () => bearer(rsToken(userClaims(keys(), RS_GOOD), ctx.rsa.privateKey)) },
  { engine: 'path', headers: () => bearer(hsToken({ exp: now() + 60, engine: { claims: { ...roles, 'x-engine-user-id': '1' } } })) },
  { engine: 'str', headers: () => bearer(hsToken({ exp: now() + 60, [NS]: JSON.stringify({ ...roles, 'x-engine-user-id': '1' }) })) },
  { engine: 'jwk', headers: () => bearer(rsToken(userClaims(keys()), ctx.rsa.privateKey, 'RS512', { kid: 'k1' })) },
  { engine: 'hook', headers: () => ({ authorization: 'Bearer anything' }) },
  { engine: 'hookPost', headers: () => ({ authorization: 'Bearer anything' }) },
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
  const user = bearer(hsToken(userClaims(keys())));
  const before = e.count();
  const sql = await request(`${e.te.url}/v1/query`, 'POST', { type: 'run_sql', args: { sql: 'SELECT 1' } }, user);
  t.is(sql.status, 400);
  t.deepEqual(sql.body, { path: '$.args', error: 'restricted access : admin only', code: 'access-denied' });
  const bulk = await request(`${e.te.url}/v1/query`, 'POST', { type: 'bulk', args: [DML, { type: 'clear_metadata', args: {} }] }, user);
  t.is(bulk.status, 400);
  t.deepEqual(bulk.body, { path: '$.args', error: 'restricted access : admin only', code: 'access-denied' });
  const track = await request(`${e.te.url}/v1/query`, 'POST', { type: 'track_table', args: 'doc' }, user);
  t.is(track.status, 400);
  t.deepEqual(track.body, { path: '$.args', error: 'restricted access : admin only', code: 'access-denied' });
  const explain = await request(`${e.te.url}/v1/graphql/explain`, 'POST', { query: GRAPHQL }, user);
  t.is(explain.status, 400);
  t.deepEqual(explain.body, { path: '$', error: 'restricted access : admin only', code: 'access-denied' });
  const config = await request(`${e.te.url}/v1alpha1/config`, 'GET', undefined, user);
  t.is(config.status, 400);
  t.deepEqual(config.body, { path: '$', error: 'You have to be admin to access this endpoint', code: 'access-denied' });
  const dump = await request(`${e.te.url}/v1alpha1/pg_dump`, 'POST', { opts: ['-O'] }, user);
  t.is(dump.status, 400);
  // The original's onlyAdmin message (SPEC-NOTES-metadata, pg_dump); config keeps SPEC.md's wording.
  t.deepEqual(dump.body, { path: '$', error: 'You have to be an admin to access this endpoint', code: 'access-denied' });
  t.is(e.count(), before);
  // The admin secret still opens all of them.
  const adminSql = await request(`${e.te.url}/v1/query`, 'POST', { type: 'run_sql', args: { sql: 'SELECT 1' } }, { 'x-engine-admin-secret': SECRET });
  t.is(adminSql.status, 200);
  const adminConfig = await request(`${e.te.url}/v1alpha1/config`, 'GET', undefined, { 'x-engine-admin-secret': SECRET });
  t.is(adminConfig.status, 200);
  t.is(adminConfig.body.is_jwt_set, true);
});
