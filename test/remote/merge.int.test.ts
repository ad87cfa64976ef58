// Remote schemas merged into /v1/graphql: every role sees the remote's root fields and types, conflicts are
// refused with the original's codes, and a remote that is down at start-up is an inconsistent object until a
// reload finds it again. Real engine, real Postgres, real graphql-js servers on loopback.
import test from 'ava';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';
import { startRemote, type RemoteServer } from './server.js';

const HELLO = `type Hello { hello(arg: String = "world"): String, shared: Shape }
  type Shape { id: Int, kind: String }
  type Mutations { setHello(v: String!): String }
  schema { query: Hello, mutation: Mutations }`;
const helloRoot = { hello: ({ arg }: { arg: string }) => `Hello ${arg}`, shared: () => ({ id: 1, kind: 'cube' }), setHello: ({ v }: { v: string }) => `set ${v}` };

let e: TestEngine;
let hello: RemoteServer;
test.before(async () => {
  hello = await startRemote(HELLO, helloRoot);
  e = await startTestEngine();
  const r = await e.query({ type: 'run_sql', args: { sql: 'create table author (id serial primary key, name text); insert into author (name) values (\'ann\');' } });
  if (r.status !== 200) throw new Error(r.text);
  await e.query({ type: 'track_table', args: { schema: 'public', name: 'author' } });
  await e.query({ type: 'create_select_permission', args: { table: 'author', role: 'user', permission: { columns: ['id'], filter: {} } } });
});
test.after.always(async () => {
  await e?.close();
  await hello?.close();
});

const add = (name: string, url: string, extra: Record<string, unknown> = {}) =>
  e.query({ type: 'add_remote_schema', args: { name, definition: { url, forward_client_headers: false, ...extra } } });

test.serial('added remote: its fields join query_root and mutation_root for admin and for every role; introspection shows them', async (t) => {
  t.is((await add('hello', hello.url)).status, 200);
  t.deepEqual((await e.graphql({ query: '{ hello(arg: "me") }' })).body, { data: { hello: 'Hello me' } });
  t.deepEqual((await e.graphql({ query: 'mutation { setHello(v: "x") }' })).body, { data: { setHello: 'set x' } });
  t.deepEqual((await e.graphql({ query: '{ hello }' }, { 'x-engine-role': 'user' })).body, { data: { hello: 'Hello world' } });
  const intro = (await e.graphql({ query: '{ __schema { queryType { name } mutationType { name } types { name } } q: __type(name: "query_root") { fields { name } } }' }, { 'x-engine-role': 'user' })).body;
  t.is(intro.data.__schema.queryType.name, 'query_root');
  t.is(intro.data.__schema.mutationType.name, 'mutation_root');
  const types = intro.data.__schema.types.map((x: { name: string }) => x.name);
  for (const name of ['Hello', 'Shape', 'author']) t.true(types.includes(name), name);
  t.deepEqual(intro.data.q.fields.map((f: { name: string }) => f.name), ['author', 'author_by_pk', 'hello', 'shared']);
  const arg = (await e.graphql({ query: '{ __type(name: "query_root") { fields { name args { name defaultValue } } } }' })).body
    .data.__type.fields.find((f: { name: string }) => f.name === 'hello').args;
  t.deepEqual(arg, [{ name: 'arg', defaultValue: '"world"' }]);
});

