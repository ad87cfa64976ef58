// The JSON lines a real server process prints (node bin/engine.mjs serve, stdout): startup lines describing the
// configuration without its secrets, http-log with user_vars, query-log with the generated SQL, log types
// switched by ENGINE_GRAPHQL_ENABLED_LOG_TYPES; and in-process, --enabled-log-types and --log-level filtering.
import test from 'ava';
import { SignJWT } from 'jose';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { request, spawnEngine, startTestEngine, type ChildEngine } from '../helpers/engine.js';

const ADMIN_SECRET = 'adm-S3CRET-value';
const JWT_KEY = 'jwt-S3CRET-key-that-is-long-enough-for-hs256';
// A server with trust authentication (the usual test server) ignores this password: it is there to be kept out of
// the logs. A server that checks passwords (the embedded one npm test may start) needs its own, kept out alike.
const FAKE_DB_PASSWORD = 'db-S3CRET-pw';
let dbPassword = FAKE_DB_PASSWORD;
// The embedded server's password equals its user name, which the logs rightly show: then look for it as a URL's.
const secrets = (): string[] => [ADMIN_SECRET, JWT_KEY, dbPassword === 'postgres' ? ':postgres@' : dbPassword];

let db: TestDatabase;
let dbHost = '';
let child: ChildEngine;
let token: string;
type Line = { timestamp: string; level: string; type: string; detail: Record<string, any> };

test.before(async () => {
  db = await createTestDatabase('h14_log');
  const url = new URL(db.url);
  if (url.password) dbPassword = decodeURIComponent(url.password);
  else url.password = FAKE_DB_PASSWORD;
  dbHost = url.host;
  child = await spawnEngine(url.toString(), {
    ENGINE_GRAPHQL_ADMIN_SECRET: ADMIN_SECRET,
    ENGINE_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'HS256', key: JWT_KEY }),
    ENGINE_GRAPHQL_ENABLED_LOG_TYPES: 'startup,http-log,query-log',
    ENGINE_GRAPHQL_LOG_LEVEL: 'info',
  });
  const admin = { 'x-engine-admin-secret': ADMIN_SECRET };
  const sql = 'CREATE TABLE item (id int PRIMARY KEY, name text); INSERT INTO item VALUES (1, \'one\'), (2, \'two\');';
  for (const body of [{ type: 'run_sql', args: { sql } }, { type: 'track_table', args: { schema: 'public', name: 'item' } }]) {
    const r = await request(`${child.url}/v1/query`, 'POST', body, admin);
    if (r.status !== 200) throw new Error(r.text);
  }
  token = await new SignJWT({ 'https://engine.io/jwt/claims': { 'x-engine-allowed-roles': ['admin'], 'x-engine-default-role': 'admin', 'x-engine-user-id': '42' } })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(JWT_KEY));
});
test.after.always(async () => {
  await child?.stop();
  await db?.drop();
});

const lines = (): Line[] => child.output.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Line);

/** The lines of one request id, once its http-log line is out (stdout is flushed every few ms). */
async function linesOf(requestId: string): Promise<Line[]> {
  // A generous deadline: stdout from a child on a loaded machine can lag by seconds.
  for (const end = Date.now() + 30_000; Date.now() < end; ) {
    const mine = lines().filter((l) => l.detail.request_id === requestId || l.detail.operation?.request_id === requestId);
    if (mine.some((l) => l.type === 'http-log')) return mine;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no http-log line for ${requestId}`);
}

test.serial('startup lines: the configuration, secrets replaced', (t) => {
  const config = lines().find((l) => l.type === 'startup' && l.detail.kind === 'server_configuration');
  t.truthy(config);
  const info = config!.detail.info;
  t.is(info.admin_secret_set, true);
  t.deepEqual(info.jwt_secret, { type: 'HS256', key: '<JWK REDACTED>' });
  t.deepEqual(info.enabled_log_types, ['startup', 'http-log', 'query-log']);
  t.is(info.log_level, 'info');
  t.is(info.database_url, `postgres://postgres:...@${dbHost}/${db.name}`);
  const connection = lines().find((l) => l.type === 'startup' && l.detail.kind === 'postgres_connection');
  t.is(connection?.detail.info.database_url, info.database_url);
  t.true(lines().some((l) => l.type === 'startup' && l.detail.kind === 'server' && l.detail.info.message.startsWith('engine ready on')));
});

