// Session helpers: header lookup, session variables, websocket header merging, the explain API's `user` object.
import test from 'ava';
import { headerValue, makeSession, sessionFromHeaders, sessionVariablesFromHeaders, websocketHeaders } from '../../src/auth/session.js';

test('headerValue is case-insensitive and takes the first of repeated values', (t) => {
  t.is(headerValue({ Authorization: 'Bearer x' }, 'authorization'), 'Bearer x');
  t.is(headerValue({ 'x-a': ['1', '2'] }, 'X-A'), '1');
  t.is(headerValue({ 'x-a': 5 }, 'x-a'), undefined);
  t.is(headerValue({}, 'x-a'), undefined);
});

test('session variables: x-engine-* only, lower-cased, credentials removed', (t) => {
  t.deepEqual(
    sessionVariablesFromHeaders({ 'X-Engine-User-Id': '1', 'x-engine-admin-secret': 's', 'X-Engine-Access-Key': 'k', host: 'h', 'x-engine-n': 3 }),
    { 'x-engine-user-id': '1' },
  );
  t.deepEqual(makeSession('r', { 'x-engine-role': 'other', 'x-engine-a': 'b' }).variables, { 'x-engine-role': 'r', 'x-engine-a': 'b' });
});

test('the explain API user object is read like headers: role from x-engine-role, admin otherwise', (t) => {
  t.deepEqual(sessionFromHeaders({ 'x-engine-role': 'user', 'x-engine-user-id': '2' }), {
    role: 'user',
    variables: { 'x-engine-role': 'user', 'x-engine-user-id': '2' },
  });
  t.is(sessionFromHeaders({ 'x-engine-role': '' }).role, 'admin');
});

test('websocket headers: handshake plus connection_init payload headers, payload wins', (t) => {
  const merged = websocketHeaders(
    { host: 'h', authorization: 'Bearer old', cookie: 'c=1' },
    { headers: { Authorization: 'Bearer new', 'X-Engine-Role': 'user', bad: { nested: true } } },
  );
  t.deepEqual(merged, { host: 'h', authorization: 'Bearer new', cookie: 'c=1', 'x-engine-role': 'user' });
  t.deepEqual(websocketHeaders({ a: 'b' }, null), { a: 'b' });
  t.deepEqual(websocketHeaders({ a: 'b' }, { headers: 'nope' }), { a: 'b' });
  t.deepEqual(websocketHeaders({}, { headers: ['x'] }), {});
});

test('websocket headers for a POST auth hook: names kept as sent, the payload still wins whatever the case', (t) => {
  const merged = websocketHeaders(
    { Host: 'h', authorization: 'Bearer old', Cookie: 'c=1' },
    { headers: { Authorization: 'Bearer new', 'X-Engine-Role': 'user', bad: { nested: true } } },
    true,
  );
  t.deepEqual(merged, { Host: 'h', Authorization: 'Bearer new', Cookie: 'c=1', 'X-Engine-Role': 'user' });
});
