// The level of the http-log lines a real server process prints on stdout (issue 34, item 8): as the original's, a
// request answered with an error logs at `error` (bad JSON, an unknown field, a permission error, auth errors, 404,
// a GraphQL error answered with HTTP 200, a 500), a request answered without one at `info`.
import test from 'ava';
import { SignJWT } from 'jose';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { request, spawnEngine, type ChildEngine } from '../helpers/engine.js';

const ADMIN_SECRET = 'levels-admin-secret';
const ADMIN = { 'x-engine-admin-secret': ADMIN_SECRET };
const JWT_KEY = 'levels-jwt-key-that-is-long-enough-for-hs256';
let db: TestDatabase;
let child: ChildEngine;
let userToken: string;
type Line = { level: string; type: string; detail: { operation: { request_id: string; error?: { code: string } }; http_info: { status: number; url: string } } };

test.before(async () => {
  db = await createTestDatabase('log_levels');
  child = await spawnEngine(db.url, {
    ENGINE_GRAPHQL_ADMIN_SECRET: ADMIN_SECRET,
    ENGINE_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'HS256', key: JWT_KEY }),
    ENGINE_GRAPHQL_ENABLED_LOG_TYPES: 'startup,http-log',
    ENGINE_GRAPHQL_LOG_LEVEL: 'info',
  });
  const setup = { type: 'bulk', args: [
    { type: 'run_sql', args: { sql: `CREATE TABLE item (id int PRIMARY KEY, owner text NOT NULL); INSERT INTO item VALUES (1, 'u1');
      CREATE FUNCTION boom() RETURNS SETOF item AS $$ BEGIN RAISE EXCEPTION 'boom' USING ERRCODE = 'XX000'; END $$ LANGUAGE plpgsql STABLE;` } },
    { type: 'track_table', args: 'item' },
    { type: 'track_function', args: 'boom' },
    { type: 'create_select_permission', args: { table: 'item', role: 'user', permission: { columns: ['id'], filter: {} } } },
    { type: 'create_insert_permission', args: { table: 'item', role: 'user', permission: { columns: ['id', 'owner'], check: { owner: 'X-Engine-User-Id' } } } },
  ] };
  const r = await request(`${child.url}/v1/query`, 'POST', setup, ADMIN);
  if (r.status !== 200) throw new Error(r.text);
  userToken = await new SignJWT({ 'https://engine.io/jwt/claims': { 'x-engine-allowed-roles': ['user'], 'x-engine-default-role': 'user', 'x-engine-user-id': 'u1' } })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(JWT_KEY));
});
test.after.always(async () => {
  await child?.stop();
  await db?.drop();
});

