// Live queries over Apollo's protocol on a real database: the current result at once, a new `data` only when the
// result changed (insert, update, delete), variables, permission filters with session variables (one shared poller),
// batching (N subscribers → ceil(N / batch) statements per refetch), stop, metadata changes under a live
// subscription, dead peers and closed sockets releasing their slots, explain, and an idle engine polling nothing.
import test from 'ava';
import type { TestEngine } from '../helpers/engine.js';
import { startLiveEngine, until, WsClient } from '../helpers/ws.js';

const SECRET = 'live-admin-secret';
const ADMIN = { 'x-engine-admin-secret': SECRET };
const INTERVAL = 150;
const BATCH = 20;
const PING = 200;
let e: TestEngine;

test.before(async () => {
  const rows = Array.from({ length: 60 }, (_, i) => `(${i + 1}, ${i + 1}, 'u${(i % 3) + 1}')`).join(',');
  e = await startLiveEngine(SECRET, [
    { type: 'run_sql', args: { sql: `CREATE TABLE pt (id int PRIMARY KEY, v int NOT NULL, owner text NOT NULL); INSERT INTO pt VALUES ${rows};
      CREATE TABLE msg (id serial PRIMARY KEY, body text NOT NULL, owner text NOT NULL, secret text);` } },
    { type: 'track_table', args: 'pt' },
    { type: 'track_table', args: 'msg' },
    { type: 'create_select_permission', args: { table: 'msg', role: 'user', permission: { columns: ['id', 'body'], filter: { owner: 'X-Engine-User-Id' } } } },
  ], { liveQueries: { batchSize: BATCH, refetchInterval: INTERVAL }, websocket: { pingIntervalMs: PING } });
});
test.after.always(() => e?.close());

const stats = () => e.engine.websockets.live.stats();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const gql = (query: string) => e.graphql({ query }, ADMIN);

/** Counts the pings `c` gets from now on. */
function pingsOf(c: WsClient): { n: number } {
  const seen = { n: 0 };
  c.socket.on('ping', () => seen.n++);
  return seen;
}

const client = (headers: Record<string, string> = ADMIN): Promise<WsClient> => WsClient.connect(e.url, headers);

test.serial('insert, update and delete each give one new result; an unchanged result gives none; stop ends it', async (t) => {
  const c = await client();
  c.send({ id: 'l', type: 'start', payload: { query: 'subscription { msg(order_by: {id: asc}) { body } }' } });
  t.deepEqual((await c.nextFor('l')).payload, { data: { msg: [] } });
  await gql('mutation { insert_msg(objects: [{body: "a", owner: "u1"}, {body: "b", owner: "u2"}]) { affected_rows } }');
  t.deepEqual((await c.nextFor('l')).payload, { data: { msg: [{ body: 'a' }, { body: 'b' }] } });
  await gql('mutation { update_msg(where: {body: {_eq: "b"}}, _set: {body: "B"}) { affected_rows } }');
  t.deepEqual((await c.nextFor('l')).payload, { data: { msg: [{ body: 'a' }, { body: 'B' }] } });
  await gql('mutation { update_msg(where: {body: {_eq: "a"}}, _set: {secret: "x"}) { affected_rows } }');
  t.deepEqual(await c.quiet(INTERVAL * 4, 'l'), [], 'a change outside the selection sends nothing');
  await gql('mutation { delete_msg(where: {body: {_eq: "a"}}) { affected_rows } }');
  t.deepEqual((await c.nextFor('l')).payload, { data: { msg: [{ body: 'B' }] } });
  c.send({ id: 'l', type: 'stop' });
  await gql('mutation { insert_msg(objects: [{body: "c", owner: "u1"}]) { affected_rows } }');
  t.deepEqual(await c.quiet(INTERVAL * 4, 'l'), [], 'no data and no complete after stop');
  t.is(stats().subscribers, 0);
  t.is(stats().pollers, 0, 'an idle engine has no pollers (runs no polling SQL)');
  const before = stats().statements;
  await sleep(INTERVAL * 3);
  t.is(stats().statements, before, 'no statements while idle');
  c.close();
});

