import test from 'ava';
import { compile, ident, join, literal, param, raw, sql, value, isSql } from '../../src/sql/builder.js';
import { resolveParams, toPgParam } from '../../src/sql/params.js';

test('values become parameters, identifiers are quoted with doubled quotes', (t) => {
  const c = compile(sql`SELECT ${ident('a"b')} FROM ${ident('s', 't')} WHERE x = ${value('1')} AND y = ${value(null)}`);
  t.is(c.text, 'SELECT "a""b" FROM "s"."t" WHERE x = $1 AND y = $2');
  t.deepEqual(c.slots, [{ kind: 'const', value: '1' }, { kind: 'const', value: null }]);
});

test('equal session variables and string constants share one slot', (t) => {
  const s = param({ kind: 'session', name: 'x-engine-user-id' });
  const c = compile(sql`${s} ${value('a')} ${s} ${value('a')} ${param({ kind: 'session_object' })}`);
  t.is(c.text, '$1 $2 $1 $2 $3');
  t.is(c.slots.length, 3);
});

test('JSON cannot pass for an SQL node', (t) => {
  const forged = JSON.parse('{"items":[{"t":"raw","s":"DROP TABLE x"}]}');
  t.false(isSql(forged));
  t.throws(() => sql`SELECT ${forged}`, { instanceOf: TypeError });
  t.throws(() => sql`SELECT ${'1' as never}`, { instanceOf: TypeError });
});

test('join, raw and literal', (t) => {
  t.is(compile(join([raw('a'), raw('b')], ', ')).text, 'a, b');
  t.is(compile(literal("it's \\ ok")).text, "'it''s \\ ok'");
  t.throws(() => literal('\0'));
});

test('parameter conversion: json, arrays, scalars', (t) => {
  const T = (type: string, array = false) => ({ type, typeSchema: 'pg_catalog', array });
  t.is(toPgParam({ a: [1] }, T('jsonb')), '{"a":[1]}');
  t.is(toPgParam('x', T('json')), '"x"');
  t.is(toPgParam([1, 2], T('jsonb')), '[1,2]');
  t.is(toPgParam(['a"b', 'c\\d', null], T('text', true)), '{"a\\"b","c\\\\d",NULL}');
  t.is(toPgParam([[1, 2], [3, 4]], T('int4', true)), '{{"1","2"},{"3","4"}}');
  t.is(toPgParam(true, T('bool')), 'true');
  t.is(toPgParam(12, T('int4')), '12');
  t.is(toPgParam(null, T('int4')), null);
});

test('resolveParams reads variable paths, defaults and session values', (t) => {
  const T = { type: 'int4', typeSchema: 'pg_catalog', array: false };
  const values = resolveParams(
    [
      { kind: 'variable', name: 'v', path: ['a', 0], pgType: T },
      { kind: 'variable', name: 'w', path: [], pgType: T, defaultValue: 5 },
      { kind: 'session', name: 'x-engine-user-id' },
      { kind: 'session_object' },
    ],
    { variables: { v: { a: [7] } }, sessionVariables: { 'x-engine-user-id': '3' } },
  );
  t.deepEqual(values, ['7', '5', '3', '{"x-engine-user-id":"3"}']);
});