/** The http-log line of a request id, once the child has printed it (stdout is written in batches). */
async function httpLogOf(requestId: string): Promise<Line> {
  for (const end = Date.now() + 30_000; Date.now() < end; ) {
    const line = child.output
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Line)
      .find((l) => l.type === 'http-log' && l.detail.operation?.request_id === requestId);
    if (line !== undefined) return line;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no http-log line for ${requestId}`);
}

const raw = async (path: string, method: string, body: string | undefined, headers: Record<string, string>): Promise<number> => {
  const res = await fetch(`${child.url}${path}`, { method, body, headers: { 'content-type': 'application/json', ...headers } });
  await res.arrayBuffer();
  return res.status;
};
const gql = (query: string, headers: Record<string, string>, path = '/v1/graphql') => raw(path, 'POST', JSON.stringify({ query }), headers);
const bearer = () => ({ authorization: `Bearer ${userToken}` });

// [what, the request (its x-request-id given), the status the original answers with, the error code the line carries]
const errorAnswers: Array<[string, (h: Record<string, string>) => Promise<number>, number, string]> = [
  ['bad JSON on /v1/graphql', (h) => raw('/v1/graphql', 'POST', '{"query":', { ...ADMIN, ...h }), 200, 'invalid-json'],
  ['bad JSON on /v1/query', (h) => raw('/v1/query', 'POST', '{', { ...ADMIN, ...h }), 400, 'invalid-json'],
  ['an unknown field in a query', (h) => gql('{ item { nope } }', { ...ADMIN, ...h }), 200, 'validation-failed'],
  ['an unknown field on /v1alpha1', (h) => gql('{ item { nope } }', { ...ADMIN, ...h }, '/v1alpha1/graphql'), 400, 'validation-failed'],
  ['a metadata operation without a required key', (h) => raw('/v1/query', 'POST', JSON.stringify({ type: 'run_sql', args: {} }), { ...ADMIN, ...h }), 400, 'parse-failed'],
  ['a permission error (insert check)', (h) => gql('mutation { insert_item_one(object: {id: 5, owner: "u2"}) { id } }', { ...bearer(), ...h }), 200, 'permission-error'],
  ['a non-admin on the metadata API', (h) => raw('/v1/query', 'POST', JSON.stringify({ type: 'export_metadata', args: {} }), { ...bearer(), ...h }), 400, 'access-denied'],
  ['a wrong admin secret on /v1/query (401)', (h) => raw('/v1/query', 'POST', JSON.stringify({ type: 'export_metadata', args: {} }), { 'x-engine-admin-secret': 'wrong', ...h }), 401, 'access-denied'],
  ['a wrong admin secret on /v1/graphql', (h) => gql('{ item { id } }', { 'x-engine-admin-secret': 'wrong', ...h }), 200, 'access-denied'],
  ['a bad JWT on /v1alpha1', (h) => gql('{ item { id } }', { authorization: 'Bearer not.a.jwt', ...h }, '/v1alpha1/graphql'), 400, 'invalid-jwt'],
  ['an unknown path (404)', (h) => raw('/v1/nothing-here', 'GET', undefined, h), 404, 'not-found'],
  ['a non-admin asking for an explain', (h) => raw('/v1/graphql/explain', 'POST', JSON.stringify({ query: { query: '{ item { id } }' } }), { ...bearer(), ...h }), 400, 'access-denied'],
  ['a database error on /v1alpha1 (500)', (h) => gql('{ boom { id } }', { ...ADMIN, ...h }, '/v1alpha1/graphql'), 500, 'unexpected'],
];

for (const [what, send, status, code] of errorAnswers) {
  test(`${what}: the http-log line is at level error`, async (t) => {
    const requestId = `levels-${what.replace(/\W+/g, '-')}`;
    t.is(await send({ 'x-request-id': requestId }), status);
    const line = await httpLogOf(requestId);
    t.is(line.detail.http_info.status, status);
    t.is(line.detail.operation.error?.code, code);
    t.is(line.level, 'error');
  });
}

test('a 5xx without an error object (/healthz?strict=true with an inconsistent object) is at level error too', async (t) => {
  const r = await request(`${child.url}/v1/query`, 'POST', { type: 'bulk', args: [
    { type: 'run_sql', args: { sql: 'CREATE TABLE gone (id int PRIMARY KEY)' } }, { type: 'track_table', args: 'gone' },
  ] }, ADMIN);
  t.is(r.status, 200, r.text);
  // Dropped behind the engine's back, then found missing by a reload: an inconsistent object.
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    await c.query('DROP TABLE gone');
  } finally {
    await c.end();
  }
  t.is((await request(`${child.url}/v1/query`, 'POST', { type: 'reload_metadata', args: {} }, ADMIN)).status, 200);
  t.is(await raw('/healthz?strict=true', 'GET', undefined, { 'x-request-id': 'levels-healthz' }), 500);
  const line = await httpLogOf('levels-healthz');
  t.is(line.detail.http_info.status, 500);
  t.is(line.level, 'error');
});

test('requests answered without an error stay at level info', async (t) => {
  const ok: Array<[string, () => Promise<number>]> = [
    ['levels-ok-query', () => gql('{ item { id } }', { ...bearer(), 'x-request-id': 'levels-ok-query' })],
    ['levels-ok-metadata', () => raw('/v1/query', 'POST', JSON.stringify({ type: 'export_metadata', args: {} }), { ...ADMIN, 'x-request-id': 'levels-ok-metadata' })],
    ['levels-ok-version', () => raw('/v1/version', 'GET', undefined, { 'x-request-id': 'levels-ok-version' })],
  ];
  for (const [requestId, send] of ok) {
    t.is(await send(), 200, requestId);
    const line = await httpLogOf(requestId);
    t.is(line.detail.operation.error, undefined, requestId);
    t.is(line.level, 'info', requestId);
  }
});
