// Auth modes end to end over one database: admin secret with an unauthorized role, JWT with an unauthorized role,
// and auth hooks (GET and POST). The role and session variables each mode decides reach the permission rules, and
// what a mode must ignore (client role headers, headers a hook answers for, bad tokens) is ignored.
import test from 'ava';
import http from 'node:http';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { request, startTestEngine, type TestEngine, type TestEngineOptions } from '../helpers/engine.js';
import { HS_SECRET, hsToken, loopback, NS, readBody, type Loopback } from '../auth/helpers.js';

const SECRET = 'modes-admin-secret';
let db: TestDatabase;
const engines: Record<string, TestEngine> = {};
let hook: Loopback;
const seen: Array<{ method: string; headers: http.IncomingHttpHeaders; body: string }> = [];
const hookAnswer: { value: Record<string, string> } = { value: {} };

test.before(async () => {
  db = await createTestDatabase('authmodes');
  hook = await loopback(async (req, res) => {
    seen.push({ method: req.method ?? '', headers: req.headers, body: await readBody(req) });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(hookAnswer.value));
  });
  const start = async (name: string, o: TestEngineOptions) => {
    engines[name] = await startTestEngine({ syncPollInterval: 3_600_000, pgConnections: 3, ...o, database: db });
  };
  await start('secret', { adminSecret: SECRET, unauthorizedRole: 'anonymous' });
  const r = await engines.secret.query(
    { type: 'bulk', args: [
      { type: 'run_sql', args: { sql: 'CREATE TABLE doc (id int PRIMARY KEY, owner int NOT NULL, public boolean NOT NULL); INSERT INTO doc VALUES (1, 1, true), (2, 2, false), (3, 2, true);' } },
      { type: 'track_table', args: 'doc' },
      { type: 'create_select_permission', args: { table: 'doc', role: 'anonymous', permission: { columns: ['id'], filter: { public: true } } } },
      { type: 'create_select_permission', args: { table: 'doc', role: 'user', permission: { columns: ['id', 'owner'], filter: { owner: 'X-Engine-User-Id' } } } },
    ] },
    { 'x-engine-admin-secret': SECRET },
  );
  if (r.status !== 200) throw new Error(r.text);
  await Promise.all([
    start('jwt', { adminSecret: SECRET, unauthorizedRole: 'anonymous', jwtSecret: { type: 'HS256', key: HS_SECRET } }),
    start('hookGet', { adminSecret: SECRET, authHook: `${hook.url}/get`, authHookMode: 'GET' }),
    start('hookPost', { adminSecret: SECRET, authHook: `${hook.url}/post`, authHookMode: 'POST' }),
  ]);
});

test.after.always(async () => {
  await Promise.all(Object.values(engines).map((e) => e.close()));
  await hook?.close();
  await db?.drop();
});

const Q = { query: '{ doc(order_by: {id: asc}) { id } }' };
const ids = async (e: TestEngine, headers: Record<string, string>) => {
  const r = await e.graphql(Q, headers);
  return r.body.data ? (r.body.data.doc as Array<{ id: number }>).map((d) => d.id) : r.body;
};
const now = (): number => Math.floor(Date.now() / 1000);

test('admin secret + unauthorized role: no secret runs as that role whatever role header is sent', async (t) => {
  const e = engines.secret;
  t.deepEqual(await ids(e, {}), [1, 3]);
  t.deepEqual(await ids(e, { 'x-engine-role': 'user', 'x-engine-user-id': '2' }), [1, 3]);
  t.deepEqual(await ids(e, { 'x-engine-role': 'admin' }), [1, 3]);
  t.deepEqual(await ids(e, { 'x-engine-admin-secret': SECRET, 'x-engine-role': 'user', 'x-engine-user-id': '2' }), [2, 3]);
  t.deepEqual(await ids(e, { 'x-engine-admin-secret': SECRET }), [1, 2, 3]);
  // a wrong secret is an error, not a fallback to the unauthorized role
  const wrong = await e.graphql(Q, { 'x-engine-admin-secret': 'nope' });
  t.is(wrong.body.errors[0].extensions.code, 'access-denied');
  // the unauthorized role is not admin: the metadata API is refused
  const meta = await e.query({ type: 'export_metadata', args: {} });
  t.is(meta.status, 400);
  t.deepEqual(meta.body, { path: '$.args', error: 'restricted access : admin only', code: 'access-denied' });
});

