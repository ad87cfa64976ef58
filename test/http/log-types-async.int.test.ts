// The JSON lines a real server process prints for what happens outside HTTP requests: websocket-log (connections and
// operations, both protocols), event-trigger (each delivery attempt) and action-handler-log (each handler call),
// with the original's field names; each written only when its type is enabled, and no line carries a secret.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { request, spawnEngine, type ChildEngine } from '../helpers/engine.js';
import { WsClient } from '../helpers/ws.js';

const ADMIN_SECRET = 'adm-S3CRET-async';
const HOOK_KEY = 'hook-S3CRET-key';
const ACTION_KEY = 'action-S3CRET-key';
const ADMIN = { 'x-engine-admin-secret': ADMIN_SECRET };
const ENV = {
  ENGINE_GRAPHQL_ADMIN_SECRET: ADMIN_SECRET,
  ENGINE_GRAPHQL_EVENTS_FETCH_INTERVAL: '100',
  H14_HOOK_KEY: HOOK_KEY,
  H14_ACTION_KEY: ACTION_KEY,
};

type Line = { timestamp: string; level: string; type: string; detail: Record<string, any> };

let db: TestDatabase;
let child: ChildEngine;
let quiet: ChildEngine;
let server: http.Server;
let target = '';

test.before(async () => {
  // One loopback server for the webhooks and the action handler.
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const status = req.url === '/fail' ? 500 : 200;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(req.url === '/hello' ? '{"greeting":"hi"}' : status === 200 ? '{"ok":true}' : '{"no":1}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  db = await createTestDatabase('h14_alog');
  child = await spawnEngine(db.url, { ...ENV, ENGINE_GRAPHQL_ENABLED_LOG_TYPES: 'startup,websocket-log,event-trigger,action-handler-log' });
  const sql = 'CREATE TABLE item (id int PRIMARY KEY, n int); INSERT INTO item VALUES (1, 10); CREATE TABLE ev (id int PRIMARY KEY); CREATE TABLE evfail (id int PRIMARY KEY);';
  const hookHeaders = [{ name: 'x-key', value_from_env: 'H14_HOOK_KEY' }];
  const r = await request(`${child.url}/v1/query`, 'POST', {
    type: 'bulk',
    args: [
      { type: 'run_sql', args: { sql } },
      { type: 'track_table', args: 'item' },
      { type: 'track_table', args: 'ev' },
      { type: 'track_table', args: 'evfail' },
      { type: 'create_event_trigger', args: { name: 'ev_ok', table: 'ev', webhook: `${target}/ok`, insert: { columns: '*' }, headers: hookHeaders } },
      {
        type: 'create_event_trigger',
        args: { name: 'ev_fail', table: 'evfail', webhook: `${target}/fail`, insert: { columns: '*' }, headers: hookHeaders, retry_conf: { num_retries: 0, interval_sec: 1, timeout_sec: 5 } },
      },
      { type: 'set_custom_types', args: { objects: [{ name: 'Hello', fields: [{ name: 'greeting', type: 'String!' }] }] } },
      {
        type: 'create_action',
        args: {
          name: 'hello',
          definition: { kind: 'synchronous', arguments: [{ name: 'name', type: 'String!' }], output_type: 'Hello', handler: `${target}/hello`, headers: [{ name: 'x-key', value_from_env: 'H14_ACTION_KEY' }] },
        },
      },
      { type: 'create_action', args: { name: 'gone', definition: { kind: 'synchronous', arguments: [], output_type: 'Hello', handler: 'http://127.0.0.1:9/nothing' } } },
    ],
  }, ADMIN);
  if (r.status !== 200) throw new Error(r.text);
});

test.after.always(async () => {
  await child?.stop();
  await quiet?.stop();
  await db?.drop();
  await new Promise((r) => server?.close(r));
});

const linesOf = (e: ChildEngine): Line[] => e.output.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Line);

/** The lines of `type` matching `pred`, once there are `n` of them (stdout is flushed every few ms). */
async function waitLines(e: ChildEngine, type: string, pred: (l: Line) => boolean, n = 1): Promise<Line[]> {
  // A generous deadline: stdout from a child on a loaded machine can lag by seconds.
  for (const end = Date.now() + 30_000; Date.now() < end; ) {
    const got = linesOf(e).filter((l) => l.type === type && pred(l));
    if (got.length >= n) return got;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`fewer than ${n} ${type} lines; have:\n${linesOf(e).filter((l) => l.type === type).map((l) => JSON.stringify(l)).join('\n')}`);
}

