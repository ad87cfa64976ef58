// healthz, version, config API, 404s, enabled APIs, request ids, /v1/query envelope (JSON errors, admin only).
import test from 'ava';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';
import { pgDumpUsable } from '../helpers/capabilities.js';

// Skipped when this machine's pg_dump cannot dump the run's server (missing, or older than it).
const maybeDump = (await pgDumpUsable()) ? test : test.skip;

let e: TestEngine;
let secured: TestEngine;
let limited: TestEngine;

test.before(async () => {
  e = await startTestEngine();
  secured = await startTestEngine({ adminSecret: 'sekret', unauthorizedRole: 'anonymous', enableAllowlist: true });
  limited = await startTestEngine({ enabledApis: ['graphql'] });
});
test.after.always(async () => {
  await Promise.all([e?.close(), secured?.close(), limited?.close()]);
});

const NOT_FOUND = { path: '$', error: 'resource does not exist', code: 'not-found' };

test('GET /healthz answers OK once metadata is loaded', async (t) => {
  const r = await e.get('/healthz');
  t.is(r.status, 200);
  t.is(r.text, 'OK');
});

test('GET /v1/version gives the package version', async (t) => {
  const r = await e.get('/v1/version');
  t.is(r.status, 200);
  t.regex(r.body.version, /^\d+\.\d+\.\d+/);
});

test('GET /v1alpha1/config reports the settings (no auth: admin)', async (t) => {
  const r = await e.get('/v1alpha1/config');
  t.is(r.status, 200);
  t.like(r.body, {
    is_admin_secret_set: false,
    is_auth_hook_set: false,
    is_jwt_set: false,
    is_allow_list_enabled: false,
    live_queries: { batch_size: 100, refetch_delay: 1 },
  });
  t.is(typeof r.body.version, 'string');
});

test('config API: admin only, secret checked', async (t) => {
  const ok = await secured.get('/v1alpha1/config', { 'x-engine-admin-secret': 'sekret' });
  t.is(ok.status, 200);
  t.like(ok.body, { is_admin_secret_set: true, is_allow_list_enabled: true });
  const anon = await secured.get('/v1alpha1/config');
  t.is(anon.status, 400);
  t.deepEqual(anon.body, { path: '$', error: 'You have to be admin to access this endpoint', code: 'access-denied' });
  const wrong = await secured.get('/v1alpha1/config', { 'x-engine-admin-secret': 'nope' });
  t.is(wrong.status, 401);
  t.deepEqual(wrong.body, { path: '$', error: 'invalid x-engine-admin-secret/x-engine-access-key', code: 'access-denied' });
  const user = await e.get('/v1alpha1/config', { 'x-engine-role': 'user' });
  t.is(user.status, 400);
  t.deepEqual(user.body, { path: '$', error: 'You have to be admin to access this endpoint', code: 'access-denied' });
});

test('unknown paths answer 404 with the metadata-style body', async (t) => {
  for (const [method, path] of [['GET', '/nope'], ['POST', '/v2/query'], ['GET', '/v1/query']] as const) {
    const r = method === 'GET' ? await e.get(path) : await e.post(path, {});
    t.is(r.status, 404, `${method} ${path}`);
    t.deepEqual(r.body, NOT_FOUND);
  }
});

test('disabled APIs answer 404', async (t) => {
  const q = await limited.query({ type: 'export_metadata', args: {} });
  t.is(q.status, 404);
  t.deepEqual(q.body, NOT_FOUND);
  const c = await limited.get('/v1alpha1/config');
  t.is(c.status, 404);
  t.deepEqual(c.body, NOT_FOUND);
  t.is((await limited.get('/healthz')).status, 200);
});

