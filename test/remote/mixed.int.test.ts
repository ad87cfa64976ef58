// Better than the original: one request may select table fields and fields of several remotes. Each server gets
// only its fields (with their fragments and variables), the remotes run in parallel with the database, and `data`
// follows the request's order. Real engine, real Postgres, real graphql-js servers on loopback.
import test from 'ava';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';
import { startRemote, type RemoteServer } from './server.js';

let e: TestEngine;
let users: RemoteServer;
let weather: RemoteServer;
test.before(async () => {
  users = await startRemote(`type User { id: Int, name: String } type Query { user(id: Int!): User, broken: String }
    type Mutation { rename(id: Int!, name: String!): User }`, {
    user: ({ id }: { id: number }) => ({ id, name: `user ${id}` }),
    broken: () => { throw new Error('remote says no'); },
    rename: ({ id, name }: { id: number; name: string }) => ({ id, name }),
  });
  weather = await startRemote('type Weather { city: String, temp: Float } type Query { weather(city: String!): Weather }', {
    weather: ({ city }: { city: string }) => ({ city, temp: 21.5 }),
  });
  e = await startTestEngine();
  const r = await e.query({ type: 'bulk', args: [
    { type: 'run_sql', args: { sql: "create table author (id serial primary key, name text, big bigint); insert into author (name, big) values ('ann', 9007199254740993), ('bob', 1);" } },
    { type: 'track_table', args: { schema: 'public', name: 'author' } },
    { type: 'add_remote_schema', args: { name: 'users', definition: { url: users.url } } },
    { type: 'add_remote_schema', args: { name: 'weather', definition: { url: weather.url } } },
  ] });
  if (r.status !== 200) throw new Error(r.text);
});
test.after.always(async () => {
  await e?.close();
  await users?.close();
  await weather?.close();
});

const reset = () => { users.received.length = 0; weather.received.length = 0; };

test.serial('table and remote fields in one request: values, request order, each remote only its own fields and variables', async (t) => {
  reset();
  const r = await e.graphql({
    query: `query Q($uid: Int!, $city: String!, $min: Int) {
      w: weather(city: $city) { ...W }
      authors: author(where: {id: {_gte: $min}}, order_by: {id: asc}) { name big }
      user(id: $uid) { id name }
      __typename
    }
    fragment W on Weather { city temp }`,
    variables: { uid: 7, city: 'Oslo', min: 1 },
  });
  // the bigint keeps every digit: the database's JSON text is spliced as it is, never parsed
  const dbOnly = (await e.graphql({ query: '{ authors: author(where: {id: {_gte: 1}}, order_by: {id: asc}) { name big } }' })).text;
  const authors = dbOnly.slice('{"data":{"authors":'.length, -2);
  t.regex(authors, /"big":9007199254740993/);
  t.is(r.text, `{"data":{"w":{"city":"Oslo","temp":21.5},"authors":${authors},"user":{"id":7,"name":"user 7"},"__typename":"query_root"}}`);
  t.deepEqual(users.received.map((x) => x.body), [{ query: 'query Q($uid: Int!) {\n  user(id: $uid) {\n    id\n    name\n  }\n}', variables: { uid: 7 }, operationName: null }]);
  t.deepEqual(weather.received.map((x) => x.body), [{ query: 'query Q($city: String!) {\n  w: weather(city: $city) {\n    ...W\n  }\n}\n\nfragment W on Weather {\n  city\n  temp\n}', variables: { city: 'Oslo' }, operationName: null }]);
});

test.serial('a root fragment mixing servers is split; a remote error keeps its path and the other fields their data', async (t) => {
  reset();
  const r = await e.graphql({ query: '{ ...F broken } fragment F on query_root { user(id: 1) { name } author_by_pk(id: 2) { name } }' });
  t.deepEqual(r.body.data, { user: { name: 'user 1' }, author_by_pk: { name: 'bob' }, broken: null });
  t.is(r.body.errors.length, 1);
  t.like(r.body.errors[0], { message: 'remote says no', path: ['broken'] });
  t.is(users.received[0].body.query, '{\n  ...F\n  broken\n}\n\nfragment F on Query {\n  user(id: 1) {\n    name\n  }\n}');
});

