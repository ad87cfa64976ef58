import test from 'ava';
import { parsePgValue, scalarName, showScientific, isComparableType, isNumericType } from '../../src/graphql/schema/scalars.js';
import { parseJsonPath } from '../../src/graphql/request/jsonpath.js';

test('Postgres types map to GraphQL scalar names', (t) => {
  t.is(scalarName('int4'), 'Int');
  t.is(scalarName('bool'), 'Boolean');
  t.is(scalarName('float4'), 'Float');
  t.is(scalarName('text'), 'String');
  t.is(scalarName('varchar'), 'String');
  t.is(scalarName('int8'), 'bigint');
  t.is(scalarName('int2'), 'smallint');
  t.is(scalarName('float8'), 'float8');
  t.is(scalarName('timestamptz'), 'timestamptz');
  t.is(scalarName('text', true), '_text');
});

test('type classes for aggregates', (t) => {
  t.true(isNumericType('numeric'));
  t.false(isNumericType('text'));
  t.true(isComparableType('text'));
  t.false(isComparableType('jsonb'));
  t.false(isComparableType('bool'));
});

test('values: strings pass for any type, other JSON must match', (t) => {
  t.is(parsePgValue('int4', false, '12', '$'), '12');
  t.is(parsePgValue('int4', false, 12, '$', '12'), '12');
  t.is(parsePgValue('bool', false, true, '$'), 'true');
  t.deepEqual(parsePgValue('jsonb', false, { a: 1 }, '$'), { a: 1 });
  t.deepEqual(parsePgValue('text', true, ['a', 'b'], '$'), ['a', 'b']);
  const e = t.throws(() => parsePgValue('text', false, 3, '$.x')) as unknown as { code: string; path: string; message: string };
  t.is(e.code, 'parse-failed');
  t.is(e.path, '$.x');
  t.is(e.message, 'parsing Text failed, expected String, but encountered Number');
  const overflow = t.throws(() => parsePgValue('int4', false, 2147483648, '$', '2147483648')) as unknown as Error;
  t.is(overflow.message, 'The value 2.147483648e9 lies outside the bounds or is not an integer.  Maybe it is a float, or is there integer overflow?');
  t.throws(() => parsePgValue('int4', false, 1.5, '$', '1.5'));
  t.is((t.throws(() => parsePgValue('bool', false, 1, '$', '1')) as Error).message, 'parsing Bool failed, expected Boolean, but encountered Number');
});

test('numbers in messages are written as Haskell shows a Scientific', (t) => {
  t.is(showScientific('2147483648'), '2.147483648e9');
  t.is(showScientific('100'), '100.0');
  t.is(showScientific('1.5'), '1.5');
  t.is(showScientific('0.05'), '5.0e-2');
  t.is(showScientific('-3'), '-3.0');
});

test('json paths of json/jsonb columns', (t) => {
  t.deepEqual(parseJsonPath('$', '$'), []);
  t.deepEqual(parseJsonPath('.obj.c1', '$'), ['obj', 'c1']);
  t.deepEqual(parseJsonPath('a', '$'), ['a']);
  t.deepEqual(parseJsonPath('arr[0]', '$'), ['arr', 0]);
  t.deepEqual(parseJsonPath("['!@#$%^']", '$'), ['!@#$%^']);
  t.deepEqual(parseJsonPath("translations['hello world!']", '$'), ['translations', 'hello world!']);
  t.deepEqual(parseJsonPath('objs[0]["k"]', '$'), ['objs', 0, 'k']);
  t.deepEqual(parseJsonPath('objs.[0].["k"]', '$'), ['objs', 0, 'k']);
  t.throws(() => parseJsonPath('a[', '$.p'));
});