test.serial('conflicts: a remote against a table is constraint-violation, against another remote unexpected; a table against a remote remote-schema-conflicts', async (t) => {
  const clash = await startRemote('type Query { author: String }', { author: () => 'x' });
  const sameType = await startRemote('type Shape { id: Int, kind: String } type Query { other: Shape }', { other: () => ({ id: 2, kind: 'ball' }) });
  const otherType = await startRemote('type Shape { id: String } type Query { other2: Shape }', {});
  t.teardown(() => Promise.all([clash.close(), sameType.close(), otherType.close()]));
  const r1 = await add('clash', clash.url);
  t.is(r1.status, 400);
  t.like(r1.body, { code: 'constraint-violation', path: '$.args', error: "top-level nodes: [ author ] already exist in current graphql schema. HINT: Top-level nodes can't be same." });
  const r2 = await add('hello again', hello.url);
  t.is(r2.status, 400);
  t.like(r2.body, { code: 'unexpected', error: 'cannot continue due to new inconsistent metadata' });
  // the same type with the same structure is merged into one
  t.is((await add('same type', sameType.url)).status, 200);
  t.deepEqual((await e.graphql({ query: '{ other { id kind } shared { kind } }' })).body, { data: { other: { id: 2, kind: 'ball' }, shared: { kind: 'cube' } } });
  const r3 = await add('other type', otherType.url);
  t.like(r3.body, { code: 'unexpected' });
  t.deepEqual(r3.body.internal, [{ type: 'remote_schema', definition: { name: 'other type', definition: { url: otherType.url } }, reason: "types: [ Shape ] have mismatch with current graphql schema. HINT: Types must be same." }]);
  // a table whose root field a remote already has
  const r4 = await e.query({ type: 'bulk', args: [
    { type: 'run_sql', args: { sql: 'create table hello (id int primary key)' } },
    { type: 'track_table', args: { schema: 'public', name: 'hello' } },
  ] });
  t.is(r4.status, 400);
  t.like(r4.body, { code: 'remote-schema-conflicts', error: "top-level nodes: [ hello ] already exist in current graphql schema. HINT: Top-level nodes can't be same." });
  t.is((await e.query({ type: 'remove_remote_schema', args: { name: 'same type' } })).status, 200);
  t.deepEqual((await e.query({ type: 'get_inconsistent_metadata', args: {} })).body, { is_consistent: true, inconsistent_objects: [] });
});

test.serial('invalid remote schemas and a remote that is down are refused with remote-schema-error', async (t) => {
  const bad = await startRemote('interface Character { id: ID! } type Droid implements Character { id: ID! } type Query { hero: Character }', {});
  t.teardown(() => bad.close());
  bad.options.mangleIntrospection = (s) => {
    const droid = (s.types as Array<{ name: string; fields: unknown[] }>).find((x) => x.name === 'Droid')!;
    droid.fields = [];
  };
  const r = await add('bad', bad.url);
  t.is(r.status, 400);
  t.like(r.body, { code: 'remote-schema-error', path: '$.args', error: `Interface field 'Character'."id" expected, but 'Droid' does not provide it` });
  const down = await add('down', 'http://127.0.0.1:9/graphql');
  t.like(down.body, { code: 'remote-schema-error' });
  t.is((await e.graphql({ query: '{ hero { id } }' })).body.errors[0].extensions.code, 'validation-failed');
});

test('a remote down at start-up is an inconsistent object; the engine serves the rest; a reload brings it back', async (t) => {
  const remote = await startRemote('type Query { greet: String }', { greet: () => 'hi' });
  const port = Number(new URL(remote.url).port);
  const first = await startTestEngine();
  t.teardown(() => first.close());
  t.is((await first.query({ type: 'add_remote_schema', args: { name: 'greeter', definition: { url: remote.url } } })).status, 200);
  await first.engine.close();
  await remote.close();
  const second = await startTestEngine({ database: first.db });
  t.teardown(() => second.close());
  const inc = (await second.query({ type: 'get_inconsistent_metadata', args: {} })).body;
  t.is(inc.is_consistent, false);
  t.is(inc.inconsistent_objects.length, 1);
  t.like(inc.inconsistent_objects[0], { type: 'remote_schema', definition: { name: 'greeter' } });
  t.regex(inc.inconsistent_objects[0].reason, /^HTTP exception occurred while sending the request to /);
  t.is((await second.get('/healthz')).text, 'WARN: inconsistent objects in schema');
  t.is((await second.graphql({ query: '{ __typename }' })).text, '{"data":{"__typename":"query_root"}}');
  // back on the same port: reload_metadata with reload_remote_schemas makes it consistent again
  const again = await startRemote('type Query { greet: String }', { greet: () => 'hi again' }, port);
  t.teardown(() => again.close());
  t.is((await second.query({ type: 'reload_metadata', args: { reload_remote_schemas: true } })).status, 200);
  t.deepEqual((await second.query({ type: 'get_inconsistent_metadata', args: {} })).body, { is_consistent: true, inconsistent_objects: [] });
  t.deepEqual((await second.graphql({ query: '{ greet }' })).body, { data: { greet: 'hi again' } });
});
