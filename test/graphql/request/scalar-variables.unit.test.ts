// The scalar-variables fast path (scalarVariablesCoercer) against the general one (checkVariables, then each value
// as Postgres gets it): same values, same errors (message and path), over operations and inputs of every kind it
// takes, plus expectations written out for a few.
import test from 'ava';
import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import { checkVariables, scalarVariablesCoercer, variableDefinitions, type VariableDef } from '../../../src/graphql/request/operation.js';
import { toJson } from '../../../src/graphql/request/input.js';
import { EngineError } from '../../../src/core/errors.js';

const schema = buildSchema(`
  scalar bigint
  scalar numeric
  scalar uuid
  scalar jsonb
  scalar _int4
  enum color { red green }
  input point { x: Int }
  type Query { a: Int, b: Float, c: Boolean, d: ID, e: String, f(p: point, c: color, x: bigint, y: numeric, z: uuid, j: jsonb, r: _int4): Int }
`);

const defsOf = (vars: string): VariableDef[] =>
  variableDefinitions(schema, parse(`query Q${vars} { a }`).definitions[0] as OperationDefinitionNode);

type Outcome = { value: Record<string, unknown> } | { error: { code: string; message: string; path: string } };
const outcome = (f: () => Record<string, unknown>): Outcome => {
  try {
    return { value: f() };
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    return { error: { code: e.code, message: e.message, path: e.path } };
  }
};
const general = (defs: VariableDef[], vars: Record<string, unknown> | null) => outcome(() => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of checkVariables(defs, vars)) out[k] = toJson(v.value);
  return out;
});
const fast = (defs: VariableDef[], vars: Record<string, unknown> | null) => outcome(() => scalarVariablesCoercer(defs)!(vars));

const OPERATIONS = [
  '($id: Int!)',
  '($id: Int)',
  '($id: Int = 7, $name: String)',
  '($a: bigint!, $b: numeric, $c: uuid, $d: Boolean!, $e: Float, $f: ID)',
  '($j: jsonb, $k: jsonb!)',
  '($arr: _int4)',
  '',
];
const INPUTS: Array<Record<string, unknown> | null> = [
  null, {}, { id: 1 }, { id: null }, { id: '1' }, { id: 1.5 }, { id: 2147483648 }, { id: -2147483649 }, { id: true }, { id: [1] }, { id: { x: 1 } },
  { id: 1, other: 2 }, { zz: 1, id: 1, yy: 2 }, { name: 'x' }, { name: 3 }, { name: null }, { id: 1, name: 'x' },
  { a: 1, d: true }, { a: '9223372036854775808', d: false }, { a: 1.5, d: true }, { a: 1, b: 1.25, c: 'u', d: 'yes', e: 2, f: 4 },
  { a: 1, d: true, b: 'NaN', e: '1', f: null }, { j: { x: [1] }, k: 1 }, { k: null }, { j: null, k: 'text' }, { arr: [1, 2] }, { arr: '{1,2}' }, { arr: 3 },
];

test('the fast path gives the general path’s values and errors for every operation and input', (t) => {
  let compared = 0;
  for (const op of OPERATIONS) {
    const defs = defsOf(op);
    for (const input of INPUTS) {
      t.deepEqual(fast(defs, input), general(defs, input), `${op} with ${JSON.stringify(input)}`);
      compared++;
    }
  }
  t.is(compared, OPERATIONS.length * INPUTS.length);
});

test('values and errors as Postgres and the client get them', (t) => {
  const defs = defsOf('($id: Int!, $name: String = "n")');
  t.deepEqual(fast(defs, { id: 5 }), { value: { id: '5', name: 'n' } });
  t.deepEqual(fast(defs, { id: null }), {
    error: { code: 'validation-failed', message: 'null value found for non-nullable type: Int!', path: '$.variableValues.id' },
  });
  t.deepEqual(fast(defs, {}), {
    error: { code: 'validation-failed', message: 'expecting a value for non-nullable variable: id of type: Int! in variableValues', path: '$.variableValues' },
  });
  t.deepEqual(fast(defs, { id: 1, x: 1, y: 2 }), {
    error: { code: 'validation-failed', message: 'unexpected variables in variableValues: x, y', path: '$.variableValues' },
  });
});

test('operations with a variable of another type take the general path', (t) => {
  for (const op of ['($c: color)', '($p: point!)', '($l: [Int!])', '($id: Int, $p: point)']) t.is(scalarVariablesCoercer(defsOf(op)), null, op);
  t.not(scalarVariablesCoercer(defsOf('($id: Int)')), null);
});