test('every response has x-request-id; a sent one is echoed', async (t) => {
  const a = await e.get('/healthz');
  t.regex(a.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  const b = await e.get('/nope', { 'x-request-id': 'abc-123' });
  t.is(b.headers.get('x-request-id'), 'abc-123');
});

test('/v1/query: invalid JSON is 400 invalid-json', async (t) => {
  const r = await e.post('/v1/query', '{"type": ');
  t.is(r.status, 400);
  t.deepEqual(r.body, { path: '$', error: 'invalid json', code: 'invalid-json' });
});

test('/v1/query: non-admin is access-denied; the response carries the metadata version', async (t) => {
  const r = await e.query({ type: 'export_metadata', args: {} }, { 'x-engine-role': 'user' });
  t.is(r.status, 400);
  t.deepEqual(r.body, { path: '$.args', error: 'restricted access : admin only', code: 'access-denied' });
  t.regex(r.headers.get('x-engine-metadata-version') ?? '', /^\d+$/);
});

test('/v1/query: export_metadata works for admin and says which seq it was served at', async (t) => {
  // `limited` has no metadata API; `secured` is never changed by these tests: its metadata is the empty document.
  const r = await secured.query({ type: 'export_metadata', args: {} }, { 'x-engine-admin-secret': 'sekret' });
  t.is(r.status, 200);
  t.deepEqual(r.body, { version: 2, tables: [] });
  t.is(r.headers.get('x-engine-metadata-version'), '0');
});

test('/v1/query with an admin secret: missing or wrong secret is 401', async (t) => {
  const wrong = await secured.query({ type: 'export_metadata', args: {} }, { 'x-engine-admin-secret': 'x' });
  t.is(wrong.status, 401);
  t.deepEqual(wrong.body, { path: '$', error: 'invalid x-engine-admin-secret/x-engine-access-key', code: 'access-denied' });
  const ok = await secured.query({ type: 'export_metadata', args: {} }, { 'x-engine-admin-secret': 'sekret' });
  t.is(ok.status, 200);
  const anon = await secured.query({ type: 'export_metadata', args: {} });
  t.is(anon.status, 400);
  t.deepEqual(anon.body, { path: '$.args', error: 'restricted access : admin only', code: 'access-denied' });
});

test('/v1/graphql: invalid JSON is a 200 with an errors body', async (t) => {
  const r = await e.post('/v1/graphql', 'nope');
  t.is(r.status, 200);
  t.is(r.body.errors[0].extensions.code, 'invalid-json');
});

test('/v1/graphql/explain: SQL and plan per root field, admin only, part of the metadata API', async (t) => {
  const created = await e.query({ type: 'run_sql', args: { sql: 'CREATE TABLE IF NOT EXISTS explained (id serial PRIMARY KEY, name text)' } });
  t.is(created.status, 200);
  const tracked = await e.query({ type: 'track_table', args: 'explained' });
  t.deepEqual([tracked.status, tracked.body], [200, { message: 'success' }]);
  const r = await e.post('/v1/graphql/explain', { query: { query: '{ explained { id name } }' } });
  t.is(r.status, 200, JSON.stringify(r.body));
  t.is(r.body.length, 1);
  t.is(r.body[0].field, 'explained');
  t.regex(r.body[0].sql, /explained/);
  t.regex((r.body[0].plan as string[]).join('\n'), /Seq Scan on (public\.)?explained/);
  const denied = await e.post('/v1/graphql/explain', { query: { query: '{ explained { id } }' } }, { 'x-engine-role': 'user' });
  t.is(denied.status, 400);
  t.deepEqual(denied.body, { path: '$', error: 'restricted access : admin only', code: 'access-denied' });
  const off = await limited.post('/v1/graphql/explain', { query: { query: '{ x }' } });
  t.is(off.status, 404);
});

test('/v1alpha1/graphql answers errors with their own status', async (t) => {
  const bad = await e.post('/v1alpha1/graphql', 'nope');
  t.is(bad.status, 400);
  t.is(bad.body.errors[0].extensions.code, 'invalid-json');
  const denied = await secured.post('/v1alpha1/graphql', { query: '{ x }' }, { 'x-engine-admin-secret': 'wrong' });
  t.is(denied.status, 401);
  const ok = await secured.post('/v1/graphql', { query: '{ x }' }, { 'x-engine-admin-secret': 'wrong' });
  t.is(ok.status, 200);
  t.is(ok.body.errors[0].extensions.code, 'access-denied');
});

maybeDump('/v1alpha1/pg_dump: schema dump for admin, clean output, no file options', async (t) => {
  await e.query({ type: 'run_sql', args: { sql: 'CREATE TABLE IF NOT EXISTS dumped (id serial PRIMARY KEY, note text)' } });
  const r = await e.post('/v1alpha1/pg_dump', { opts: ['-O', '-x', '--schema-only', '--schema', 'public'], clean_output: true });
  t.is(r.status, 200, r.text.slice(0, 300));
  t.regex(r.headers.get('content-type') ?? '', /application\/sql/);
  t.regex(r.text, /CREATE TABLE public\.dumped/);
  t.false(r.text.includes('\nSET '));
  t.false(/^--/m.test(r.text));
  t.false(r.text.includes('\n\n'), 'clean output has no blank lines');
  const raw = await e.post('/v1alpha1/pg_dump', { opts: ['--schema-only', '--schema', 'public'] });
  t.regex(raw.text, /^--/m);
  const file = await e.post('/v1alpha1/pg_dump', { opts: ['-f', '/tmp/x.sql'] });
  t.is(file.status, 400);
  t.deepEqual(file.body, { path: '$.opts', error: 'pg_dump option not allowed: -f', code: 'not-supported' });
  const user = await e.post('/v1alpha1/pg_dump', { opts: [] }, { 'x-engine-role': 'user' });
  t.is(user.status, 400);
  t.deepEqual(user.body, { path: '$', error: 'You have to be an admin to access this endpoint', code: 'access-denied' });
  t.is((await limited.post('/v1alpha1/pg_dump', { opts: [] })).status, 404);
});

test('CORS: preflight answered for any origin by default', async (t) => {
  const res = await fetch(`${e.url}/v1/graphql`, {
    method: 'OPTIONS',
    headers: { origin: 'http://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-engine-role' },
  });
  t.is(res.status, 204);
  t.is(res.headers.get('access-control-allow-origin'), 'http://app.example');
  t.regex(res.headers.get('access-control-allow-headers') ?? '', /x-engine-role/);
  const plain = await fetch(`${e.url}/v1/version`, { headers: { origin: 'http://app.example' } });
  t.is(plain.headers.get('access-control-allow-origin'), 'http://app.example');
});

test('gzip on /v1/query when accepted', async (t) => {
  const { request: httpRequest } = await import('node:http');
  const body = JSON.stringify({ type: 'run_sql', args: { sql: `SELECT repeat('x', 5000)` } });
  const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const req = httpRequest(`${e.url}/v1/query`, { method: 'POST', headers: { 'accept-encoding': 'gzip', 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers));
    });
    req.on('error', reject);
    req.end(body);
  });
  t.is(headers['content-encoding'], 'gzip');
});