const ofSocket = (id: string) => (l: Line) => l.detail.connection_info?.websocket_id === id;
const socketIds = (e: ChildEngine): Set<string> => new Set(linesOf(e).filter((l) => l.type === 'websocket-log').map((l) => l.detail.connection_info.websocket_id));

/** The `accepted` line of a socket opened after `before` was taken. */
async function acceptedAfter(before: Set<string>): Promise<Line> {
  const [l] = await waitLines(child, 'websocket-log', (x) => x.detail.event.type === 'accepted' && !before.has(x.detail.connection_info.websocket_id));
  return l;
}

test.serial('websocket-log, Apollo protocol: accepted, operations (completed, started, stopped, query_err), closed', async (t) => {
  const before = socketIds(child);
  const c = await WsClient.open(child.url, '/v1/graphql', 'graphql-ws');
  const accepted = await acceptedAfter(before);
  const wsId: string = accepted.detail.connection_info.websocket_id;
  t.regex(wsId, /^[0-9a-f-]{36}$/);
  t.deepEqual(accepted.detail, { user_vars: null, connection_info: { websocket_id: wsId, token_expiry: null, msg: null }, event: { type: 'accepted' } });
  t.is(accepted.level, 'info');

  await c.init({ ...ADMIN, 'x-engine-user-id': '7' });
  c.send({ type: 'start', id: 'q1', payload: { query: 'query One { item_by_pk(id: 1) { n } }', operationName: 'One' } });
  t.deepEqual((await c.nextFor('q1')).payload, { data: { item_by_pk: { n: 10 } } });
  c.send({ type: 'start', id: 's1', payload: { query: 'subscription Live { item { id } }' } });
  t.deepEqual((await c.nextFor('s1')).payload, { data: { item: [{ id: 1 }] } });
  c.send({ type: 'stop', id: 's1' });
  const badQuery = { query: '{ item { nope } }' };
  c.send({ type: 'start', id: 'bad', payload: badQuery });
  t.is((await c.nextFor('bad')).type, 'error');
  const ops = await waitLines(child, 'websocket-log', (l) => ofSocket(wsId)(l) && l.detail.event.type === 'operation', 4);
  const userVars = { 'x-engine-role': 'admin', 'x-engine-user-id': '7' };
  const byOp = (id: string) => ops.filter((l) => l.detail.event.detail.operation_id === id).map((l): Record<string, any> => ({ level: l.level, ...l.detail }));
  const opLine = (id: string, requestId: unknown, name: string | null, type: unknown, query: unknown = null) => ({
    user_vars: userVars,
    connection_info: { websocket_id: wsId, token_expiry: null, msg: null },
    event: { type: 'operation', detail: { operation_id: id, request_id: requestId, operation_name: name, operation_type: type, query } },
  });
  const [q1] = byOp('q1');
  t.regex(q1.event.detail.request_id, /^[0-9a-f-]{36}$/);
  t.deepEqual(byOp('q1'), [{ level: 'info', ...opLine('q1', q1.event.detail.request_id, 'One', { type: 'completed' }) }]);
  const [s1] = byOp('s1');
  t.deepEqual(byOp('s1'), [
    { level: 'info', ...opLine('s1', s1.event.detail.request_id, null, { type: 'started' }) },
    { level: 'info', ...opLine('s1', null, null, { type: 'stopped' }) },
  ]);
  const [bad] = byOp('bad');
  t.deepEqual(byOp('bad'), [{
    level: 'error',
    ...opLine('bad', bad.event.detail.request_id, null, {
      type: 'query_err', detail: { path: '$.selectionSet.item.selectionSet.nope', error: 'field "nope" not found in type: \'item\'', code: 'validation-failed' },
    }, { ...badQuery, operationName: null, variables: null }),
  }]);

  c.close();
  await c.closed;
  const [closed] = await waitLines(child, 'websocket-log', (l) => ofSocket(wsId)(l) && l.detail.event.type === 'closed');
  t.deepEqual(closed.detail, { user_vars: userVars, connection_info: { websocket_id: wsId, token_expiry: null, msg: null }, event: { type: 'closed' } });
});

