// Remote relationships at run time: the database part is one statement, then one request per remote carrying one
// aliased field per distinct set of join values; answers spliced into the right rows (under relationships,
// aggregates and mutation outputs too); the client's arguments merged in; remote errors and timeouts as the
// original words them. Real Postgres, a real graphql-js server on loopback.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { queryOk } from '../helpers/engine.js';
import { basicRelationship, nestedArgsRelationship, startFixture } from './relationship-fixture.js';

test('an object join: one remote request, rows joined by position, the original query text', async (t) => {
  const f = await startFixture();
  t.teardown(() => f.close());
  await queryOk(f.engine, { type: 'create_remote_relationship', args: basicRelationship });
  f.remote.received.length = 0;
  const r = await f.engine.graphql({ query: '{ profiles(order_by: {id: asc}) { id messageBasic { id msg } } }' });
  t.deepEqual(r.body, {
    data: {
      profiles: [
        { id: 1, messageBasic: { id: 1, msg: 'You win!' } },
        { id: 2, messageBasic: { id: 2, msg: 'You lose!' } },
        { id: 3, messageBasic: { id: 3, msg: 'Another alice' } },
      ],
    },
  });
  t.is(f.remote.received.length, 1);
  t.is(f.remote.received[0].body.query,
    'query  { messageBasic__0: message(id: 1) { id: id  msg: msg  } messageBasic__1: message(id: 2) { id: id  msg: msg  } messageBasic__2: message(id: 3) { id: id  msg: msg  } }');
});

test('join columns the client did not select are fetched and not returned', async (t) => {
  const f = await startFixture();
  t.teardown(() => f.close());
  await queryOk(f.engine, { type: 'create_remote_relationship', args: basicRelationship });
  const r = await f.engine.graphql({ query: '{ profiles(order_by: {id: asc}, limit: 1) { name messageBasic { msg } } }' });
  t.deepEqual(r.body, { data: { profiles: [{ name: 'alice', messageBasic: { msg: 'You win!' } }] } });
});

test('100 rows with 10 distinct keys: one remote request with 10 fields', async (t) => {
  const f = await startFixture();
  t.teardown(() => f.close());
  await queryOk(f.engine, { type: 'run_sql', args: { sql: 'alter table profiles add column k int; insert into profiles (name) select \'x\' from generate_series(1, 97); update profiles set k = id % 10;' } });
  await queryOk(f.engine, {
    type: 'create_remote_relationship',
    args: { name: 'byK', table: 'profiles', engine_fields: ['k'], remote_schema: 'my-remote', remote_field: { user: { arguments: { user_id: '$k' } } } },
  });
  f.remote.received.length = 0;
  const r = await f.engine.graphql({ query: '{ profiles(order_by: {id: asc}) { id byK { user_id } } }' });
  const rows = (r.body as { data: { profiles: Array<{ id: number; byK: { user_id: number } }> } }).data.profiles;
  t.is(rows.length, 100);
  for (const row of rows) t.is(row.byK.user_id, row.id % 10);
  t.is(f.remote.received.length, 1);
  t.is((f.remote.received[0].body.query.match(/byK__\d+:/g) ?? []).length, 10);
});

test('the client\'s arguments are merged into the template\'s; variables are resolved', async (t) => {
  const f = await startFixture();
  t.teardown(() => f.close());
  await queryOk(f.engine, { type: 'create_remote_relationship', args: nestedArgsRelationship });
  const query = 'query ($n: String) { profiles(order_by: {id: asc}) { id messagesNestedArgs(where: { name: { eq: $n } }) { id msg } } }';
  const r = await f.engine.graphql({ query, variables: { n: 'alice' } });
  t.deepEqual(r.body, {
    data: {
      profiles: [
        { id: 1, messagesNestedArgs: [{ id: 1, msg: 'You win!' }] },
        { id: 2, messagesNestedArgs: [] },
        { id: 3, messagesNestedArgs: [{ id: 3, msg: 'Another alice' }] },
      ],
    },
  });
  const again = await f.engine.graphql({ query, variables: { n: 'bob' } });
  t.deepEqual((again.body as { data: { profiles: Array<{ messagesNestedArgs: unknown[] }> } }).data.profiles.map((p) => p.messagesNestedArgs.length), [0, 1, 0]);
});