test.serial('a query: query-log with the request and the generated SQL, http-log with the query and user_vars', async (t) => {
  const body = { query: 'query Get($id: Int!) { item_by_pk(id: $id) { name } other: item(limit: 1) { id } }', variables: { id: 2 }, operationName: 'Get' };
  const r = await request(`${child.url}/v1/graphql`, 'POST', body, { authorization: `Bearer ${token}`, 'x-request-id': 'lt-query' });
  t.deepEqual(r.body, { data: { item_by_pk: { name: 'two' }, other: [{ id: 1 }] } });
  const mine = await linesOf('lt-query');
  const q = mine.find((l) => l.type === 'query-log')!;
  t.like(q, { level: 'info', detail: { request_id: 'lt-query', query: body } });
  t.deepEqual(Object.keys(q.detail.generated_sql), ['item_by_pk', 'other']);
  const gen = q.detail.generated_sql.item_by_pk;
  t.regex(gen.query, /^SELECT .*"public"\."item"/s);
  t.deepEqual(gen.prepared_arguments, ['2'], 'variables are sent as text parameters');
  const h = mine.find((l) => l.type === 'http-log')!;
  t.like(h.detail, {
    operation: { request_id: 'lt-query', user_vars: { 'x-engine-role': 'admin', 'x-engine-user-id': '42' }, response_size: Buffer.byteLength(r.text), query: body },
    http_info: { status: 200, method: 'POST', url: '/v1/graphql' },
  });
});

test.serial('a mutation: query-log without SQL (as the original)', async (t) => {
  const body = { query: 'mutation { insert_item(objects: [{id: 3, name: "three"}]) { affected_rows } }' };
  const r = await request(`${child.url}/v1/graphql`, 'POST', body, { 'x-engine-admin-secret': ADMIN_SECRET, 'x-request-id': 'lt-mut' });
  t.deepEqual(r.body, { data: { insert_item: { affected_rows: 1 } } });
  const q = (await linesOf('lt-mut')).find((l) => l.type === 'query-log')!;
  t.is(q.detail.generated_sql, null);
  t.is(q.detail.query.query, body.query);
});

test.serial('no line carries a secret (admin secret, JWT key, database password, the token)', async (t) => {
  await request(`${child.url}/v1/query`, 'POST', { type: 'export_metadata', args: {} }, { 'x-engine-admin-secret': ADMIN_SECRET, 'x-request-id': 'lt-last' });
  await request(`${child.url}/v1/query`, 'POST', { type: 'export_metadata', args: {} }, { 'x-engine-admin-secret': 'wrong', 'x-request-id': 'lt-denied' });
  const denied = (await linesOf('lt-denied')).find((l) => l.type === 'http-log')!;
  t.like(denied.detail, { http_info: { status: 401 }, operation: { error: { code: 'access-denied' } } });
  await linesOf('lt-last');
  const all = child.output.join('\n');
  t.true(child.output.length > 8);
  for (const secret of [...secrets(), token]) t.false(all.includes(secret), `found ${secret.slice(0, 8)}...`);
});

test('--enabled-log-types: startup and query-log off, http-log on', async (t) => {
  const sink: string[] = [];
  const e = await startTestEngine({ database: await createTestDatabase('h14_log'), enabledLogTypes: ['http-log'], logSink: (l) => sink.push(l) });
  try {
    await e.graphql({ query: '{ __typename }' }, { 'x-request-id': 'only-http' });
    const types = new Set(sink.map((l) => (JSON.parse(l) as Line).type));
    t.false(types.has('startup'));
    t.false(types.has('query-log'));
    t.true(types.has('http-log'));
  } finally {
    await e.close();
    await e.db.drop();
  }
});