test.serial('websocket-log: a failed connection_init is conn_err, a start after it proto_err, both at level error', async (t) => {
  const before = socketIds(child);
  const c = await WsClient.open(child.url, '/v1/graphql', 'graphql-ws');
  const wsId = (await acceptedAfter(before)).detail.connection_info.websocket_id;
  c.send({ type: 'connection_init', payload: { headers: { 'x-engine-admin-secret': 'wrong-one' } } });
  t.is((await c.next((m) => m.type === 'connection_error')).payload, 'invalid x-engine-admin-secret/x-engine-access-key');
  c.send({ type: 'start', id: 'x', payload: { query: '{ item { id } }' } });
  t.is((await c.nextFor('x')).type, 'error');
  const [connErr] = await waitLines(child, 'websocket-log', (l) => ofSocket(wsId)(l) && l.detail.event.type === 'conn_err');
  t.like(connErr, { level: 'error', detail: { user_vars: null, event: { type: 'conn_err', detail: 'invalid x-engine-admin-secret/x-engine-access-key' } } });
  const [proto] = await waitLines(child, 'websocket-log', (l) => ofSocket(wsId)(l) && l.detail.event.type === 'operation');
  t.deepEqual({ level: proto.level, event: proto.detail.event }, {
    level: 'error',
    event: {
      type: 'operation',
      detail: {
        operation_id: 'x', request_id: null, operation_name: null, query: null,
        operation_type: { type: 'proto_err', detail: 'cannot start as connection_init failed with : invalid x-engine-admin-secret/x-engine-access-key' },
      },
    },
  });
  c.close();
  await c.closed;
});

test.serial('websocket-log, graphql-transport-ws: a query completed, a subscription started then stopped by the client', async (t) => {
  const before = socketIds(child);
  const client = createClient({ url: child.url.replace(/^http/, 'ws') + '/v1/graphql', webSocketImpl: WebSocket, connectionParams: { headers: ADMIN }, retryAttempts: 0, lazy: false });
  const results: unknown[] = [];
  for await (const r of client.iterate({ query: 'query Q { item { n } }', operationName: 'Q' })) results.push(r);
  t.deepEqual(results, [{ data: { item: [{ n: 10 }] } }]);
  const live = client.iterate({ query: 'subscription S { item { id } }', operationName: 'S' });
  t.deepEqual((await live.next()).value, { data: { item: [{ id: 1 }] } });
  await live.return?.(undefined);
  const ops = await waitLines(child, 'websocket-log', (l) => !before.has(l.detail.connection_info.websocket_id) && l.detail.event.type === 'operation', 3);
  t.deepEqual(ops.map((l) => [l.detail.event.detail.operation_name, l.detail.event.detail.operation_type.type]), [['Q', 'completed'], ['S', 'started'], ['S', 'stopped']]);
  t.true(ops.every((l) => l.detail.user_vars['x-engine-role'] === 'admin'));
  await client.dispose();
  const wsId = ops[0].detail.connection_info.websocket_id;
  await waitLines(child, 'websocket-log', (l) => ofSocket(wsId)(l) && l.detail.event.type === 'closed');
  const events = linesOf(child).filter((l) => l.type === 'websocket-log' && ofSocket(wsId)(l)).map((l) => l.detail.event.type);
  t.deepEqual(events, ['accepted', 'operation', 'operation', 'operation', 'closed']);
});

test.serial('websocket-log: a refused handshake is rejected', async (t) => {
  const err = await WsClient.open(child.url, '/v1/nothing', 'graphql-ws').then(() => null, (e: { status: number }) => e.status);
  t.is(err, 404);
  const [rejected] = await waitLines(child, 'websocket-log', (l) => l.detail.event.type === 'rejected');
  t.like(rejected, { level: 'error', detail: { user_vars: null, event: { type: 'rejected', detail: { path: '$', error: 'resource does not exist', code: 'not-found' } } } });
});

