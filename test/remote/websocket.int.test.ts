// Remote-schema fields over websockets take the same path as over HTTP: a request whose fields are all one
// remote's is forwarded as sent (headers from the configuration, the session and connection_init's payload) and
// its answer is one `data` result; mixed requests are split; a remote failure is a `data` result with HTTP's error
// body; a subscription to a remote field is refused before execution. Both protocols. Real engine, real Postgres,
// real graphql-js servers on loopback.
import test from 'ava';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';
import { WsClient } from '../helpers/ws.js';
import { startRemote, type RemoteServer } from './server.js';

const SECRET = 'ws-remote-secret';
const ADMIN = { 'x-engine-admin-secret': SECRET };
let e: TestEngine;
let remote: RemoteServer;

test.before(async () => {
  remote = await startRemote(`type User { id: Int, username: String }
    type Query { user(id: Int!): User, fail: String }
    type Mutation { createUser(id: Int!, username: String!): User }`, {
    user: ({ id }: { id: number }) => ({ id, username: id === 2 ? 'john' : `user ${id}` }),
    fail: () => { throw new Error('remote resolver failed'); },
    createUser: ({ id, username }: { id: number; username: string }) => ({ id, username }),
  });
  e = await startTestEngine({ adminSecret: SECRET });
  const r = await e.query({ type: 'bulk', args: [
    { type: 'run_sql', args: { sql: "CREATE TABLE note (id int PRIMARY KEY, body text NOT NULL); INSERT INTO note VALUES (1, 'one');" } },
    { type: 'track_table', args: 'note' },
    { type: 'add_remote_schema', args: { name: 'users', definition: { url: remote.url, forward_client_headers: true, headers: [{ name: 'X-Conf', value: 'conf' }] } } },
  ] }, ADMIN);
  if (r.status !== 200) throw new Error(r.text);
});
test.after.always(async () => {
  await e?.close();
  await remote?.close();
});

const apollo = (headers: Record<string, string> = ADMIN): Promise<WsClient> => WsClient.connect(e.url, headers, '/v1/graphql', 'graphql-ws');

test.serial('Apollo: a remote query is forwarded as sent, its answer is one data message, then complete', async (t) => {
  const c = await apollo({ ...ADMIN, 'x-engine-role': 'user', 'x-engine-user-id': '7', Authorization: 'Bearer abc', 'X-Conf': 'client' });
  t.teardown(() => c.close());
  remote.received.length = 0;
  const payload = { query: 'query Q($id: Int!) { user(id: $id) { id username } } query Other { fail }', variables: { id: 2 }, operationName: 'Q' };
  c.send({ id: '1', type: 'start', payload });
  t.deepEqual(await c.nextFor('1'), { id: '1', type: 'data', payload: { data: { user: { id: 2, username: 'john' } } } });
  t.deepEqual(await c.nextFor('1'), { id: '1', type: 'complete' });
  t.deepEqual(remote.received.map((x) => x.body), [payload]);
  const h = remote.received[0].headers;
  t.is(h['x-conf'], 'conf', 'configured beats the client');
  t.is(h['x-engine-role'], 'user');
  t.is(h['x-engine-user-id'], '7');
  t.is(h.authorization, 'Bearer abc', "connection_init's headers are the client headers");
  t.is(h['x-engine-admin-secret'], undefined);
});

test.serial("Apollo: a remote's error and a mutation are the remote's answers as received", async (t) => {
  const c = await apollo();
  t.teardown(() => c.close());
  c.send({ id: 'q', type: 'start', payload: { query: '{ user(id: 2) { blah username } }' } });
  t.deepEqual(await c.nextFor('q'), {
    id: 'q', type: 'data', payload: { errors: [{ message: 'Cannot query field "blah" on type "User".', locations: [{ line: 1, column: 17 }] }] },
  });
  t.deepEqual(await c.nextFor('q'), { id: 'q', type: 'complete' });
  c.send({ id: 'm', type: 'start', payload: { query: 'mutation { createUser(id: 42, username: "foobar") { id username } }' } });
  t.deepEqual(await c.nextFor('m'), { id: 'm', type: 'data', payload: { data: { createUser: { id: 42, username: 'foobar' } } } });
  t.deepEqual(await c.nextFor('m'), { id: 'm', type: 'complete' });
});