test('joins under an array relationship inside an object relationship, in aggregate nodes and in mutation returning', async (t) => {
  const f = await startFixture();
  t.teardown(() => f.close());
  await queryOk(f.engine, {
    type: 'bulk',
    args: [
      { type: 'run_sql', args: { sql: 'create table note (id serial primary key, profile_id int references profiles(id), body text); insert into note (profile_id, body) values (1, \'a\'), (1, \'b\'), (2, \'c\');' } },
      { type: 'track_table', args: { schema: 'public', name: 'note' } },
      { type: 'create_object_relationship', args: { table: 'note', name: 'profile', using: { foreign_key_constraint_on: 'profile_id' } } },
      { type: 'create_array_relationship', args: { table: 'profiles', name: 'notes', using: { foreign_key_constraint_on: { table: 'note', column: 'profile_id' } } } },
      { type: 'create_remote_relationship', args: basicRelationship },
    ],
  });
  f.remote.received.length = 0;
  const r = await f.engine.graphql({
    query: '{ note(where: {id: {_eq: 3}}) { profile { notes { body profile { messageBasic { msg } } } } } profiles_aggregate(where: {id: {_eq: 1}}) { nodes { messageBasic { msg } } } }',
  });
  t.deepEqual(r.body, {
    data: {
      note: [{ profile: { notes: [{ body: 'c', profile: { messageBasic: { msg: 'You lose!' } } }] } }],
      profiles_aggregate: { nodes: [{ messageBasic: { msg: 'You win!' } }] },
    },
  });
  t.is(f.remote.received.length, 1, 'both root fields share one request to the remote');
  const m = await f.engine.graphql({ query: 'mutation { insert_profiles(objects: [{id: 10, name: "z"}]) { returning { id messageBasic { id } } } }' });
  t.deepEqual(m.body, { data: { insert_profiles: { returning: [{ id: 10, messageBasic: null }] } } });
});

test('a remote answering with errors: the original\'s "Errors from remote server" with the errors as internal', async (t) => {
  const f = await startFixture();
  t.teardown(() => f.close());
  await queryOk(f.engine, { type: 'create_remote_relationship', args: basicRelationship });
  const r = await f.engine.graphql({ query: '{ profiles(order_by: {id: asc}) { id messageBasic { msg errorMsg } } }' });
  const body = r.body as { errors: Array<{ message: string; extensions: { code: string; path: string; internal: { errors: Array<{ path: string[]; locations: unknown }> } } }> };
  t.is(body.errors[0].message, 'Errors from remote server');
  t.is(body.errors[0].extensions.code, 'unexpected');
  t.is(body.errors[0].extensions.path, '$');
  t.deepEqual(body.errors[0].extensions.internal.errors.map((e) => [e.path, e.locations]), [
    [['messageBasic__0', 'errorMsg'], [{ line: 1, column: 54 }]],
    [['messageBasic__1', 'errorMsg'], [{ line: 1, column: 120 }]],
    [['messageBasic__2', 'errorMsg'], [{ line: 1, column: 186 }]],
  ]);
});

test('a remote that does not answer in time: the original\'s timeout error', async (t) => {
  const f = await startFixture();
  t.teardown(() => f.close());
  await queryOk(f.engine, { type: 'remove_remote_schema', args: { name: 'my-remote' } });
  await queryOk(f.engine, { type: 'add_remote_schema', args: { name: 'my-remote', definition: { url: f.remote.url, timeout_seconds: 1 } } });
  await queryOk(f.engine, { type: 'create_remote_relationship', args: basicRelationship });
  f.remote.options.delayMs = 2500;
  const r = await f.engine.graphql({ query: '{ profiles { messageBasic { msg } } }' });
  const body = r.body as { errors: Array<{ message: string; extensions: { code: string } }> };
  t.is(body.errors[0].message, 'ResponseTimeout');
  t.is(body.errors[0].extensions.code, 'unexpected');
});

test('a join under an action output\'s relationship to a table', async (t) => {
  const handler = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 2 }));
    });
  });
  await new Promise<void>((r) => handler.listen(0, '127.0.0.1', () => r()));
  t.teardown(() => new Promise<void>((r) => handler.close(() => r())));
  const f = await startFixture();
  t.teardown(() => f.close());
  await queryOk(f.engine, {
    type: 'bulk',
    args: [
      { type: 'create_remote_relationship', args: basicRelationship },
      {
        type: 'set_custom_types',
        args: { objects: [{ name: 'ProfileId', fields: [{ name: 'id', type: 'Int!' }], relationships: [{ name: 'profile', type: 'object', remote_table: 'profiles', field_mapping: { id: 'id' } }] }] },
      },
      {
        type: 'create_action',
        args: { name: 'pick', definition: { kind: 'synchronous', arguments: [], output_type: 'ProfileId', handler: `http://127.0.0.1:${(handler.address() as AddressInfo).port}/` } },
      },
    ],
  });
  const r = await f.engine.graphql({ query: 'mutation { pick { id profile { name messageBasic { msg } } } }' });
  t.deepEqual(r.body, { data: { pick: { id: 2, profile: { name: 'bob', messageBasic: { msg: 'You lose!' } } } } });
});