test.serial('event-trigger: one line per delivery attempt, delivered or failed', async (t) => {
  const r = await request(`${child.url}/v1/query`, 'POST', { type: 'run_sql', args: { sql: 'INSERT INTO ev VALUES (1); INSERT INTO evfail VALUES (1);' } }, ADMIN);
  t.is(r.status, 200);
  const [ok] = await waitLines(child, 'event-trigger', (l) => l.detail.event_name === 'ev_ok');
  t.is(ok.level, 'info');
  t.regex(ok.detail.event_id, /^[0-9a-f-]{36}$/);
  t.true(ok.detail.execution_time > 0 && ok.detail.execution_time < 5, String(ok.detail.execution_time));
  t.deepEqual({ ...ok.detail, event_id: 'x', execution_time: 0 }, {
    event_id: 'x', event_name: 'ev_ok', table: { schema: 'public', name: 'ev' }, tries: 1,
    response: { status: 200, size: Buffer.byteLength('{"ok":true}') }, delivery: 'delivered', execution_time: 0,
  });
  const [failed] = await waitLines(child, 'event-trigger', (l) => l.detail.event_name === 'ev_fail');
  t.deepEqual({ ...failed.detail, event_id: 'x', execution_time: 0 }, {
    event_id: 'x', event_name: 'ev_fail', table: { schema: 'public', name: 'evfail' }, tries: 1,
    response: { type: 'status', detail: { status: 500, size: Buffer.byteLength('{"no":1}') } }, delivery: 'error', execution_time: 0,
  });
});

test.serial('action-handler-log: one line per handler call, answered or not', async (t) => {
  const r = await request(`${child.url}/v1/graphql`, 'POST', { query: 'mutation { hello(name: "x") { greeting } }' }, ADMIN);
  t.deepEqual(r.body, { data: { hello: { greeting: 'hi' } } });
  const [ok] = await waitLines(child, 'action-handler-log', (l) => l.detail.action_name === 'hello');
  t.is(ok.level, 'info');
  const sent = JSON.stringify({ action: { name: 'hello' }, input: { name: 'x' }, session_variables: { 'x-engine-role': 'admin' } });
  t.true(ok.detail.execution_time > 0 && ok.detail.execution_time < 5, String(ok.detail.execution_time));
  t.deepEqual({ ...ok.detail, execution_time: 0 }, {
    action_name: 'hello', request_size: Buffer.byteLength(sent), response_size: Buffer.byteLength('{"greeting":"hi"}'), status: 200, execution_time: 0,
  });
  const down = await request(`${child.url}/v1/graphql`, 'POST', { query: 'mutation { gone { greeting } }' }, ADMIN);
  t.is((down.body as any).errors[0].message, 'http exception when calling webhook');
  const [gone] = await waitLines(child, 'action-handler-log', (l) => l.detail.action_name === 'gone');
  t.like(gone.detail, { action_name: 'gone', response_size: 0, error: 'ConnectionFailure ECONNREFUSED' });
  t.false('status' in gone.detail);
});

test.serial('no line carries a secret; a server with only http-log writes none of these types', async (t) => {
  await child.stop();
  const all = child.output.join('\n');
  for (const secret of [ADMIN_SECRET, HOOK_KEY, ACTION_KEY, 'wrong-one']) t.false(all.includes(secret), `found ${secret}`);
  // The same things on a server of the same configuration with only http-log (alone now: it delivers the event).
  quiet = await spawnEngine(db.url, { ...ENV, ENGINE_GRAPHQL_ENABLED_LOG_TYPES: 'startup,http-log' });
  const c = await WsClient.connect(quiet.url, ADMIN, '/v1/graphql', 'graphql-ws');
  c.send({ type: 'start', id: 'q', payload: { query: '{ item { id } }' } });
  await c.nextFor('q');
  c.close();
  await c.closed;
  await request(`${quiet.url}/v1/graphql`, 'POST', { query: 'mutation { hello(name: "y") { greeting } }' }, ADMIN);
  await request(`${quiet.url}/v1/query`, 'POST', { type: 'run_sql', args: { sql: 'INSERT INTO ev VALUES (2)' } }, ADMIN);
  await waitLines(quiet, 'http-log', (l) => l.detail.http_info?.url === '/v1/query');
  const delivered = async () => (await request(`${quiet.url}/v1/query`, 'POST', {
    type: 'run_sql', args: { sql: "SELECT count(*) FROM engine_catalog.event_log WHERE trigger_name = 'ev_ok' AND delivered" },
  }, ADMIN)).body as { result: string[][] };
  for (const end = Date.now() + 30_000; (await delivered()).result[1][0] !== '2' && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
  t.is((await delivered()).result[1][0], '2');
  await new Promise((r) => setTimeout(r, 100));
  t.deepEqual([...new Set(linesOf(quiet).map((l) => l.type))].filter((x) => ['websocket-log', 'event-trigger', 'action-handler-log'].includes(x)), []);
});