test.serial('Apollo: a table field and a remote field in one request', async (t) => {
  const c = await apollo();
  t.teardown(() => c.close());
  remote.received.length = 0;
  c.send({ id: 'x', type: 'start', payload: { query: '{ user(id: 3) { username } note_by_pk(id: 1) { body } fail }' } });
  const m = await c.nextFor('x');
  t.is(m.type, 'data');
  t.deepEqual(Object.keys(m.payload.data), ['user', 'note_by_pk', 'fail'], 'the request order');
  t.deepEqual(m.payload.data, { user: { username: 'user 3' }, note_by_pk: { body: 'one' }, fail: null });
  t.deepEqual(m.payload.errors.map((x: { message: string; path: string[] }) => [x.message, x.path]), [['remote resolver failed', ['fail']]]);
  t.is(remote.received.length, 1);
  t.false(remote.received[0].body.query.includes('note_by_pk'), 'the remote gets only its own fields');
});

test.serial('Apollo: a subscription to a remote field is refused before execution (error, then complete)', async (t) => {
  const c = await apollo();
  t.teardown(() => c.close());
  c.send({ id: 's', type: 'start', payload: { query: 'subscription { user(id: 1) { id } }' } });
  t.deepEqual(await c.nextFor('s'), {
    id: 's', type: 'error', payload: { errors: [{ extensions: { path: '$', code: 'not-supported' }, message: 'subscription to remote server is not supported' }] },
  });
  t.deepEqual(await c.nextFor('s'), { id: 's', type: 'complete' });
});

test.serial('Apollo: a remote that is down is a data message with the HTTP error body', async (t) => {
  const down = await startRemote('type Query { gone: String }', { gone: () => 'here' });
  const add = await e.query({ type: 'add_remote_schema', args: { name: 'down', definition: { url: down.url } } }, ADMIN);
  t.is(add.status, 200, add.text);
  t.teardown(() => e.query({ type: 'remove_remote_schema', args: { name: 'down' } }, ADMIN));
  await down.close();
  const c = await apollo();
  t.teardown(() => c.close());
  c.send({ id: 'd', type: 'start', payload: { query: '{ gone }' } });
  const m = await c.nextFor('d');
  t.is(m.type, 'data');
  t.is(m.payload.errors[0].extensions.code, 'unexpected');
  t.false('data' in m.payload);
  t.deepEqual(await c.nextFor('d'), { id: 'd', type: 'complete' });
});

test.serial('a remote answering something that is not a JSON object: an unexpected error result on both protocols (HTTP passes it on)', async (t) => {
  remote.options.body = '<h1>oops</h1>';
  t.teardown(() => { delete remote.options.body; });
  t.is((await e.graphql({ query: '{ user(id: 1) { id } }' }, ADMIN)).text, '<h1>oops</h1>');
  const c = await apollo();
  t.teardown(() => c.close());
  c.send({ id: 'g', type: 'start', payload: { query: '{ user(id: 1) { id } }' } });
  t.deepEqual(await c.nextFor('g'), {
    id: 'g', type: 'data', payload: { errors: [{ extensions: { path: '$', code: 'unexpected' }, message: 'invalid JSON from a remote schema' }] },
  });
  t.deepEqual(await c.nextFor('g'), { id: 'g', type: 'complete' });
  const tws = createClient({ url: e.url.replace(/^http/, 'ws') + '/v1/graphql', webSocketImpl: WebSocket, retryAttempts: 0, lazy: true, connectionParams: { headers: ADMIN } });
  t.teardown(() => tws.dispose());
  const results: unknown[] = [];
  for await (const r of tws.iterate({ query: '{ user(id: 1) { id } }' })) results.push(r);
  t.deepEqual(results, [{ errors: [{ extensions: { path: '$', code: 'unexpected' }, message: 'invalid JSON from a remote schema' }] }]);
});

test.serial('graphql-transport-ws: a remote query is one next result, connectionParams headers are forwarded', async (t) => {
  const c = createClient({
    url: e.url.replace(/^http/, 'ws') + '/v1/graphql', webSocketImpl: WebSocket, retryAttempts: 0, lazy: true,
    connectionParams: { headers: { ...ADMIN, Authorization: 'Bearer tws' } },
  });
  t.teardown(() => c.dispose());
  remote.received.length = 0;
  const results: unknown[] = [];
  for await (const r of c.iterate({ query: '{ user(id: 2) { username } }' })) results.push(r);
  t.deepEqual(results, [{ data: { user: { username: 'john' } } }]);
  t.is(remote.received[0].headers.authorization, 'Bearer tws');
});
