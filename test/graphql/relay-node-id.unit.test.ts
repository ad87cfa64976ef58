// Relay global ids: decoding and the original's (aeson) messages for bad ids.
import test from 'ava';
import { decodeCursor, decodeNodeId } from '../../src/graphql/relay/node-id.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const msg = (id: string): string => {
  try {
    decodeNodeId(id, '$.p');
    return 'no error';
  } catch (e) {
    return (e as Error).message;
  }
};

test('version 1 ids: schema, table and key values (trailing whitespace and missing padding are fine)', (t) => {
  t.deepEqual(decodeNodeId(b64('[1, "public", "author", 2]\n'), '$'), { schema: 'public', name: 'author', values: [2] });
  t.deepEqual(decodeNodeId(b64('[1,"s","t","a",3]').replace(/=+$/, ''), '$'), { schema: 's', name: 't', values: ['a', 3] });
});

test('bad ids get the original messages', (t) => {
  t.is(msg('random'), "the node id is invalid: Error in $: Failed reading: not a valid json value at '\u00ad\u00a9\u00dd\u00a2'");
  t.is(msg(b64('"x"')), 'the node id is invalid: Error in $: parsing [] failed, expected Array, but encountered String');
  t.is(msg(b64('[]')), 'the node id is invalid: Error in $: unexpected GUID format, found empty list');
  t.is(msg(b64('[2.5, "a"]')), 'the node id is invalid: Error in $: unsupported GUID version: 2.5');
  t.is(msg(b64('[null]')), 'the node id is invalid: Error in $: unexpected GUID format, needs to start with a version number');
  t.is(msg(b64('[1, "public", 3, 1]')), 'the node id is invalid: Error in $: parsing Text failed, expected String, but encountered Number');
});

test('cursors: base64 JSON, anything else is not one', (t) => {
  t.deepEqual(decodeCursor(b64('{"id" : 3}')), { id: 3 });
  t.is(decodeCursor('not a cursor'), undefined);
});
