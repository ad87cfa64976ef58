// The interface/union checks and the introspection shape errors, with the original's messages.
import test from 'ava';
import { buildSchema, introspectionFromSchema, type IntrospectionQuery } from 'graphql';
import { introspectionError } from '../../src/remote/validate.js';

const SDL = `
  interface Character { id(ifaceArg: Int): ID! name: String }
  type Human implements Character { id(ifaceArg: Int): ID! name: String height: Float }
  type Droid implements Character { id(ifaceArg: Int): ID! name: String }
  union Search = Human | Droid
  type Query { hero: Character search: [Search] }
`;

type T = { kind: string; name: string; fields: any[] | null; interfaces: any[] | null; possibleTypes: any[] | null };

/** An introspection result of SDL after `change` edits its types. */
function mangled(change: (types: T[]) => void): IntrospectionQuery {
  const data = JSON.parse(JSON.stringify(introspectionFromSchema(buildSchema(SDL)))) as IntrospectionQuery;
  change(data.__schema.types as unknown as T[]);
  return data;
}
const type = (ts: T[], name: string) => ts.find((t) => t.name === name)!;
const field = (t: T, name: string) => t.fields!.find((f) => f.name === name);

test('a valid schema passes', (t) => {
  t.is(introspectionError(mangled(() => {})), null);
});

test('interfaces: empty field list, unknown interface, missing field, field type, arguments', (t) => {
  t.is(introspectionError(mangled((ts) => { type(ts, 'Character').fields = []; })), "List of fields cannot be empty for interface 'Character'");
  t.is(introspectionError(mangled((ts) => { type(ts, 'Droid').interfaces = [{ kind: 'INTERFACE', name: 'UnknownIFace', ofType: null }]; })),
    "Could not find interface 'UnknownIFace' implemented by Object type 'Droid'");
  t.is(introspectionError(mangled((ts) => { const d = type(ts, 'Droid'); d.fields = d.fields!.filter((f) => f.name !== 'id'); })),
    `Interface field 'Character'."id" expected, but 'Droid' does not provide it`);
  t.is(introspectionError(mangled((ts) => { field(type(ts, 'Droid'), 'id').type.ofType.name = 'String'; })),
    `The type of Object field 'Droid'."id" (String!) is not the same type/sub type of Interface field 'Character'."id" (ID!)`);
  // Droid before Human: types are checked in name order
  t.is(introspectionError(mangled((ts) => { field(type(ts, 'Human'), 'id').args = []; field(type(ts, 'Droid'), 'id').args = []; })),
    `Interface field argument 'Character'."id"("ifaceArg":) required, but Object field 'Droid'."id" does not provide it`);
  t.is(introspectionError(mangled((ts) => { field(type(ts, 'Human'), 'id').args[0].type = { kind: 'SCALAR', name: 'String', ofType: null }; })),
    `Interface field argument 'Character'."id"("ifaceArg":) expects type Int, but 'Human'."id"("ifaceArg":) has type String`);
  t.is(introspectionError(mangled((ts) => {
    field(type(ts, 'Droid'), 'id').args.push({ name: 'extraArg', type: { kind: 'NON_NULL', name: null, ofType: { kind: 'SCALAR', name: 'Int', ofType: null } }, defaultValue: null });
  })), `Object field argument 'Droid'."id"("extraArg":) is of required type Int!, but is not provided by Interface field 'Character'."id"`);
});

test('a subtype is accepted for an interface field (non-null of the same type)', (t) => {
  t.is(introspectionError(mangled((ts) => {
    field(type(ts, 'Character'), 'name').type = { kind: 'SCALAR', name: 'String', ofType: null };
    field(type(ts, 'Droid'), 'name').type = { kind: 'NON_NULL', name: null, ofType: { kind: 'SCALAR', name: 'String', ofType: null } };
  })), null);
});

test('unions: no members, unknown member, non-object member, wrapped member type', (t) => {
  t.is(introspectionError(mangled((ts) => { type(ts, 'Search').possibleTypes = []; })), "List of member types cannot be empty for union type 'Search'");
  t.is(introspectionError(mangled((ts) => { type(ts, 'Search').possibleTypes = [{ kind: 'OBJECT', name: 'Unknown0' }, { kind: 'OBJECT', name: 'Unknown1' }]; })),
    "Could not find type 'Unknown0', which is defined as a member type of Union 'Search'");
  t.is(introspectionError(mangled((ts) => { type(ts, 'Search').possibleTypes = [{ kind: 'INTERFACE', name: 'Character' }]; })),
    "Union type 'Search' can only include object types. It cannot include 'Character'");
  const i = mangled(() => {}).__schema.types.findIndex((x) => x.name === 'Search');
  t.is(introspectionError(mangled((ts) => { type(ts, 'Search').possibleTypes = [{ kind: 'NON_NULL', name: null, ofType: { kind: 'OBJECT', name: 'Human' } }]; })),
    `Error in $.types[${i}].possibleTypes[0].name: parsing Text failed, expected String, but encountered Null`);
});

test('shape errors name the path', (t) => {
  t.is(introspectionError({} as IntrospectionQuery), 'Error in $: key "__schema" not found');
  t.is(introspectionError({ __schema: { types: [{ kind: 'OBJECT', name: 7 }] } } as unknown as IntrospectionQuery),
    'Error in $.types[0].name: parsing Text failed, expected String, but encountered Number');
});
