// Columns whose names are not GraphQL names (`say hi`, `b-c`): left out of the GraphQL schema, as the original
// leaves out what does not conform to GraphQL's naming, while the table serves its other columns (before, every
// GraphQL request failed with "Names must only contain [_a-zA-Z0-9]"). v1 DML still sees them. A table whose key
// column has such a name has no single-row (_by_pk) fields: their arguments would be that column.
import test from 'ava';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';

let e: TestEngine;

test.before(async () => {
  e = await startTestEngine();
  const r = await e.query({
    type: 'bulk',
    args: [
      { type: 'run_sql', args: { sql: `
        CREATE TABLE note (id int PRIMARY KEY, "say hi" text, "b-c" int, body text);
        INSERT INTO note VALUES (1, 'hello', 7, 'first');
        CREATE TABLE tag ("tag-id" int PRIMARY KEY, label text);
        INSERT INTO tag VALUES (5, 'red');` } },
      { type: 'track_table', args: 'note' },
      { type: 'track_table', args: 'tag' },
    ],
  });
  if (r.status !== 200) throw new Error(r.text);
});
test.after.always(async () => {
  await e?.close();
});

const fieldsOf = async (type: string): Promise<string[]> => {
  const r = await e.graphql({ query: `{ __type(name: "${type}") { fields { name } inputFields { name } } }` });
  const t = (r.body as { data: { __type: { fields: Array<{ name: string }> | null; inputFields: Array<{ name: string }> | null } } }).data.__type;
  return (t.fields ?? t.inputFields ?? []).map((f) => f.name);
};

test('a table with such columns answers queries and mutations on its other columns', async (t) => {
  t.deepEqual((await e.graphql({ query: '{ note { id body } }' })).body, { data: { note: [{ id: 1, body: 'first' }] } });
  const ins = await e.graphql({ query: 'mutation { insert_note(objects: [{id: 2, body: "second"}]) { affected_rows } }' });
  t.deepEqual(ins.body, { data: { insert_note: { affected_rows: 1 } } });
  const upd = await e.graphql({ query: 'mutation { update_note_by_pk(pk_columns: {id: 2}, _set: {body: "2nd"}) { id body } }' });
  t.deepEqual(upd.body, { data: { update_note_by_pk: { id: 2, body: '2nd' } } });
});

test('the columns are in no type of the schema', async (t) => {
  t.deepEqual(await fieldsOf('note'), ['body', 'id']);
  t.deepEqual(await fieldsOf('note_insert_input'), ['body', 'id']);
  t.deepEqual(await fieldsOf('note_set_input'), ['body', 'id']);
  t.deepEqual(await fieldsOf('note_bool_exp'), ['_and', '_not', '_or', 'body', 'id']);
});

test('a key column without a GraphQL name: the table is there, its _by_pk fields are not', async (t) => {
  t.deepEqual((await e.graphql({ query: '{ tag { label } }' })).body, { data: { tag: [{ label: 'red' }] } });
  const roots = async (type: string) => (await fieldsOf(type)).filter((n) => n.includes('tag'));
  t.deepEqual(await roots('query_root'), ['tag', 'tag_aggregate']);
  t.deepEqual(await roots('mutation_root'), ['delete_tag', 'insert_tag', 'insert_tag_one', 'update_tag']);
});

test('v1 select still sees every column', async (t) => {
  const r = await e.query({ type: 'select', args: { table: 'note', columns: ['*'], where: { id: 1 } } });
  t.deepEqual(r.body, [{ id: 1, 'say hi': 'hello', 'b-c': 7, body: 'first' }]);
});
