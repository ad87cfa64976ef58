// JSON read and written again without losing integers beyond 2^53 (src/remote/json-lossless.ts).
import test from 'ava';
import { parseLossless, RawNumber, stringifyLossless } from '../../src/remote/json-lossless.js';

test('integers beyond 2^53 come back as they were; everything else as JSON.parse and JSON.stringify have it', (t) => {
  const text = '{"a":[9007199254740993,-12345678901234567890,1.5,2e3,0,-7],"b":{"s":"x\\"y\\\\ 12345678901234567","t":true,"n":null},"c":[],"d":{}}';
  const r = parseLossless(text);
  t.true(r.big);
  t.true((r.value as { a: unknown[] }).a[0] instanceof RawNumber);
  t.is(stringifyLossless(r.value), JSON.stringify(JSON.parse(text.replace('9007199254740993', '1').replace('-12345678901234567890', '2'))).replace('[1,2,', '[9007199254740993,-12345678901234567890,'));
  const plain = '{"a": [1, 2], "b": "1234567890123456789 in a string"}';
  const p = parseLossless(plain);
  t.false(p.big);
  t.deepEqual(p.value, JSON.parse(plain));
  t.throws(() => parseLossless('{"a": 12345678901234567'), { instanceOf: SyntaxError });
});
