// Integer bounds of int2/int4/int8 values given as JSON numbers (the number fast path) and as text: the edges.
import test from 'ava';
import { parsePgValue } from '../../src/graphql/schema/scalars.js';

const ok = (type: string, v: unknown, raw?: string) => parsePgValue(type, false, v, '$.x', raw);
const bad = (type: string, v: unknown, raw?: string) => {
  try {
    parsePgValue(type, false, v, '$.x', raw);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
};

test('int4: both edges in, one past each edge out', (t) => {
  t.is(ok('int4', 2147483647), '2147483647');
  t.is(ok('int4', -2147483648), '-2147483648');
  t.regex(bad('int4', 2147483648) ?? '', /lies outside the bounds/);
  t.regex(bad('int4', -2147483649) ?? '', /lies outside the bounds/);
});

test('int2 edges, int8 safe integers and beyond, -0', (t) => {
  t.is(ok('int2', 32767), '32767');
  t.is(ok('int2', -32768), '-32768');
  t.regex(bad('int2', 32768) ?? '', /lies outside the bounds/);
  t.is(ok('int8', Number.MAX_SAFE_INTEGER), String(Number.MAX_SAFE_INTEGER));
  t.is(ok('int8', -Number.MAX_SAFE_INTEGER), String(-Number.MAX_SAFE_INTEGER));
  t.is(ok('int8', 2 ** 60), String(2 ** 60)); // not safe: checked through its text, still in range
  t.regex(bad('int8', 2 ** 70) ?? '', /lies outside the bounds/);
  t.is(ok('int4', -0), '0');
});

test('non-integers are refused whatever the path', (t) => {
  t.regex(bad('int4', 1.5) ?? '', /not an integer/);
  t.regex(bad('int8', 1e21) ?? '', /not an integer/);
  t.regex(bad('int4', 1, '1.0') ?? '', /not an integer/);
  t.is(ok('int4', 7, '7'), '7');
});
