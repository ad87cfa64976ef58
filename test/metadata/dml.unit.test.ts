// v1 DML helpers that need no database: which /v1/query bodies a non-admin role may send, numeric value text.
import test from 'ava';
import { isDmlOnly } from '../../src/metadata/dml/index.js';
import { numericText } from '../../src/metadata/dml/mutation.js';

test('isDmlOnly: DML types, bulks of them (nested), nothing else', (t) => {
  for (const type of ['select', 'count', 'insert', 'update', 'delete']) t.true(isDmlOnly({ type, args: {} }));
  t.true(isDmlOnly({ type: 'bulk', args: [{ type: 'select', args: {} }, { type: 'bulk', args: [{ type: 'insert', args: {} }] }] }));
  t.false(isDmlOnly({ type: 'bulk', args: [{ type: 'select', args: {} }, { type: 'run_sql', args: { sql: 'select 1' } }] }));
  t.false(isDmlOnly({ type: 'run_sql', args: {} }));
  t.false(isDmlOnly({ type: 'bulk', args: {} }));
  t.false(isDmlOnly(null));
  t.false(isDmlOnly([{ type: 'select' }]));
});

test('numericText: decimal text with a scale that is a multiple of 4', (t) => {
  t.is(numericText(12345.67), '12345.6700');
  t.is(numericText(-1.1), '-1.1000');
  t.is(numericText(5), '5');
  t.is(numericText(0), '0');
  t.is(numericText(1e21), '1000000000000000000000');
  t.is(numericText(1e-30), '0.00000000000000000000000000000100');
  t.is(numericText(123.456789), '123.45678900');
});
