// Splitting an operation by server: each part keeps only its root fields, the fragments and variables they use,
// and a remote part's root fragments are renamed to the remote's root type.
import test from 'ava';
import { parse, type OperationDefinitionNode } from 'graphql';
import { splitOperation } from '../../src/remote/split.js';
import { remoteHeaders } from '../../src/remote/headers.js';
import { objectMembers } from '../../src/remote/json-members.js';

const owners: Record<string, string> = { hello: 'r1', user: 'r1', weather: 'r2' };

function split(query: string, variables: Record<string, unknown> | null = null) {
  const doc = parse(query);
  const op = doc.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode;
  return splitOperation({ doc, op, rootName: 'query_root', owner: (n) => owners[n] ?? null, remoteRoot: (r) => (r === 'r1' ? 'Query' : 'Root2'), variables });
}

test('root fields, in order, each server its own; variables and fragments follow their users', (t) => {
  const s = split(`query Q($id: Int!, $arg: String, $city: String) {
    a: author(where: {id: {_eq: $id}}) { ...A }
    hello(arg: $arg)
    weather(city: $city) { ...W }
    __typename
  }
  fragment A on author { id name }
  fragment W on Weather { temp }`, { id: 1, arg: 'x', city: 'y' });
  t.deepEqual(s.order, ['a', 'hello', 'weather', '__typename']);
  t.deepEqual(s.parts.map((p) => [p.owner, p.variables]), [[null, { id: 1 }], ['r1', { arg: 'x' }], ['r2', { city: 'y' }]]);
  t.is(s.parts[0].query, 'query Q($id: Int!) {\n  a: author(where: {id: {_eq: $id}}) {\n    ...A\n  }\n  __typename\n}\n\nfragment A on author {\n  id\n  name\n}');
  t.is(s.parts[1].query, 'query Q($arg: String) {\n  hello(arg: $arg)\n}');
  t.is(s.parts[2].query, 'query Q($city: String) {\n  weather(city: $city) {\n    ...W\n  }\n}\n\nfragment W on Weather {\n  temp\n}');
});

test('root fragments and inline fragments are filtered per server and renamed to the remote root type', (t) => {
  const s = split(`{ ...R ... on query_root { user { id } author { id } } }
    fragment R on query_root { hello author_by_pk(id: 1) { id } }`);
  t.deepEqual(s.order, ['hello', 'author_by_pk', 'user', 'author']);
  t.is(s.parts[0].owner, 'r1');
  t.is(s.parts[0].query, '{\n  ...R\n  ... on Query {\n    user {\n      id\n    }\n  }\n}\n\nfragment R on Query {\n  hello\n}');
  t.is(s.parts[1].owner, null);
  t.is(s.parts[1].query, '{\n  ...R\n  ... on query_root {\n    author {\n      id\n    }\n  }\n}\n\nfragment R on query_root {\n  author_by_pk(id: 1) {\n    id\n  }\n}');
});

test('headers: one value per name, configured first, then session, then the filtered client headers', (t) => {
  const h = remoteHeaders({
    configured: { 'X-A': 'conf' },
    session: { 'x-engine-role': 'user', 'x-a': 'session' },
    client: { 'x-a': 'client', host: 'e:8080', 'user-agent': 'ua', 'content-type': 'text/plain', 'x-engine-role': 'admin', cookie: 'c=1', 'content-length': '3' },
  });
  t.deepEqual(h, { 'X-A': 'conf', 'x-engine-role': 'user', 'X-Forwarded-Host': 'e:8080', 'X-Forwarded-User-Agent': 'ua', cookie: 'c=1', 'Content-Type': 'application/json' });
  t.deepEqual(remoteHeaders({ configured: { 'content-type': 'application/graphql+json' }, session: {}, client: null }), { 'content-type': 'application/graphql+json' });
});

test('object members keep value texts as they are (no loss of digits)', (t) => {
  const m = objectMembers('{"a": 12345678901234567890, "b":{"c":["x\\"}",1]},"d":null , "e":"s"}');
  t.deepEqual(m && [...m], [['a', '12345678901234567890'], ['b', '{"c":["x\\"}",1]}'], ['d', 'null'], ['e', '"s"']]);
  t.is(objectMembers('[1]'), null);
  t.deepEqual([...objectMembers('{}')!], []);
});
