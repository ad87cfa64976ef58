// Requests whose root fields are all one remote's: forwarded as sent, with the original's headers, timeout,
// errors and Set-Cookie. Real engine, real Postgres, real graphql-js servers on loopback.
import test from 'ava';
import { startTestEngine, request, type TestEngine } from '../helpers/engine.js';
import { startRemote, type RemoteServer } from './server.js';

const SDL = `type Query { hello(arg: String = "world"): String, fail: String }
  type Mutation { setHello(v: String!): String }`;
const root = {
  hello: ({ arg }: { arg: string }) => `Hello ${arg}`,
  fail: () => { throw new Error('remote resolver failed'); },
  setHello: ({ v }: { v: string }) => `set ${v}`,
};

let e: TestEngine;
let remote: RemoteServer;
test.before(async () => {
  process.env.ENGINE_TEST_FWD_TOKEN = 'from-env';
  remote = await startRemote(SDL, root);
  e = await startTestEngine({ adminSecret: 'sekret' });
  const r = await e.query({
    type: 'add_remote_schema',
    args: {
      name: 'r',
      definition: {
        url: remote.url,
        forward_client_headers: true,
        headers: [{ name: 'X-Conf', value: 'conf' }, { name: 'X-Env', value_from_env: 'ENGINE_TEST_FWD_TOKEN' }, { name: 'X-Engine-Shadow', value: 'configured' }],
      },
    },
  }, { 'x-engine-admin-secret': 'sekret' });
  if (r.status !== 200) throw new Error(r.text);
});
test.after.always(async () => {
  await e?.close();
  await remote?.close();
});

const admin = { 'x-engine-admin-secret': 'sekret' };

test.serial('the body goes as sent and the answer comes back as received', async (t) => {
  const body = { query: 'query Q($a: String) { hello(arg: $a) } query Other { hello }', variables: { a: 'me' }, operationName: 'Q' };
  remote.received.length = 0;
  const r = await e.graphql(body, admin);
  t.is(r.status, 200);
  t.is(r.text, '{"data":{"hello":"Hello me"}}');
  t.deepEqual(remote.received.map((x) => x.body), [body]);
  const m = await e.graphql({ query: 'mutation { setHello(v: "x") }' }, admin);
  t.deepEqual(m.body, { data: { setHello: 'set x' } });
  // a remote GraphQL error is the remote's answer, untouched
  const f = await e.graphql({ query: '{ fail }' }, admin);
  t.deepEqual(f.body, { errors: [{ message: 'remote resolver failed', locations: [{ line: 1, column: 3 }], path: ['fail'] }], data: { fail: null } });
});

test.serial('headers: configured (value, value_from_env) > session variables > client headers; client x-engine-* dropped; X-Forwarded-*', async (t) => {
  remote.received.length = 0;
  const r = await e.graphql({ query: '{ hello }' }, {
    ...admin, 'x-engine-role': 'user', 'x-engine-user-id': '42', 'x-engine-shadow': 'session', Authorization: 'Bearer abc', 'X-Conf': 'client',
    'User-Agent': 'test-agent/1.0',
  });
  t.deepEqual(r.body, { data: { hello: 'Hello world' } });
  const h = remote.received[0].headers;
  t.is(h['x-conf'], 'conf');
  t.is(h['x-env'], 'from-env');
  t.is(h['x-engine-shadow'], 'configured');
  t.is(h['x-engine-role'], 'user');
  t.is(h['x-engine-user-id'], '42');
  t.is(h.authorization, 'Bearer abc');
  t.is(h['x-forwarded-host'], new URL(e.url).host);
  t.is(h['x-forwarded-user-agent'], 'test-agent/1.0');
  t.is(h['content-type'], 'application/json');
  t.is(h['x-engine-admin-secret'], undefined);
  const raw = remote.received[0].rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
  t.is(raw.filter((n) => n === 'content-type').length, 1);
  t.is(raw.filter((n) => n === 'x-conf').length, 1);
});

test.serial('Set-Cookie from the remote reaches the HTTP client; a subscription to a remote field is not-supported', async (t) => {
  remote.options.setCookie = ['a=1', 'b=2'];
  t.teardown(() => { delete remote.options.setCookie; });
  const r = await e.graphql({ query: '{ hello }' }, admin);
  t.deepEqual(r.headers.getSetCookie(), ['a=1', 'b=2']);
  const s = await e.graphql({ query: 'subscription { hello }' }, admin);
  t.deepEqual(s.body, { errors: [{ extensions: { path: '$', code: 'not-supported' }, message: 'subscription to remote server is not supported' }] });
});

test('timeout_seconds: no answer in time is ResponseTimeout; a remote that is down is unexpected (500 on v1alpha1)', async (t) => {
  const slow = await startRemote('type Query { slow: String }', { slow: () => 'late' });
  const other = await startRemote('type Query { gone: String }', { gone: () => 'here' });
  t.teardown(() => Promise.all([slow.close(), other.close()]));
  t.is((await e.query({ type: 'add_remote_schema', args: { name: 'slow', definition: { url: slow.url, timeout_seconds: 1 } } }, admin)).status, 200);
  t.is((await e.query({ type: 'add_remote_schema', args: { name: 'gone', definition: { url: other.url } } }, admin)).status, 200);
  // Introspection answered in time, the query only long after the 1 s timeout (so the bound below holds under load).
  slow.options.delayMs = 10_000;
  const started = Date.now();
  const r = await e.graphql({ query: '{ slow }' }, admin);
  const ms = Date.now() - started;
  t.is(r.status, 200);
  t.deepEqual(r.body, { errors: [{ extensions: { path: '$', code: 'unexpected' }, message: 'ResponseTimeout' }] });
  t.true(ms >= 1000 && ms < 10_000, `${ms} ms`);
  await other.close();
  const down = await e.graphql({ query: '{ gone }' }, admin);
  t.is(down.body.errors[0].extensions.code, 'unexpected');
  t.regex(down.body.errors[0].message, /^ConnectionFailure /);
  const legacy = await request(`${e.url}/v1alpha1/graphql`, 'POST', { query: '{ gone }' }, admin);
  t.is(legacy.status, 500);
});