test.serial('permission filters use each subscriber\'s session variables; different users share one poller', async (t) => {
  const u1 = await client({ ...ADMIN, 'x-engine-role': 'user', 'x-engine-user-id': 'u1' });
  const u2 = await client({ ...ADMIN, 'x-engine-role': 'user', 'x-engine-user-id': 'u2' });
  const q = { query: 'subscription { msg(order_by: {body: asc}) { body } }' };
  u1.send({ id: '1', type: 'start', payload: q });
  u2.send({ id: '1', type: 'start', payload: q });
  t.deepEqual((await u1.nextFor('1')).payload, { data: { msg: [{ body: 'c' }] } });
  t.deepEqual((await u2.nextFor('1')).payload, { data: { msg: [{ body: 'B' }] } });
  t.like(stats(), { pollers: 1, cohorts: 2, subscribers: 2 });
  await gql('mutation { insert_msg(objects: [{body: "d", owner: "u2"}]) { affected_rows } }');
  t.deepEqual((await u2.nextFor('1')).payload, { data: { msg: [{ body: 'B' }, { body: 'd' }] } });
  t.deepEqual(await u1.quiet(INTERVAL * 3, '1'), [], 'u1 does not see u2\'s row');
  u1.close();
  u2.close();
  t.true(await until(() => stats().subscribers === 0), 'closed sockets release their slots');
});

test.serial('a missing session variable used by the filter is an error before execution', async (t) => {
  const c = await client({ ...ADMIN, 'x-engine-role': 'user' });
  c.send({ id: 'x', type: 'start', payload: { query: 'subscription { msg { body } }' } });
  const m = await c.nextFor('x');
  t.is(m.type, 'error');
  t.deepEqual(m.payload.errors[0].message, '"x-engine-user-id" header is expected but not found');
  t.deepEqual(await c.nextFor('x'), { id: 'x', type: 'complete' });
  c.close();
});

test.serial('variables and literals are parameters: queries differing only in values share one poller, batched', async (t) => {
  const c = await client();
  const n = 50;
  for (let i = 1; i <= n; i++) {
    // Half by variable, half by literal: still one statement shape.
    const payload = i % 2 === 0
      ? { query: 'subscription ($id: Int!) { pt(where: {id: {_eq: $id}}) { id v } }', variables: { id: i } }
      : { query: `subscription { pt(where: {id: {_eq: ${i}}}) { id v } }` };
    c.send({ id: `s${i}`, type: 'start', payload });
  }
  for (let i = 1; i <= n; i++) t.deepEqual((await c.nextFor(`s${i}`)).payload, { data: { pt: [{ id: i, v: i }] } });
  t.like(stats(), { pollers: 1, cohorts: n, subscribers: n });
  // Every refetch round runs ceil(50 / 20) = 3 statements (a round's poll and statements are counted together).
  const s0 = stats();
  t.true(await until(() => stats().polls - s0.polls >= 3), 'three refetch rounds');
  const s1 = stats();
  const rounds = s1.polls - s0.polls;
  t.is(s1.statements - s0.statements, rounds * Math.ceil(n / BATCH));
  await gql('mutation { update_pt(where: {id: {_in: [7, 8]}}, _inc: {v: 100}) { affected_rows } }');
  t.deepEqual((await c.nextFor('s7')).payload, { data: { pt: [{ id: 7, v: 107 }] } });
  t.deepEqual((await c.nextFor('s8')).payload, { data: { pt: [{ id: 8, v: 108 }] } });
  t.deepEqual((await c.quiet(INTERVAL * 3)).map((m) => m.id), [], 'only the changed subscribers got data');
  c.close();
  t.true(await until(() => stats().subscribers === 0));
});

test.serial('subscribers with the same values form one cohort (one row), each still gets the result', async (t) => {
  const a = await client();
  const b = await client();
  const p = { query: 'subscription ($id: Int!) { pt_by_pk(id: $id) { v } }', variables: { id: 3 } };
  a.send({ id: '1', type: 'start', payload: p });
  b.send({ id: '1', type: 'start', payload: p });
  t.deepEqual((await a.nextFor('1')).payload, { data: { pt_by_pk: { v: 3 } } });
  t.deepEqual((await b.nextFor('1')).payload, { data: { pt_by_pk: { v: 3 } } });
  t.like(stats(), { pollers: 1, cohorts: 1, subscribers: 2 });
  a.close();
  b.close();
  t.true(await until(() => stats().subscribers === 0));
});

