import test from 'ava';
import { canonicalNumber, compareJson, parseLossless } from '../../bench/json-compare.js';

test('numbers keep their literal text', (t) => {
  t.deepEqual(parseLossless('{"a": 123456789.123456789012345678}'), {
    kind: 'object',
    entries: [['a', { kind: 'number', text: '123456789.123456789012345678' }]],
  });
});

test('canonical numbers compare exact decimal values', (t) => {
  t.is(canonicalNumber('1.50'), canonicalNumber('15e-1'));
  t.is(canonicalNumber('0.0'), '0');
  t.not(canonicalNumber('0.30000000000000000001'), canonicalNumber('0.3'));
});

test('equal documents with different whitespace compare equal', (t) => {
  const c = compareJson('{"data":{"x":[1,2,{"y":null}]}}', '{"data" : {"x" : [1, 2, {"y" : null}]}}');
  t.true(c.equal);
  t.deepEqual(c.numberTextDiffers, []);
});

test('key order is significant', (t) => {
  const c = compareJson('{"a":1,"b":2}', '{"b":2,"a":1}');
  t.false(c.equal);
  t.is(c.differences[0].path, '$');
});

test('differences carry a path and both values', (t) => {
  const c = compareJson('{"data":{"t":[{"p":0.99},{"p":"1.99"}]}}', '{"data":{"t":[{"p":0.99},{"p":1.99}]}}');
  t.deepEqual(c.differences, [{ path: '$.data.t[1].p', engine: '"1.99"', ceiling: '1.99' }]);
});

test('numbers that differ beyond double precision are different', (t) => {
  t.false(compareJson('[0.30000000000000000001]', '[0.3]').equal);
});

test('same value written differently is equal but reported', (t) => {
  const c = compareJson('[1.50]', '[1.5]');
  t.true(c.equal);
  t.deepEqual(c.numberTextDiffers, [{ path: '$[0]', engine: '1.50', ceiling: '1.5' }]);
});

test('array length differences are reported', (t) => {
  t.false(compareJson('[1,2]', '[1]').equal);
});

test('invalid JSON throws', (t) => {
  t.throws(() => parseLossless('{"a":}'));
  t.throws(() => parseLossless('[1] x'));
});
