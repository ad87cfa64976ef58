// Apollo's subscriptions-transport-ws (subprotocol graphql-ws, also the default) on a real engine and database:
// handshake paths, init/ack/ka, queries and mutations over the socket (data + complete, HTTP's results and errors),
// the /v1alpha1 error encoding, protocol errors (start before init, duplicate id, bad frames), auth from the init
// payload (admin secret, JWT, its expiry closing the socket), connection_terminate.
import test from 'ava';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';
import { WsClient } from '../helpers/ws.js';
import { HS_SECRET, hsToken, NS } from '../auth/helpers.js';

const SECRET = 'ws-admin-secret';
const ADMIN = { 'x-engine-admin-secret': SECRET };
let e: TestEngine;

test.before(async () => {
  e = await startTestEngine({ adminSecret: SECRET, jwtSecret: { type: 'HS256', key: HS_SECRET } });
  const r = await e.query({
    type: 'bulk',
    args: [
      { type: 'run_sql', args: { sql: `CREATE TABLE note (id int PRIMARY KEY, body text NOT NULL, owner text NOT NULL);
        INSERT INTO note VALUES (1, 'one', 'u1'), (2, 'two', 'u2');` } },
      { type: 'track_table', args: 'note' },
      { type: 'create_select_permission', args: { table: 'note', role: 'user', permission: { columns: ['id', 'body'], filter: { owner: 'X-Engine-User-Id' } } } },
    ],
  }, ADMIN);
  if (r.status !== 200) throw new Error(r.text);
});
test.after.always(() => e?.close());

const open = async (path = '/v1/graphql', protocol?: string): Promise<WsClient> => WsClient.open(e.url, path, protocol);
const token = (claims: Record<string, unknown>): string =>
  hsToken({ sub: 'u1', [NS]: { 'x-engine-allowed-roles': ['user'], 'x-engine-default-role': 'user', 'x-engine-user-id': 'u1' }, ...claims });

test('every GraphQL path upgrades; any other path answers 404 with the metadata-style body', async (t) => {
  for (const path of ['/v1/graphql', '/v1alpha1/graphql', '/v1beta1/relay']) {
    const c = await open(path, 'graphql-ws');
    t.is(c.socket.protocol, 'graphql-ws', path);
    c.close();
  }
  const err = await t.throwsAsync(open('/v1/query'));
  t.is((err as Error & { status: number }).status, 404);
  t.deepEqual(JSON.parse((err as Error & { body: string }).body), { path: '$', error: 'resource does not exist', code: 'not-found' });
});

test('ka on accept, then connection_init → connection_ack followed by ka', async (t) => {
  const c = await open();
  t.is(c.socket.protocol, '', 'no subprotocol asked: Apollo by default, none echoed');
  t.deepEqual(await c.next((m) => true), { type: 'ka' });
  c.send({ type: 'connection_init', payload: { headers: ADMIN } });
  t.deepEqual(await c.next(), { type: 'connection_ack' });
  t.deepEqual(await c.next(() => true), { type: 'ka' });
  c.close();
});

test('a start sent right after connection_init (without waiting for the ack) runs once the init is done', async (t) => {
  const c = await open();
  c.send({ type: 'connection_init', payload: { headers: ADMIN } });
  c.send({ id: 'b', type: 'start', payload: { query: '{ note_by_pk(id: 1) { body } }' } });
  t.deepEqual(await c.next(), { type: 'connection_ack' });
  t.deepEqual(await c.nextFor('b'), { id: 'b', type: 'data', payload: { data: { note_by_pk: { body: 'one' } } } });
  c.close();
});

test('a query over the socket answers data then complete, as HTTP does', async (t) => {
  const c = await open();
  await c.init(ADMIN);
  c.send({ id: 'q1', type: 'start', payload: { query: 'query ($id: Int!) { note_by_pk(id: $id) { id body } }', variables: { id: 2 } } });
  t.deepEqual(await c.nextFor('q1'), { id: 'q1', type: 'data', payload: { data: { note_by_pk: { id: 2, body: 'two' } } } });
  t.deepEqual(await c.nextFor('q1'), { id: 'q1', type: 'complete' });
  c.close();
});