test('fragments and repeated fields of the relationship reach the remote; session variables go as headers', async (t) => {
  const f = await startFixture();
  t.teardown(() => f.close());
  await queryOk(f.engine, { type: 'create_remote_relationship', args: basicRelationship });
  await queryOk(f.engine, { type: 'create_select_permission', args: { table: 'profiles', role: 'user', permission: { columns: ['id'], filter: {} } } });
  f.remote.received.length = 0;
  const query = 'query { profiles(where: {id: {_eq: 1}}) { messageBasic { id ...M } messageBasic { name } } } fragment M on Message { msg }';
  const r = await f.engine.graphql({ query }, { 'x-engine-role': 'user', 'x-engine-user-id': '5' });
  t.deepEqual(r.body, { data: { profiles: [{ messageBasic: { id: 1, msg: 'You win!', name: 'alice' } }] } });
  t.is(f.remote.received.length, 1);
  t.is(f.remote.received[0].body.query, 'query  { messageBasic__0: message(id: 1) { id: id  ... on Message { msg: msg  }  name: name  } }');
  t.is(f.remote.received[0].headers['x-engine-role'], 'user');
  t.is(f.remote.received[0].headers['x-engine-user-id'], '5');
});

test('a remote answering what is not GraphQL: an error, not a crash', async (t) => {
  const f = await startFixture();
  t.teardown(() => f.close());
  await queryOk(f.engine, { type: 'create_remote_relationship', args: basicRelationship });
  f.remote.options.body = 'not json';
  const r = await f.engine.graphql({ query: '{ profiles { messageBasic { msg } } }' });
  t.like(r.body, { errors: [{ message: 'Invalid response from remote server', extensions: { code: 'unexpected' } }] });
  f.remote.options.body = '{"data": null}';
  const n = await f.engine.graphql({ query: '{ profiles { messageBasic { msg } } }' });
  t.like(n.body, { errors: [{ message: '"data" field not found in remote response', extensions: { code: 'unexpected' } }] });
  delete f.remote.options.body;
  t.is((await f.engine.graphql({ query: '{ profiles(limit: 1) { messageBasic { msg } } }' })).status, 200);
});

test('a bigint join key beyond 2^53 reaches the remote and comes back exact', async (t) => {
  const f = await startFixture();
  t.teardown(() => f.close());
  await queryOk(f.engine, { type: 'run_sql', args: { sql: 'alter table profiles add column big bigint; update profiles set big = 9007199254740993 + id;' } });
  await queryOk(f.engine, {
    type: 'create_remote_relationship',
    args: { name: 'echo', table: 'profiles', engine_fields: ['big'], remote_schema: 'my-remote', remote_field: { echo: { arguments: { id: '$big' } } } },
  });
  f.remote.received.length = 0;
  const r = await f.engine.graphql({ query: '{ profiles(where: {id: {_eq: 2}}) { big echo } }' });
  t.is(r.text, '{"data":{"profiles":[{"big":9007199254740995,"echo":"9007199254740995"}]}}');
  t.is(f.remote.received[0].body.query, 'query  { echo__0: echo(id: 9007199254740995) }');
});

test('explain shows the database part of a query with a remote relationship', async (t) => {
  const f = await startFixture();
  t.teardown(() => f.close());
  await queryOk(f.engine, { type: 'create_remote_relationship', args: basicRelationship });
  const r = await f.engine.post('/v1/graphql/explain', { query: { query: '{ profiles { messageBasic { msg } } }' } });
  t.is(r.status, 200, r.text);
  const [plan] = r.body as Array<{ field: string; sql: string }>;
  t.is(plan.field, 'profiles');
  t.regex(plan.sql, /json_build_object\('id'::text, /);
});

test('a request mixing a remote root field and a table with a remote relationship', async (t) => {
  const f = await startFixture();
  t.teardown(() => f.close());
  await queryOk(f.engine, { type: 'create_remote_relationship', args: basicRelationship });
  const r = await f.engine.graphql({ query: '{ hello profiles(where: {id: {_eq: 3}}) { messageBasic { msg } } }' });
  t.deepEqual(r.body, { data: { hello: 'world', profiles: [{ messageBasic: { msg: 'Another alice' } }] } });
});
