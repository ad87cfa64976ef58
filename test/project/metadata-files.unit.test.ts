// The metadata folder's files from an export and back: actions.graphql written as the original CLI's cli-ext
// writes it, actions.yaml holding only what SDL cannot, and the original's rules when the two disagree.
import test from 'ava';
import { exportFromFiles, filesFromExport, type MetadataFile } from '../../src/project/metadata-files.js';
import { parseActionsSdl } from '../../src/project/actions-sdl.js';

const EXPORT = {
  version: 2,
  tables: [],
  actions: [
    {
      name: 'login',
      definition: { handler: 'http://auth/login', output_type: 'LoginOut!', forward_client_headers: true, headers: [{ name: 'x-a', value: 'b' }],
        arguments: [{ name: 'credentials', type: 'Credentials!' }], type: 'mutation', kind: 'synchronous', timeout: 10 },
      comment: 'log a user in',
      permissions: [{ role: 'anonymous' }],
    },
    { name: 'me', definition: { handler: 'http://auth/me', output_type: 'LoginOut', type: 'query' } },
  ],
  custom_types: {
    input_objects: [{ name: 'Credentials', fields: [{ name: 'username', type: 'String!' }, { name: 'password', type: 'String!', description: 'secret' }] }],
    objects: [{ name: 'LoginOut', description: 'a session', fields: [{ name: 'token', type: 'String!' }],
      relationships: [{ name: 'user', type: 'object', remote_table: { schema: 'public', name: 'users' }, field_mapping: { token: 'id' } }] }],
    scalars: [{ name: 'Date' }],
    enums: [{ name: 'Color', values: [{ value: 'RED', description: 'warm' }, { value: 'BLUE', is_deprecated: true }] }],
  },
};

// Written by hand in the v1.3 cli-ext's layout: one `type Mutation|Query` block per action with a blank line more,
// two more before the types; `name (` and `field : Type`; enums, inputs, objects, scalars.
const SDL = `type Mutation {
  """ log a user in """ login (
    credentials: Credentials!
  ): LoginOut!
}


type Query {
  me : LoginOut
}




enum Color {
  """ warm """ RED
  BLUE
}

input Credentials {
  username : String!
  """ secret """ password : String!
}

""" a session """ type LoginOut {
  token : String!
}

scalar Date

`;

const ACTIONS_YAML = `actions:
- name: login
  definition:
    kind: synchronous
    handler: http://auth/login
    forward_client_headers: true
    headers:
    - name: x-a
      value: b
    timeout: 10
  permissions:
  - role: anonymous
- name: me
  definition:
    kind: ""
    handler: http://auth/me
custom_types:
  enums:
  - name: Color
    values:
    - description: warm
      value: RED
    - is_deprecated: true
      value: BLUE
  input_objects:
  - name: Credentials
  objects:
  - name: LoginOut
    description: a session
    relationships:
    - name: user
      type: object
      remote_table:
        schema: public
        name: users
      field_mapping:
        token: id
  scalars:
  - name: Date
`;

const reader = (files: Partial<Record<MetadataFile, string>>) => (f: MetadataFile) => files[f] ?? null;

test('actions and custom types split into actions.graphql and actions.yaml as the original writes them', (t) => {
  const files = filesFromExport(EXPORT);
  t.is(files.get('actions.graphql'), SDL);
  t.is(files.get('actions.yaml'), ACTIONS_YAML);
  t.is(files.get('version.yaml'), 'version: 2\n');
  t.is(files.get('tables.yaml'), '[]\n');
  t.is(files.get('cron_triggers.yaml'), '[]\n');
});

test('the two files read back to the same actions and custom types', (t) => {
  const doc = exportFromFiles(reader({ 'version.yaml': 'version: 2\n', 'actions.graphql': SDL, 'actions.yaml': ACTIONS_YAML }));
  const actions = doc.actions as Array<{ name: string; definition: Record<string, unknown>; comment?: string; permissions?: unknown }>;
  t.deepEqual(actions.map((a) => a.name), ['login', 'me']);
  t.like(actions[0], { comment: 'log a user in', permissions: [{ role: 'anonymous' }] });
  t.like(actions[0].definition, { handler: 'http://auth/login', output_type: 'LoginOut!', type: 'mutation', kind: 'synchronous', timeout: 10, forward_client_headers: true });
  t.deepEqual(actions[0].definition.arguments, [{ name: 'credentials', type: 'Credentials!' }]);
  t.like(actions[1].definition, { handler: 'http://auth/me', type: 'query' });
  t.false('kind' in actions[1].definition);
  const ct = doc.custom_types as Record<string, Array<Record<string, unknown>>>;
  t.deepEqual(ct.enums[0], { name: 'Color', values: [{ value: 'RED', description: 'warm' }, { value: 'BLUE', is_deprecated: true }] });
  t.deepEqual(ct.input_objects[0].fields, [{ name: 'username', type: 'String!' }, { name: 'password', type: 'String!', description: 'secret' }]);
  t.like(ct.objects[0], { name: 'LoginOut', description: 'a session' });
  t.deepEqual(ct.scalars, [{ name: 'Date' }]);
});

test('an action only in actions.graphql gets the configured kind and handler; one only in actions.yaml is an error', (t) => {
  const sdl = 'type Mutation {\n  ping : String\n}\n';
  const doc = exportFromFiles(reader({ 'version.yaml': 'version: 2\n', 'actions.graphql': sdl }), { kind: 'asynchronous', handler_webhook_baseurl: 'http://h' });
  t.like((doc.actions as Array<{ definition: object }>)[0].definition, { handler: 'http://h/ping', kind: 'asynchronous' });
  const e = t.throws(() => exportFromFiles(reader({ 'version.yaml': 'version: 2\n', 'actions.graphql': sdl, 'actions.yaml': 'actions:\n- name: pong\n  definition:\n    kind: synchronous\n    handler: x\n' })));
  t.is(e?.message, 'actions.yaml: action pong is not present in actions.graphql');
});

test('later CLIs\' `extend type Mutation` is read too; a folder without version.yaml is refused', (t) => {
  t.deepEqual(parseActionsSdl('extend type Mutation {\n  a(x: Int): Boolean\n}\n').actions, [
    { name: 'a', type: 'mutation', arguments: [{ name: 'x', type: 'Int' }], output_type: 'Boolean' },
  ]);
  t.throws(() => exportFromFiles(reader({ 'tables.yaml': '[]\n' })), { message: /version\.yaml: not found/ });
  t.throws(() => exportFromFiles(reader({ 'version.yaml': 'version: 2\n', 'tables.yaml': 'a: 1\n' })), { message: 'tables.yaml: expected a list' });
});