test('a mutation over the socket answers data then complete; an execution error is data with the HTTP error body', async (t) => {
  const c = await open();
  await c.init(ADMIN);
  c.send({ id: 'm1', type: 'start', payload: { query: 'mutation { insert_note_one(object: {id: 10, body: "ten", owner: "u9"}) { id body } }' } });
  t.deepEqual(await c.nextFor('m1'), { id: 'm1', type: 'data', payload: { data: { insert_note_one: { id: 10, body: 'ten' } } } });
  t.deepEqual(await c.nextFor('m1'), { id: 'm1', type: 'complete' });
  c.send({ id: 'm2', type: 'start', payload: { query: 'mutation { insert_note_one(object: {id: 10, body: "again", owner: "u9"}) { id } }' } });
  const dup = await c.nextFor('m2');
  t.is(dup.type, 'data');
  t.false('data' in dup.payload, 'the HTTP body: errors only');
  t.is(dup.payload.errors[0].extensions.code, 'constraint-violation');
  t.regex(dup.payload.errors[0].message, /^Uniqueness violation\. /);
  t.deepEqual(await c.nextFor('m2'), { id: 'm2', type: 'complete' });
  c.close();
});

test('on /v1alpha1 an execution error is data with "data": null and the legacy error objects, as the original sends it', async (t) => {
  const c = await open('/v1alpha1/graphql');
  await c.init(ADMIN);
  c.send({ id: 'a1', type: 'start', payload: { query: 'mutation { insert_note_one(object: {id: 1, body: "dup", owner: "u9"}) { id } }' } });
  const dup = await c.nextFor('a1');
  t.is(dup.type, 'data');
  t.deepEqual(Object.keys(dup.payload).sort(), ['data', 'errors']);
  t.is(dup.payload.data, null);
  t.is(dup.payload.errors.length, 1);
  t.deepEqual(Object.keys(dup.payload.errors[0]).sort(), ['code', 'error', 'path']);
  t.is(dup.payload.errors[0].code, 'constraint-violation');
  t.regex(dup.payload.errors[0].error, /^Uniqueness violation\. /);
  t.deepEqual(await c.nextFor('a1'), { id: 'a1', type: 'complete' });
  c.close();
});

test('a validation error is an error message ({errors}) then complete; on /v1alpha1 the bare legacy object', async (t) => {
  const c = await open();
  await c.init(ADMIN);
  c.send({ id: 'v1', type: 'start', payload: { query: '{ note { nope } }' } });
  t.deepEqual(await c.nextFor('v1'), {
    id: 'v1', type: 'error',
    payload: { errors: [{ message: 'field "nope" not found in type: \'note\'', extensions: { path: '$.selectionSet.note.selectionSet.nope', code: 'validation-failed' } }] },
  });
  t.deepEqual(await c.nextFor('v1'), { id: 'v1', type: 'complete' });
  c.close();
  const legacy = await open('/v1alpha1/graphql');
  await legacy.init(ADMIN);
  legacy.send({ id: 'v2', type: 'start', payload: { query: '{ note { nope } }' } });
  t.deepEqual(await legacy.nextFor('v2'), {
    id: 'v2', type: 'error', payload: { path: '$.selectionSet.note.selectionSet.nope', error: 'field "nope" not found in type: \'note\'', code: 'validation-failed' },
  });
  t.deepEqual(await legacy.nextFor('v2'), { id: 'v2', type: 'complete' });
  legacy.close();
});

test('a subscription with two root fields is refused, unless it carries @_multiple_top_level_fields', async (t) => {
  const c = await open();
  await c.init(ADMIN);
  c.send({ id: 's', type: 'start', payload: { query: 'subscription { a: note { id } b: note { id } }' } });
  const m = await c.nextFor('s');
  t.is(m.type, 'error');
  t.deepEqual(m.payload.errors[0], { message: 'subscriptions must select one top level field', extensions: { path: '$', code: 'validation-failed' } });
  c.send({ id: 'm', type: 'start', payload: { query: 'subscription @_multiple_top_level_fields { a: note_by_pk(id: 1) { id } b: note_by_pk(id: 2) { id } }' } });
  t.deepEqual((await c.nextFor('m')).payload, { data: { a: { id: 1 }, b: { id: 2 } } });
  c.close();
});

test('start before connection_init fails with start-failed (legacy shape on /v1alpha1), and after a failed init names the reason', async (t) => {
  const c = await open('/v1alpha1/graphql');
  c.send({ id: '1', type: 'start', payload: { query: '{ note { id } }' } });
  t.deepEqual(await c.nextFor('1'), { id: '1', type: 'error', payload: { path: '$', error: 'start received before the connection is initialised', code: 'start-failed' } });
  t.deepEqual(await c.nextFor('1'), { id: '1', type: 'complete' });
  c.send({ type: 'connection_init', payload: { headers: { 'x-engine-admin-secret': 'wrong' } } });
  t.deepEqual(await c.next(), { type: 'connection_error', payload: 'invalid x-engine-admin-secret/x-engine-access-key' });
  c.send({ id: '2', type: 'start', payload: { query: '{ note { id } }' } });
  t.deepEqual(await c.nextFor('2'), {
    id: '2', type: 'error',
    payload: { path: '$', error: 'cannot start as connection_init failed with : invalid x-engine-admin-secret/x-engine-access-key', code: 'start-failed' },
  });
  c.close();
});