test('JWT + unauthorized role: no Authorization runs as that role; a bad token is rejected, never downgraded', async (t) => {
  const e = engines.jwt;
  t.deepEqual(await ids(e, {}), [1, 3]);
  t.deepEqual(await ids(e, { 'x-engine-role': 'user', 'x-engine-user-id': '2' }), [1, 3]);
  const good = hsToken({ sub: '2', iat: now() - 5, exp: now() + 60, [NS]: { 'x-engine-allowed-roles': ['user'], 'x-engine-default-role': 'user', 'x-engine-user-id': '2' } });
  t.deepEqual(await ids(e, { authorization: `Bearer ${good}` }), [2, 3]);
  const expired = hsToken({ sub: '2', iat: now() - 120, exp: now() - 60, [NS]: { 'x-engine-allowed-roles': ['user'], 'x-engine-default-role': 'user', 'x-engine-user-id': '2' } });
  t.deepEqual(await ids(e, { authorization: `Bearer ${expired}` }), {
    errors: [{ extensions: { path: '$', code: 'invalid-jwt' }, message: 'Could not verify JWT: JWTExpired' }],
  });
  t.deepEqual(await ids(e, { authorization: 'Bearer' }), {
    errors: [{ extensions: { path: '$', code: 'invalid-headers' }, message: 'Malformed Authorization header' }],
  });
});

test.serial('auth hook GET: client headers forwarded, the answer decides role and variables', async (t) => {
  const e = engines.hookGet;
  hookAnswer.value = { 'X-Engine-Role': 'user', 'X-Engine-User-Id': '2' };
  seen.length = 0;
  t.deepEqual(await ids(e, { authorization: 'Bearer opaque', 'x-engine-role': 'admin', 'x-engine-user-id': '1', 'x-custom': 'c' }), [2, 3]);
  t.is(seen.length, 1);
  t.is(seen[0].method, 'GET');
  t.is(seen[0].headers.authorization, 'Bearer opaque');
  t.is(seen[0].headers['x-custom'], 'c');
  t.is(seen[0].headers['x-engine-role'], 'admin');
  t.regex(seen[0].headers['user-agent'] ?? '', /^engine-graphql-engine\//);
  t.is(seen[0].body, '');
  // the hook's variables are strings converted by Postgres; one that does not convert is the database's error
  hookAnswer.value = { 'X-Engine-Role': 'user', 'X-Engine-User-Id': 'two' };
  t.deepEqual(await ids(e, {}), {
    errors: [{ extensions: { path: '$', code: 'data-exception' }, message: 'invalid input syntax for type integer: "two"' }],
  });
  hookAnswer.value = { 'X-Engine-Role': 'anonymous' };
  t.deepEqual(await ids(e, {}), [1, 3]);
  // the admin secret skips the hook
  seen.length = 0;
  t.deepEqual(await ids(e, { 'x-engine-admin-secret': SECRET }), [1, 2, 3]);
  t.is(seen.length, 0);
});

test.serial('auth hook POST: body {headers}; an admin role from the hook is admin', async (t) => {
  const e = engines.hookPost;
  hookAnswer.value = { 'x-engine-role': 'user', 'x-engine-user-id': '1' };
  seen.length = 0;
  t.deepEqual(await ids(e, { 'x-token': 'abc' }), [1]);
  t.is(seen[0].method, 'POST');
  const body = JSON.parse(seen[0].body) as { headers: Record<string, string> };
  t.is(body.headers['x-token'], 'abc');
  t.false('request' in body);
  hookAnswer.value = { 'x-engine-role': 'admin' };
  t.deepEqual(await ids(e, {}), [1, 2, 3]);
  const meta = await request(`${e.url}/v1/query`, 'POST', { type: 'export_metadata', args: {} });
  t.is(meta.status, 200);
});

/** POST /v1/graphql through node:http, which sends header names exactly as given (fetch lower-cases them). */
function rawPost(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/v1/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test.serial('auth hook POST: header names reach the hook as the client sent them (issue 8)', async (t) => {
  const e = engines.hookPost;
  hookAnswer.value = { 'x-engine-role': 'user', 'x-engine-user-id': '2' };
  seen.length = 0;
  const r = await rawPost(e.url, JSON.stringify(Q), { Authorization: 'Bearer abc', 'X-Custom-Token': 't1' });
  t.is(r.status, 200);
  t.deepEqual(JSON.parse(r.body), { data: { doc: [{ id: 2 }, { id: 3 }] } });
  const sent = (JSON.parse(seen[0].body) as { headers: Record<string, string> }).headers;
  t.is(sent.Authorization, 'Bearer abc');
  t.is(sent['X-Custom-Token'], 't1');
  t.is(sent['Content-Type'], 'application/json');
  t.false('authorization' in sent);
});
