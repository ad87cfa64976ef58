// Synchronous actions end to end: custom types in the role schemas, the handler call (body, headers, forwarded
// client headers, URL templates), response validation and each failure kind with the original's errors,
// permissions, and output relationships with the caller's select permission.
import test from 'ava';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';
import { actionSetup, SLOW_MS, startActionEngine, startHandler, type Handler } from './handler.js';
import { WsClient } from '../helpers/ws.js';

let e: TestEngine;
let h: Handler;

const action = (name: string, route: string, extra: Record<string, unknown> = {}) => ({
  type: 'create_action',
  args: {
    name,
    definition: {
      kind: 'synchronous', arguments: [{ name: 'arg', type: 'In' }], output_type: 'Out', handler: `{{H12_HANDLER}}${route}`, ...extra,
    },
  },
});

test.before(async () => {
  h = await startHandler();
  process.env.H12_HANDLER = h.url;
  process.env.H12_SECRET = 's3cret';
  e = await startActionEngine(actionSetup({
    sql: 'CREATE TABLE item (id int PRIMARY KEY, owner int NOT NULL, label text NOT NULL); INSERT INTO item VALUES (1, 1, \'a\'), (2, 2, \'b\'), (3, 1, \'c\');',
    table: 'item',
    columns: ['id', 'label'],
    owner: 'owner',
    customTypes: {
      scalars: [{ name: 'Blob' }],
      enums: [{ name: 'Color', values: [{ value: 'RED' }, { value: 'BLUE' }] }],
      input_objects: [{ name: 'In', fields: [{ name: 'id', type: 'Int' }, { name: 'name', type: 'String' }, { name: 'blob', type: 'Blob' }, { name: 'color', type: 'Color' }] }],
      objects: [{
        name: 'Out',
        fields: [{ name: 'id', type: 'Int!' }, { name: 'name', type: 'String' }, { name: 'blob', type: 'Blob' }, { name: 'color', type: 'Color' }],
        relationships: [{ name: 'item', type: 'object', remote_table: 'item', field_mapping: { id: 'id' } }],
      }],
    },
    actions: [
      action('mirror', '/mirror'),
      action('fail4xx', '/fail4xx'),
      action('fail4xx_nocode', '/fail4xx-nocode'),
      action('fail500', '/fail500'),
      action('badjson', '/badjson'),
      action('slow', '/slow', { timeout: 1 }),
      action('extra', '/extra'),
      action('missing', '/missing'),
      action('nullid', '/nullid'),
      action('array', '/array'),
      action('scalar', '/scalar'),
      action('refused', '/x', { handler: 'http://127.0.0.1:1/x' }),
      action('hdrs', '/mirror', {
        forward_client_headers: true,
        headers: [{ name: 'X-Static', value: 'v1' }, { name: 'X-From-Env', value_from_env: 'H12_SECRET' }, { name: 'X-Client', value: 'configured' }],
      }),
      action('unset_env', '/mirror', { headers: [{ name: 'X-Nope', value_from_env: 'H12_NOT_SET' }] }),
      {
        type: 'create_action',
        args: { name: 'get_items', definition: { type: 'query', arguments: [{ name: 'ids', type: '[Int!]!' }], output_type: '[Out]', handler: '{{H12_HANDLER}}/items' } },
      },
      { type: 'create_action_permission', args: { action: 'mirror', role: 'user' } },
      { type: 'create_action_permission', args: { action: 'get_items', role: 'user' } },
    ],
  }));
});
test.after.always(async () => {
  await e?.close();
  await h?.close();
});

const userHeaders = { 'X-Engine-Role': 'user', 'X-Engine-User-Id': '1' };
const err = (message: string, code: string, extra: Record<string, unknown> = {}) => ({ errors: [{ extensions: { path: '$', code, ...extra }, message }] });

