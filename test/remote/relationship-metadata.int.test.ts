// Remote relationships as metadata: create/update/delete with the original's validation and messages, the export
// and replace_metadata round trip, the history, dependencies (remove_remote_schema refused, a dropped join column
// taking the relationship with it), a remote reloaded without the field (an inconsistent object, dropped by
// drop_inconsistent_metadata), introspect_remote_schema. Real Postgres, a real graphql-js server on loopback.
import test from 'ava';
import { queryOk } from '../helpers/engine.js';
import { basicRelationship, nestedArgsRelationship, REMOTE_SDL, ROOT, startFixture } from './relationship-fixture.js';
import { startRemote } from './server.js';

const invalid = (over: Record<string, unknown>) => ({ type: 'create_remote_relationship', args: { ...basicRelationship, name: 'message', ...over } });

test('create_remote_relationship: the original\'s validation messages', async (t) => {
  const f = await startFixture();
  t.teardown(() => f.close());
  const cases: Array<[Record<string, unknown>, number, string, string]> = [
    [{ remote_schema: 'my-remote-wrong' }, 400, 'constraint-violation', 'cannot validate remote relationship because remote schema with name "my-remote-wrong" not found'],
    [{ remote_field: { message_wrong: { arguments: { id: '$id' } } } }, 400, 'constraint-violation', 'cannot validate remote relationship because field with name "message_wrong" not found in remote schema'],
    [{ remote_field: { message: { arguments: { id_wrong: '$id' } } } }, 400, 'constraint-violation', 'cannot validate remote relationship because argument with name "id_wrong" not found in remote schema'],
    [{ engine_fields: ['id_wrong', 'name'] }, 400, 'constraint-violation', 'cannot validate remote relationship because field with name "id_wrong" not found in table "profiles"'],
    [{ engine_fields: ['id', 'name'], remote_field: { message: { arguments: { id: '$name' } } } }, 400, 'constraint-violation', 'cannot validate remote relationship because expected type "Int" but got "String"'],
    [{ remote_field: { message: { arguments: { id: 'abc' } } } }, 400, 'constraint-violation', 'cannot validate remote relationship because expected type "Int" but got "String"'],
    [{ remote_field: { message: { arguments: { id: '$id_wrong' } } } }, 400, 'constraint-violation', 'cannot validate remote relationship because variable "id_wrong" is not found'],
    [{ remote_field: { messages: { arguments: { where: { id: { xyz: '$id' } } } } } }, 400, 'constraint-violation', 'cannot validate remote relationship because argument with name "xyz" not found in remote schema'],
    [{ remote_field: { messages: { arguments: { where: { id: { eq: ['$id'] } } } } } }, 400, 'constraint-violation', 'cannot validate remote relationship because type "Int" is not a list type'],
    [{ remote_field: { message: { arguments: { id: '$id' } }, hello: { arguments: {} } } }, 400, 'parse-failed', 'Only one field allowed, not multiple.'],
    [{ remote_field: { message: { arguments: { id: '$1d' } } } }, 400, 'parse-failed', 'Invalid variable name.'],
    [{ table: 'nope' }, 400, 'not-exists', 'table "nope" does not exist'],
    [{ name: 'name' }, 400, 'already-exists', 'field "name" of table "profiles" already exists'],
  ];
  for (const [over, status, code, error] of cases) {
    const r = await f.engine.query(invalid(over));
    t.like({ status: r.status, ...(r.body as object) }, { status, code, error }, JSON.stringify(over));
  }
  t.deepEqual((await f.engine.query({ type: 'export_metadata', args: {} })).body.tables[0].remote_relationships, undefined, 'nothing was stored');
  // The valid shapes the original accepts: a singleton joined to a list argument, a list template, nested fields.
  const valid = [
    { name: 'remoteUsers', remote_field: { users: { arguments: { user_ids: '$id' } } } },
    { name: 'remoteUsersMultipleIds', remote_field: { users: { arguments: { user_ids: ['$id'] } } } },
    { name: 'userNestedFields', engine_fields: ['id', 'name'], remote_field: { user: { arguments: { user_id: '$id' }, field: { userMessages: { arguments: { whered: { name: { eq: '$name' } } } } } } } },
    { name: 'occupation', engine_fields: ['name'], remote_field: { getOccupation: { arguments: { name: '$name' } } } },
  ];
  for (const v of valid) {
    const r = await f.engine.query({ type: 'create_remote_relationship', args: { ...basicRelationship, ...v } });
    t.is(r.status, 200, `${v.name}: ${r.text}`);
  }
});

