// The allow-list matcher: canonical query texts (formatting and __typename ignored) and the rejection error.
import test from 'ava';
import { allowedQueries, checkAllowlist, normaliseQuery } from '../../src/graphql/allowlist.js';
import { emptyMetadata } from '../../projections/metadata.js';
import { isEngineError } from '../../src/core/errors.js';

const meta = () => {
  const m = emptyMetadata();
  m.query_collections = [
    { name: 'c1', definition: { queries: [{ name: 'q1', query: 'query { user { id name } }' }] } },
    { name: 'c2', definition: { queries: [{ name: 'q2', query: '{ article { id } }' }] } },
  ];
  m.allowlist = [{ collection: 'c1' }];
  return m;
};

test('formatting, commas, comments and __typename do not matter', (t) => {
  const a = normaliseQuery('query { user { id name } }');
  t.is(normaliseQuery('query {\n  user { # comment\n id, __typename\n name } }'), a);
  t.is(normaliseQuery('query { __typename user { id name } }'), a);
});

test('field order, aliases and arguments do matter', (t) => {
  const a = normaliseQuery('query { user { id name } }');
  t.not(normaliseQuery('query { user { name id } }'), a);
  t.not(normaliseQuery('query { u: user { id name } }'), a);
  t.not(normaliseQuery('query { user(limit: 1) { id name } }'), a);
  t.not(normaliseQuery('query Named { user { id name } }'), a);
  t.is(normaliseQuery('query {'), null);
});

test('only collections on the allow-list count', (t) => {
  const m = meta();
  const set = allowedQueries(m);
  t.true(set.has(normaliseQuery('query { user { id name } }')!));
  t.false(set.has(normaliseQuery('{ article { id } }')!));
  t.is(allowedQueries(m), set); // memoised per metadata value
});

test('checkAllowlist: admin bypasses, others are rejected as the original', (t) => {
  const m = meta();
  t.notThrows(() => checkAllowlist(m, 'admin', '{ article { id } }'));
  t.notThrows(() => checkAllowlist(m, 'user', 'query { user { __typename id name } }'));
  const e = t.throws(() => checkAllowlist(m, 'user', '{ article { id } }'));
  t.true(isEngineError(e));
  if (!isEngineError(e)) return;
  t.is(e.code, 'validation-failed');
  t.is(e.message, 'query is not allowed');
  t.is(e.path, '$');
  t.deepEqual(e.internal, { message: 'query is not in any of the allowlists' });
  // A query that does not parse is left to the GraphQL parser's own error.
  t.notThrows(() => checkAllowlist(m, 'user', 'query {'));
});
