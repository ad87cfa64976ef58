// memoByObjectAndKey (src/core/weak-memo.ts): one value per object and key, null remembered like any other value.
import test from 'ava';
import { memoByObjectAndKey } from '../../src/core/weak-memo.js';

test('made once per object and key, a null answer included', (t) => {
  const calls: string[] = [];
  const f = memoByObjectAndKey((o: { name: string }, key: string) => {
    calls.push(`${o.name}/${key}`);
    return key === 'none' ? null : `${o.name}:${key}`;
  });
  const a = { name: 'a' };
  const b = { name: 'b' };
  t.is(f(a, 'x'), 'a:x');
  t.is(f(a, 'x'), 'a:x');
  t.is(f(b, 'x'), 'b:x');
  t.is(f(a, 'y'), 'a:y');
  t.is(f(a, 'none'), null);
  t.is(f(a, 'none'), null);
  t.deepEqual(calls, ['a/x', 'b/x', 'a/y', 'a/none']);
});