test('update and delete; export, replace_metadata and the history keep them', async (t) => {
  const f = await startFixture();
  t.teardown(() => f.close());
  await queryOk(f.engine, { type: 'create_remote_relationship', args: basicRelationship });
  const exported = (await f.engine.query({ type: 'export_metadata', args: {} })).body;
  t.deepEqual(exported.tables[0].remote_relationships, [
    { name: 'messageBasic', definition: { remote_schema: 'my-remote', engine_fields: ['id'], remote_field: { message: { arguments: { id: '$id' } } } } },
  ]);
  await queryOk(f.engine, { type: 'update_remote_relationship', args: { ...basicRelationship, remote_field: { user: { arguments: { user_id: '$id' } } } } });
  const q = '{ profiles(order_by: {id: asc}, limit: 1) { messageBasic { user_id } } }';
  t.deepEqual((await f.engine.graphql({ query: q })).body, { data: { profiles: [{ messageBasic: { user_id: 1 } }] } });
  t.like((await f.engine.query({ type: 'update_remote_relationship', args: { ...basicRelationship, name: 'other' } })).body, { code: 'not-exists', error: '"other" does not exist' });
  t.like((await f.engine.query({ type: 'delete_remote_relationship', args: { table: 'profiles', name: 'id' } })).body, { code: 'unexpected-payload', error: 'expecting a remote relationship' });
  await queryOk(f.engine, { type: 'replace_metadata', args: exported });
  t.deepEqual((await f.engine.graphql({ query: q.replace('user_id', 'msg') })).body, { data: { profiles: [{ messageBasic: { msg: 'You win!' } }] } });
  await queryOk(f.engine, { type: 'delete_remote_relationship', args: { table: 'profiles', name: 'messageBasic' } });
  t.is((await f.engine.query({ type: 'export_metadata', args: {} })).body.tables[0].remote_relationships, undefined);
  const history = (await f.engine.query({ type: 'engine_history_list', args: {} })).body as { entries: Array<{ summary: string; seq: number }> };
  const summaries = history.entries.map((e) => e.summary);
  t.true(summaries.includes('created remote relationship messageBasic on public.profiles') || summaries.some((s) => s.startsWith('created remote relationship messageBasic')), summaries.join('\n'));
  t.true(summaries.some((s) => s.startsWith('deleted remote relationship messageBasic')));
  const created = history.entries.find((e) => e.summary.startsWith('created remote relationship'))!;
  const then = (await f.engine.query({ type: 'engine_history_export', args: { version: created.seq } })).body;
  t.is(then.tables[0].remote_relationships[0].name, 'messageBasic');
  const diff = (await f.engine.query({ type: 'engine_history_diff', args: { from: created.seq - 1, to: created.seq } })).body as { changes: Array<{ kind: string; path: string }> };
  t.deepEqual(diff.changes.map((c) => [c.kind, c.path]), [['added', 'tables[public.profiles].remote_relationships[messageBasic]']]);
  await queryOk(f.engine, { type: 'clear_metadata', args: {} });
  t.deepEqual((await f.engine.query({ type: 'export_metadata', args: {} })).body.tables, []);
});

test('dependencies: remove_remote_schema refused; a dropped join column (cascade) and a renamed one', async (t) => {
  const f = await startFixture();
  t.teardown(() => f.close());
  await queryOk(f.engine, { type: 'create_remote_relationship', args: nestedArgsRelationship });
  const rm = await f.engine.query({ type: 'remove_remote_schema', args: { name: 'my-remote' } });
  t.like({ status: rm.status, ...(rm.body as object) }, { status: 400, code: 'dependency-error' });
  await queryOk(f.engine, { type: 'run_sql', args: { sql: 'ALTER TABLE profiles RENAME COLUMN id TO profile_id' } });
  const r = await f.engine.graphql({ query: '{ profiles(order_by: {profile_id: asc}) { profile_id messagesNestedArgs(where: {name: {eq: "alice"}}) { id } } }' });
  t.deepEqual(r.body, { data: { profiles: [{ profile_id: 1, messagesNestedArgs: [{ id: 1 }] }, { profile_id: 2, messagesNestedArgs: [] }, { profile_id: 3, messagesNestedArgs: [{ id: 3 }] }] } });
  const refused = await f.engine.query({ type: 'run_sql', args: { sql: 'ALTER TABLE profiles DROP COLUMN profile_id' } });
  t.like({ status: refused.status, ...(refused.body as object) }, { status: 400, code: 'dependency-error' });
  await queryOk(f.engine, { type: 'run_sql', args: { sql: 'ALTER TABLE profiles DROP COLUMN profile_id', cascade: true } });
  t.is((await f.engine.query({ type: 'export_metadata', args: {} })).body.tables[0].remote_relationships, undefined);
  await queryOk(f.engine, { type: 'remove_remote_schema', args: { name: 'my-remote' } });
});