test('a mutation action calls its handler with the original body and answers with the selection', async (t) => {
  const r = await e.graphql({
    query: 'mutation ($n: String) { mirror(arg: {id: 7, name: $n}) { __typename id name } }',
    variables: { n: 'Alice' },
  });
  t.deepEqual(r.body, { data: { mirror: { __typename: 'Out', id: 7, name: 'Alice' } } });
  t.is(r.headers.get('set-cookie'), 'session=abc');
  const call = h.calls.find((c) => c.body.action.name === 'mirror')!;
  t.deepEqual(call.body, { action: { name: 'mirror' }, input: { arg: { id: 7, name: 'Alice' } }, session_variables: { 'x-engine-role': 'admin' } });
  t.is(call.headers['content-type'], 'application/json');
  t.regex(String(call.headers['user-agent']), /^engine-graphql-engine\//);
});

test('custom scalars take any JSON, enums their values, in arguments and in the output', async (t) => {
  const r = await e.graphql({
    query: 'mutation ($b: Blob) { mirror(arg: {id: 3, blob: $b, color: BLUE}) { id blob color } }',
    variables: { b: { deep: [1, 'two', null] } },
  });
  t.deepEqual(r.body, { data: { mirror: { id: 3, blob: { deep: [1, 'two', null] }, color: 'BLUE' } } });
  const lit = await e.graphql({ query: 'mutation { mirror(arg: {id: 4, blob: 12.5}) { blob } }' });
  t.deepEqual(lit.body, { data: { mirror: { blob: 12.5 } } });
  const bad = await e.graphql({ query: 'mutation { mirror(arg: {id: 4, color: GREEN}) { id } }' });
  t.is((bad.body as any).errors[0].extensions.code, 'validation-failed');
});

test('configured headers (value, value_from_env) and forwarded client headers; the configured one wins', async (t) => {
  const r = await e.graphql({ query: 'mutation { hdrs(arg: {id: 1}) { id } }' }, {
    'X-Client': 'from-client', 'X-Custom': 'c1', 'X-Engine-Role': 'admin', 'User-Agent': 'my-agent/1', Origin: 'http://o',
  });
  t.deepEqual(r.body, { data: { hdrs: { id: 1 } } });
  const hs = h.calls.find((c) => c.body.action.name === 'hdrs')!.headers;
  t.is(hs['x-static'], 'v1');
  t.is(hs['x-from-env'], 's3cret');
  t.is(hs['x-client'], 'configured');
  t.is(hs['x-custom'], 'c1');
  t.is(hs['x-forwarded-user-agent'], 'my-agent/1');
  t.is(hs['x-forwarded-host'], new URL(e.url).host);
  t.is(hs['x-engine-role'], undefined);
  t.is(hs.origin, undefined);
  t.is(hs['user-agent']?.startsWith('engine-graphql-engine/'), true);
});

test('a header from an unset environment variable is the original not-found error', async (t) => {
  const r = await e.graphql({ query: 'mutation { unset_env(arg: {id: 1}) { id } }' });
  t.deepEqual(r.body, err("environment variable 'H12_NOT_SET' not set", 'not-found'));
});

test('a 4xx {message, code} is that GraphQL error; /v1alpha1 answers with the 4xx status', async (t) => {
  const r = await e.graphql({ query: 'mutation { fail4xx(arg: {id: 1}) { id } }' });
  t.is(r.status, 200);
  t.deepEqual(r.body, err('no such thing', 'my-code'));
  const legacy = await e.post('/v1alpha1/graphql', { query: 'mutation { fail4xx(arg: {id: 1}) { id } }' });
  t.is(legacy.status, 422);
  t.deepEqual(legacy.body, err('no such thing', 'my-code'));
  const nocode = await e.graphql({ query: 'mutation { fail4xx_nocode(arg: {id: 1}) { id } }' });
  t.deepEqual(nocode.body, err('conflict here', 'unexpected'));
});

test('other statuses, bad JSON, timeouts and network errors are the original unexpected errors', async (t) => {
  const r500 = await e.graphql({ query: 'mutation { fail500(arg: {id: 1}) { id } }' });
  const e500 = (r500.body as any).errors[0];
  t.is(e500.message, 'internal error');
  t.is(e500.extensions.code, 'unexpected');
  t.is(e500.extensions.internal.error, 'expecting 2xx or 4xx status code, but found 500');
  t.is(e500.extensions.internal.response.status, 500);
  t.deepEqual(e500.extensions.internal.response.body, { message: 'boom' });

  const bad = (await e.graphql({ query: 'mutation { badjson(arg: {id: 1}) { id } }' })).body as any;
  t.is(bad.errors[0].message, 'not a valid json response from webhook');
  t.is(bad.errors[0].extensions.internal.response.body, 'this is not json');

  const started = Date.now();
  const slow = (await e.graphql({ query: 'mutation { slow(arg: {id: 1}) { id } }' })).body as any;
  const ms = Date.now() - started;
  t.is(slow.errors[0].message, 'http exception when calling webhook');
  t.deepEqual(slow.errors[0].extensions.internal.error, { type: 'http_exception', message: 'ResponseTimeout' });
  // Cut off by the 1 s timeout, not waiting for the handler's answer (SLOW_MS): a bound that holds under any load.
  t.true(ms >= 900 && ms < SLOW_MS, `timed out after ${ms} ms (timeout 1 s, handler answers after ${SLOW_MS} ms)`);

  const refused = (await e.graphql({ query: 'mutation { refused(arg: {id: 1}) { id } }' })).body as any;
  t.is(refused.errors[0].message, 'http exception when calling webhook');
  t.is(refused.errors[0].extensions.internal.request.url, 'http://127.0.0.1:1/x');
});

test('responses that do not fit the output type', async (t) => {
  const msg = async (name: string) => {
    const b = (await e.graphql({ query: `mutation { ${name}(arg: {id: 1}) { id } }` })).body as any;
    return [b.errors[0].extensions.code, b.errors[0].message, b.errors[0].extensions.internal.error];
  };
  t.deepEqual(await msg('extra'), ['unexpected', 'unexpected fields in webhook response: nope, nada', 'unexpected response']);
  t.deepEqual(await msg('missing'), ['unexpected', 'field "id" expected in webhook response, but not found', 'unexpected response']);
  t.deepEqual(await msg('nullid'), ['unexpected', 'expecting not null value for field "id"', 'unexpected response']);
  t.deepEqual(await msg('array'), ['unexpected', 'expecting object for action webhook response but got array', 'unexpected response']);
  t.deepEqual(await msg('scalar'), ['parse-failed', 'expecting object or array of objects for action webhook response', 'unexpected response']);
});

test('a role sees only the actions it has a permission for; admin sees all', async (t) => {
  const fields = async (headers: Record<string, string>) => {
    const r = await e.graphql({ query: '{ __schema { mutationType { fields { name } } queryType { fields { name } } } }' }, headers);
    const s = (r.body as any).data.__schema;
    return { m: (s.mutationType?.fields ?? []).map((f: any) => f.name), q: s.queryType.fields.map((f: any) => f.name) };
  };
  const user = await fields(userHeaders);
  t.deepEqual(user.m, ['mirror']);
  t.true(user.q.includes('get_items'));
  const guest = await fields({ 'X-Engine-Role': 'guest' });
  t.deepEqual(guest.m, []);
  t.false(guest.q.includes('get_items'));
  const admin = await fields({});
  t.true(admin.m.includes('fail500') && admin.m.includes('mirror'));
  const denied = await e.graphql({ query: 'mutation { fail500(arg: {id: 1}) { id } }' }, userHeaders);
  t.deepEqual(denied.body, {
    errors: [{ extensions: { path: '$.selectionSet.fail500', code: 'validation-failed' }, message: 'field "fail500" not found in type: \'mutation_root\'' }],
  });
  const none = await e.graphql({ query: 'mutation { fail500(arg: {id: 1}) { id } }' }, { 'X-Engine-Role': 'guest' });
  t.deepEqual(none.body, { errors: [{ extensions: { path: '$', code: 'validation-failed' }, message: 'no mutations exist' }] });
  const missing = await e.graphql({ query: '{ get_items(ids: [1]) { id } }' }, { 'X-Engine-Role': 'guest' });
  t.is((missing.body as any).errors[0].extensions.code, 'validation-failed');
});

test('output relationships join the handler objects with the table under the caller\'s select permission', async (t) => {
  const q = '{ get_items(ids: [3, 1, 2, 9]) { id name item { id label } } }';
  const admin = await e.graphql({ query: q });
  t.deepEqual(admin.body, {
    data: {
      get_items: [
        { id: 3, name: 'n3', item: { id: 3, label: 'c' } },
        { id: 1, name: 'n1', item: { id: 1, label: 'a' } },
        { id: 2, name: 'n2', item: { id: 2, label: 'b' } },
        { id: 9, name: 'n9', item: null },
      ],
    },
  });
  // user 1 may select only the items it owns (1 and 3)
  const user = await e.graphql({ query: q }, userHeaders);
  t.deepEqual(user.body, {
    data: {
      get_items: [
        { id: 3, name: 'n3', item: { id: 3, label: 'c' } },
        { id: 1, name: 'n1', item: { id: 1, label: 'a' } },
        { id: 2, name: 'n2', item: null },
        { id: 9, name: 'n9', item: null },
      ],
    },
  });
  // a role without select permission on the table has no relationship field at all
  await e.query({ type: 'create_action_permission', args: { action: 'get_items', role: 'nosel' } });
  const nosel = await e.graphql({ query: q }, { 'X-Engine-Role': 'nosel' });
  t.is((nosel.body as any).errors[0].message, 'field "item" not found in type: \'Out\'');
  await e.query({ type: 'drop_action_permission', args: { action: 'get_items', role: 'nosel' } });
});

test('output bytes as the original\'s SQL writes them: row objects without spaces, lists as json_agg\'s, with or without relationships', async (t) => {
  t.is((await e.graphql({ query: '{ get_items(ids: [3, 1]) { id name } }' })).text, '{"data":{"get_items":[{"id":3,"name":"n3"}, {"id":1,"name":"n1"}]}}');
  t.is((await e.graphql({ query: '{ get_items(ids: [3, 9]) { id item { label } } }' })).text, '{"data":{"get_items":[{"id":3,"item":{"label":"c"}}, {"id":9,"item":null}]}}');
});

test.serial('a handler URL template needs its environment variable: refused on create, inconsistent after reload', async (t) => {
  const create = () => e.query({ type: 'create_action', args: { name: 'templ', definition: { output_type: 'Out', handler: '{{H12_LATER}}/mirror' } } });
  const refused = await create();
  // as the original: the action is stored, the rebuild finds it inconsistent, the request fails and rolls back
  t.is(refused.status, 400);
  t.like(refused.body as any, { path: '$.args', code: 'constraint-violation', error: 'in action "templ"; Value for environment variables not found: H12_LATER' });
  process.env.H12_LATER = h.url;
  t.is((await create()).status, 200);
  delete process.env.H12_LATER;
  t.is((await e.query({ type: 'reload_metadata', args: {} })).status, 200);
  const inc = (await e.query({ type: 'get_inconsistent_metadata', args: {} })).body as any;
  t.false(inc.is_consistent);
  t.deepEqual(inc.inconsistent_objects.map((o: any) => [o.type, o.definition.name, o.reason]), [
    ['action', 'templ', 'in action "templ"; Value for environment variables not found: H12_LATER'],
  ]);
  // an engine starting on that metadata serves, and reports the action the same way
  const fresh = await startTestEngine({ database: e.db });
  try {
    t.is((await fresh.graphql({ query: '{ __typename }' })).status, 200);
    const atStart = (await fresh.query({ type: 'get_inconsistent_metadata', args: {} })).body as any;
    t.deepEqual(atStart.inconsistent_objects.map((o: any) => [o.type, o.definition.name, o.reason]), [
      ['action', 'templ', 'in action "templ"; Value for environment variables not found: H12_LATER'],
    ]);
  } finally {
    await fresh.close();
  }
  t.is((await e.query({ type: 'drop_action', args: { name: 'templ' } })).status, 200);
});

test('over a websocket: an action answers data then complete; its error is {errors} without data, as the original', async (t) => {
  const c = await WsClient.connect(e.url, {}, '/v1/graphql', 'graphql-ws');
  c.send({ id: 'ok', type: 'start', payload: { query: 'mutation { mirror(arg: {id: 5, name: "ws"}) { id name } }' } });
  t.deepEqual(await c.nextFor('ok'), { id: 'ok', type: 'data', payload: { data: { mirror: { id: 5, name: 'ws' } } } });
  t.deepEqual(await c.nextFor('ok'), { id: 'ok', type: 'complete' });
  c.send({ id: 'bad', type: 'start', payload: { query: 'mutation { fail4xx(arg: {id: 1}) { id } }' } });
  t.deepEqual(await c.nextFor('bad'), { id: 'bad', type: 'data', payload: err('no such thing', 'my-code') });
  t.deepEqual(await c.nextFor('bad'), { id: 'bad', type: 'complete' });
  c.close();
});