test.serial('a dead peer (no pong) is dropped and releases its slot; a live one stays', async (t) => {
  const dead = await client();
  const alive = await client();
  const p = { query: 'subscription { pt_aggregate { aggregate { count } } }' };
  dead.send({ id: '1', type: 'start', payload: p });
  alive.send({ id: '1', type: 'start', payload: p });
  t.deepEqual((await dead.nextFor('1')).payload, { data: { pt_aggregate: { aggregate: { count: 60 } } } });
  await alive.nextFor('1');
  t.is(stats().subscribers, 2);
  // Stop reading: the client neither sees pings nor answers them.
  (dead.socket as unknown as { _socket: { pause(): void } })._socket.pause();
  // Pings every 200 ms: released within a few intervals on a quiet machine; the bound allows for a loaded one.
  t.true(await until(() => stats().subscribers === 1), 'released after missed pongs');
  const pings = pingsOf(alive);
  t.true(await until(() => pings.n >= 3), 'the live client was pinged again');
  t.is(stats().subscribers, 1, 'the responsive client keeps its slot');
  alive.close();
  dead.socket.terminate();
});

test.serial('a server held up past a ping interval keeps a peer whose pong is waiting unread', async (t) => {
  const c = await client();
  c.send({ id: '1', type: 'start', payload: { query: 'subscription { pt_aggregate { aggregate { count } } }' } });
  await c.nextFor('1');
  t.is(stats().subscribers, 1);
  // The client answers a ping at once (ws sends the pong before emitting 'ping'); the process is then held up for
  // a few intervals, as a long task or a starved CPU does, so the server's next tick comes before it reads the pong.
  let stalls = 0;
  c.socket.on('ping', () => {
    if (stalls++ < 2) for (const end = Date.now() + PING * 3; Date.now() < end; );
  });
  let dropped = false;
  void c.closed.then(() => (dropped = true));
  const pings = pingsOf(c);
  t.true(await until(() => pings.n >= 5 || dropped), 'pinged through the stalls and after');
  t.false(dropped, 'the socket stays open');
  t.is(stats().subscribers, 1, 'not dropped for a pong it had sent');
  c.close();
  t.true(await until(() => stats().subscribers === 0));
});

test.serial('a metadata change: the subscription continues on the new permissions, or ends with an error', async (t) => {
  await gql('mutation { insert_msg(objects: [{body: "e", owner: "u3"}]) { affected_rows } }');
  const c = await client({ ...ADMIN, 'x-engine-role': 'user', 'x-engine-user-id': 'u3' });
  c.send({ id: 'm', type: 'start', payload: { query: 'subscription { msg { body } }' } });
  t.deepEqual((await c.nextFor('m')).payload, { data: { msg: [{ body: 'e' }] } });
  const r = await e.query({
    type: 'bulk',
    args: [
      { type: 'drop_select_permission', args: { table: 'msg', role: 'user' } },
      { type: 'create_select_permission', args: { table: 'msg', role: 'user', permission: { columns: ['body'], filter: { body: { _in: ['c', 'e'] } } } } },
    ],
  }, ADMIN);
  t.is(r.status, 200, r.text);
  t.deepEqual((await c.nextFor('m')).payload, { data: { msg: [{ body: 'c' }, { body: 'e' }] } }, 'continues under the new filter');
  const d = await e.query({ type: 'drop_select_permission', args: { table: 'msg', role: 'user' } }, ADMIN);
  t.is(d.status, 200, d.text);
  const err = await c.nextFor('m');
  t.is(err.type, 'error');
  t.is(err.payload.errors[0].extensions.code, 'validation-failed');
  t.deepEqual(await c.nextFor('m'), { id: 'm', type: 'complete' });
  t.true(await until(() => stats().subscribers === 0), 'stopped');
  c.close();
});

test.serial('explain of a subscription: one {sql, plan}; literal values do not change the statement', async (t) => {
  const ex = (where: string) => e.post('/v1/graphql/explain', { query: { query: `subscription { pt(where: ${where}) { id } }` } }, ADMIN);
  const [a, b, c] = await Promise.all([ex('{id: {_eq: 1}}'), ex('{id: {_eq: 2}}'), ex('{id: {_gt: 1}}')]);
  t.is(a.status, 200, a.text);
  t.deepEqual(Object.keys(a.body).sort(), ['plan', 'sql']);
  t.is(a.body.sql, b.body.sql);
  t.not(a.body.sql, c.body.sql);
  t.true(a.body.plan.length > 0 && a.body.plan.every((l: unknown) => typeof l === 'string'));
});