test('a remote reloaded without the field: an inconsistent object, dropped by drop_inconsistent_metadata', async (t) => {
  const f = await startFixture();
  t.teardown(() => f.close());
  await queryOk(f.engine, { type: 'create_remote_relationship', args: basicRelationship });
  f.remote.options.mangleIntrospection = (schema) => {
    const types = schema.types as Array<{ name: string; fields: Array<{ name: string }> | null }>;
    const query = types.find((x) => x.name === 'Query')!;
    query.fields = query.fields!.filter((x) => x.name !== 'message');
  };
  await queryOk(f.engine, { type: 'reload_remote_schema', args: { name: 'my-remote' } });
  const inc = (await f.engine.query({ type: 'get_inconsistent_metadata', args: {} })).body;
  t.like(inc, {
    is_consistent: false,
    inconsistent_objects: [{ type: 'remote_relationship', reason: 'cannot validate remote relationship because field with name "message" not found in remote schema' }],
  });
  const r = await f.engine.graphql({ query: '{ profiles { id messageBasic { msg } } }' });
  t.is((r.body as { errors: Array<{ extensions: { code: string } }> }).errors[0].extensions.code, 'validation-failed');
  t.deepEqual((await f.engine.graphql({ query: '{ profiles(limit: 1) { id } }' })).body, { data: { profiles: [{ id: 1 }] } });
  await queryOk(f.engine, { type: 'drop_inconsistent_metadata', args: {} });
  t.deepEqual((await f.engine.query({ type: 'get_inconsistent_metadata', args: {} })).body, { is_consistent: true, inconsistent_objects: [] });
  t.is((await f.engine.query({ type: 'export_metadata', args: {} })).body.tables[0].remote_relationships, undefined);
});

test('introspect_remote_schema: the kept introspection; an unknown name', async (t) => {
  const f = await startFixture();
  t.teardown(() => f.close());
  const r = await f.engine.query({ type: 'introspect_remote_schema', args: { name: 'my-remote' } });
  t.is(r.status, 200);
  const types = (r.body as { data: { __schema: { queryType: { name: string }; types: Array<{ name: string }> } } }).data.__schema;
  t.is(types.queryType.name, 'Query');
  t.true(types.types.some((x) => x.name === 'MessageWhereInpObj'));
  const missing = await f.engine.query({ type: 'introspect_remote_schema', args: { name: 'nope' } });
  t.like({ status: missing.status, ...(missing.body as object) }, { status: 400, code: 'not-exists', error: 'remote schema: "nope" not found' });
});

test('the relationship is a field of the table type for every role that can select the table; not on relay', async (t) => {
  const other = await startRemote(REMOTE_SDL, ROOT);
  t.teardown(() => other.close());
  const f = await startFixture();
  t.teardown(() => f.close());
  await queryOk(f.engine, { type: 'create_remote_relationship', args: nestedArgsRelationship });
  await queryOk(f.engine, { type: 'create_remote_relationship', args: basicRelationship });
  await queryOk(f.engine, {
    type: 'create_select_permission',
    args: { table: 'profiles', role: 'user', permission: { columns: ['name'], filter: { id: { _eq: 'X-Engine-User-Id' } } } },
  });
  const typeQuery = '{ __type(name: "profiles") { fields { name args { name type { name } } } } }';
  const fields = (await f.engine.graphql({ query: typeQuery })).body.data.__type.fields as Array<{ name: string; args: Array<{ name: string; type: { name: string } }> }>;
  t.deepEqual(fields.map((x) => x.name), ['id', 'messageBasic', 'messagesNestedArgs', 'name']);
  t.deepEqual(fields[2].args, [
    { name: 'includes', type: { name: 'IncludeInpObj' } },
    { name: 'where', type: { name: 'MessageWhereInpObj_remote_rel_public_profilesmessagesNestedArgs' } },
  ]);
  const cloned = await f.engine.graphql({ query: '{ __type(name: "MessageWhereInpObj_remote_rel_public_profilesmessagesNestedArgs") { inputFields { name type { name } } } }' });
  t.deepEqual(cloned.body.data.__type.inputFields, [
    { name: 'id', type: { name: 'IntCompareObj_remote_rel_public_profilesmessagesNestedArgs' } },
    { name: 'name', type: { name: 'StringCompareObj' } },
  ]);
  const asUser = { 'x-engine-role': 'user', 'x-engine-user-id': '2' };
  t.deepEqual((await f.engine.graphql({ query: '{ profiles { name messageBasic { msg } } }' }, asUser)).body, { data: { profiles: [{ name: 'bob', messageBasic: { msg: 'You lose!' } }] } });
  const noRole = await f.engine.graphql({ query: '{ __type(name: "profiles") { name } }' }, { 'x-engine-role': 'nobody' });
  t.deepEqual(noRole.body, { data: { __type: null } });
  const relay = await f.engine.post('/v1beta1/relay', { query: typeQuery.replace('"profiles"', '"profiles"') });
  const relayFields = (relay.body as { data: { __type: { fields: Array<{ name: string }> } | null } }).data.__type?.fields.map((x) => x.name) ?? [];
  t.deepEqual(relayFields, ['id', 'name'], 'the relay type has the columns, not the remote relationships');
});