test.serial('a database part that fails answers null for its fields with its error; remote fields keep their data', async (t) => {
  const r = await e.graphql({ query: '{ author { nope } user(id: 2) { id } }' });
  t.deepEqual(r.body.data, { author: null, user: { id: 2 } });
  t.deepEqual(r.body.errors, [{ extensions: { path: '$.selectionSet.author.selectionSet.nope', code: 'validation-failed' }, message: "field \"nope\" not found in type: 'author'" }]);
  await weather.close();
  const down = await e.graphql({ query: '{ weather(city: "x") { temp } author_by_pk(id: 1) { name } }' });
  t.deepEqual(down.body.data, { weather: null, author_by_pk: { name: 'ann' } });
  t.is(down.body.errors[0].extensions.code, 'unexpected');
  weather = await startRemote('type Weather { city: String, temp: Float } type Query { weather(city: String!): Weather }', {
    weather: ({ city }: { city: string }) => ({ city, temp: 21.5 }),
  }, Number(new URL(weather.url).port));
});

test.serial('mixed mutations run one after another in request order', async (t) => {
  reset();
  const r = await e.graphql({ query: 'mutation { insert_author(objects: [{name: "cy"}]) { affected_rows } rename(id: 3, name: "cy") { name } }' });
  t.deepEqual(r.body, { data: { insert_author: { affected_rows: 1 }, rename: { name: 'cy' } } });
  t.is(users.received.length, 1);
});

test.serial('the remote parts run in parallel with each other', async (t) => {
  // Neither remote answers until both have been asked: run one after the other, the first would wait for a request
  // that only comes after its own answer. Each records whether it saw the other's request (or gave up after 30 s,
  // which only an engine that does not run them in parallel would make it do). No timing window involved.
  let arrived = 0;
  let bothArrived!: () => void;
  const both = new Promise<void>((r) => (bothArrived = r));
  const overlapped: boolean[] = [];
  const barrier = async () => {
    if (++arrived === 2) bothArrived();
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 30_000)));
    overlapped.push(await Promise.race([both.then(() => true), gaveUp]));
    clearTimeout(timer);
  };
  users.options.beforeAnswer = barrier;
  weather.options.beforeAnswer = barrier;
  t.teardown(() => { delete users.options.beforeAnswer; delete weather.options.beforeAnswer; });
  const r = await e.graphql({ query: '{ user(id: 1) { id } weather(city: "a") { city } author(limit: 1) { id } }' });
  t.deepEqual(r.body, { data: { user: { id: 1 }, weather: { city: 'a' }, author: [{ id: 1 }] } });
  t.deepEqual(overlapped, [true, true]);
});

test.serial('a route is kept per query text: the same text with other variables sends each remote its own values; a metadata change re-routes', async (t) => {
  const query = 'query Q($uid: Int!, $min: Int) { user(id: $uid) { id } author(where: {id: {_gte: $min}}, order_by: {id: asc}, limit: 1) { id } }';
  for (const [uid, min] of [[1, 1], [5, 2], [9, 1]]) {
    reset();
    const r = await e.graphql({ query, variables: { uid, min } });
    t.deepEqual(r.body, { data: { user: { id: uid }, author: [{ id: min }] } });
    t.deepEqual(users.received.map((x) => x.body.variables), [{ uid }]);
  }
  // a table query on a state with remote schemas is answered by the database alone, every time
  for (let i = 0; i < 2; i++) t.deepEqual((await e.graphql({ query: '{ author_by_pk(id: 1) { name } }' })).body, { data: { author_by_pk: { name: 'ann' } } });
  // the weather remote removed: the same text no longer finds its field
  const q = '{ weather(city: "a") { city } author_by_pk(id: 1) { name } }';
  t.deepEqual((await e.graphql({ query: q })).body, { data: { weather: { city: 'a' }, author_by_pk: { name: 'ann' } } });
  t.is((await e.query({ type: 'remove_remote_schema', args: { name: 'weather' } })).status, 200);
  t.teardown(() => e.query({ type: 'add_remote_schema', args: { name: 'weather', definition: { url: weather.url } } }));
  t.is((await e.graphql({ query: q })).body.errors[0].extensions.code, 'validation-failed');
});
