// v1 DML helpers that need no database: which /v1/query bodies a non-admin role may send, numeric value text.
import test from 'ava';
import { anyRoleMay } from '../../src/metadata/operations.js';
import { numericText } from '../../src/metadata/dml/mutation.js';

test('anyRoleMay: DML types, bulks of them (nested), nothing else', (t) => {
  for (const type of ['select', 'count', 'insert', 'update', 'delete']) t.true(anyRoleMay({ type, args: {} }));
  t.true(anyRoleMay({ type: 'bulk', args: [{ type: 'select', args: {} }, { type: 'bulk', args: [{ type: 'insert', args: {} }] }] }));
  t.false(anyRoleMay({ type: 'bulk', args: [{ type: 'select', args: {} }, { type: 'run_sql', args: { sql: 'select 1' } }] }));
  t.false(anyRoleMay({ type: 'run_sql', args: {} }));
  t.false(anyRoleMay({ type: 'bulk', args: {} }));
  t.false(anyRoleMay(null));
  t.false(anyRoleMay([{ type: 'select' }]));
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