test('bad frames get connection_error and leave the connection (and others) working', async (t) => {
  const c = await open();
  const other = await open();
  await other.init(ADMIN);
  await c.init(ADMIN);
  for (const frame of ['not json', '{"type":"nope"}', '[1,2]', '{"type":"stop"}', '{"type":"start","id":"x","payload":{"query":5}}']) {
    c.send(frame);
    const m = await c.next();
    t.is(m.type, 'connection_error', frame);
    t.regex(m.payload, /^parsing ClientMessage failed: /, frame);
  }
  c.send({ id: 'unknown', type: 'stop' });
  t.deepEqual(await c.quiet(200), [], 'stop of an unknown id is ignored');
  c.send({ id: 'q', type: 'start', payload: { query: '{ note_by_pk(id: 1) { body } }' } });
  t.deepEqual((await c.nextFor('q')).payload, { data: { note_by_pk: { body: 'one' } } });
  other.send({ id: 'q', type: 'start', payload: { query: '{ note_by_pk(id: 2) { body } }' } });
  t.deepEqual((await other.nextFor('q')).payload, { data: { note_by_pk: { body: 'two' } } });
  c.close();
  other.close();
});

test('a frame larger than the limit closes only that socket (1009)', async (t) => {
  const c = await open();
  const other = await open();
  await other.init(ADMIN);
  c.send('x'.repeat(17 * 1024 * 1024));
  t.is((await c.closed).code, 1009);
  other.send({ id: 'q', type: 'start', payload: { query: '{ note_by_pk(id: 1) { body } }' } });
  t.deepEqual((await other.nextFor('q')).payload, { data: { note_by_pk: { body: 'one' } } });
  other.close();
});

test('a duplicate operation id is refused with start-failed', async (t) => {
  const c = await open();
  await c.init(ADMIN);
  c.send({ id: 'd', type: 'start', payload: { query: 'subscription { note(order_by: {id: asc}) { id } }' } });
  t.is((await c.nextFor('d')).type, 'data');
  c.send({ id: 'd', type: 'start', payload: { query: 'subscription { note { id } }' } });
  t.deepEqual(await c.nextFor('d'), { id: 'd', type: 'error', payload: { message: 'an operation already exists with this id: d', extensions: { path: '$', code: 'start-failed' } } });
  c.close();
});

test('JWT in the init payload: role and session variables apply; the socket closes when the token expires', async (t) => {
  const c = await open();
  // 4-5 s away: the init and the query are answered well before it on a loaded machine.
  const exp = Math.floor(Date.now() / 1000) + 5;
  await c.init({ Authorization: `Bearer ${token({ exp })}` });
  c.send({ id: 'q', type: 'start', payload: { query: '{ note { id body } }' } });
  t.deepEqual((await c.nextFor('q')).payload, { data: { note: [{ id: 1, body: 'one' }] } });
  const closed = await c.closed;
  t.true(Date.now() >= exp * 1000 - 50, 'not before exp');
  t.is(closed.code, 1000);
});

test('a bad JWT gets connection_error with the HTTP message', async (t) => {
  const c = await open();
  c.send({ type: 'connection_init', payload: { headers: { Authorization: 'Bearer abc' } } });
  const m = await c.next();
  t.is(m.type, 'connection_error');
  t.is(typeof m.payload, 'string');
  c.send({ type: 'connection_init', payload: { headers: {} } });
  t.deepEqual(await c.next(), { type: 'connection_error', payload: 'Missing Authorization header in JWT authentication mode' });
  c.close();
});

test('connection_terminate closes the socket with 1000', async (t) => {
  const c = await open();
  await c.init(ADMIN);
  c.send({ type: 'connection_terminate' });
  t.is((await c.closed).code, 1000);
});

test('subscriptions over HTTP still answer unexpected-payload', async (t) => {
  const r = await e.graphql({ query: 'subscription { note { id } }' }, ADMIN);
  t.deepEqual(r.body, { errors: [{ extensions: { path: '$', code: 'unexpected-payload' }, message: 'subscriptions are not supported over HTTP, use websockets instead' }] });
});
