// Shape-keyed plans: a variable in a structural position (objects, where, order_by) is cached per its shape; the
// same shape reuses the plan with other values, another shape gets its own plan, and results stay right.
import test from 'ava';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';
import { planCacheStats } from '../../src/execute/plan.js';

let e: TestEngine;

test.before(async () => {
  e = await startTestEngine({ stringifyNumericTypes: true });
  const r = await e.query({ type: 'bulk', args: [
    { type: 'run_sql', args: { sql: `
      CREATE TABLE parent (id serial PRIMARY KEY, name text NOT NULL, score int NOT NULL DEFAULT 0, note text, price numeric);
      CREATE TABLE child (id serial PRIMARY KEY, parent_id int NOT NULL REFERENCES parent(id), label text NOT NULL);
      CREATE TYPE mood AS ENUM ('ok', 'sad');
      CREATE TABLE tag (id serial PRIMARY KEY, name text, flag boolean, info jsonb);
      INSERT INTO tag (name, flag, info) VALUES ('a', true, '{"k": 1}'), ('b', false, '{"k": 2}'), ('c', NULL, NULL);` } },
    { type: 'track_table', args: { schema: 'public', name: 'parent' } },
    { type: 'track_table', args: { schema: 'public', name: 'child' } },
    { type: 'track_table', args: { schema: 'public', name: 'tag' } },
    { type: 'create_array_relationship', args: { table: 'parent', name: 'children', using: { foreign_key_constraint_on: { table: 'child', column: 'parent_id' } } } },
    { type: 'create_insert_permission', args: { table: 'parent', role: 'user', permission: { check: { score: { _gte: 0 } }, columns: ['name', 'score'] } } },
    { type: 'create_select_permission', args: { table: 'parent', role: 'user', permission: { columns: ['id', 'name', 'score'], filter: {} } } },
  ] });
  if (r.status !== 200) throw new Error(`setup failed: ${r.text}`);
});
test.after.always(async () => {
  await e?.close();
});

type Stats = ReturnType<typeof planCacheStats>;
const stats = (): Stats => planCacheStats(e.engine.state());
/** Shape-cache hits and misses since `before`. */
const delta = (before: Stats): { hits: number; misses: number } => {
  const a = stats();
  return { hits: a.shapeHits - before.shapeHits, misses: a.shapeMisses - before.shapeMisses };
};

const INSERT = `mutation ($objects: [parent_insert_input!]!) {
  insert_parent(objects: $objects) { affected_rows returning { name score note children(order_by: {id: asc}) { label } } }
}`;

test.serial('insert objects as a variable: same shape hits the cached plan with other values; other shapes get their own plans', async (t) => {
  const run = async (objects: unknown) => (await e.graphql({ query: INSERT, variables: { objects } })).body;
  const first = await run([{ name: 'p1', score: 1, children: { data: [{ label: 'c1' }] } }]);
  t.deepEqual(first, { data: { insert_parent: { affected_rows: 2, returning: [{ name: 'p1', score: 1, note: null, children: [{ label: 'c1' }] }] } } });

  let s = stats();
  const same = await run([{ name: 'p2', score: 7, children: { data: [{ label: 'c2' }] } }]);
  t.deepEqual(same, { data: { insert_parent: { affected_rows: 2, returning: [{ name: 'p2', score: 7, note: null, children: [{ label: 'c2' }] }] } } });
  t.deepEqual(delta(s), { hits: 1, misses: 0 });

  // more objects, an extra key, null vs value, fewer children: each its own plan, each right
  s = stats();
  const more = await run([{ name: 'p3', score: 1, children: { data: [{ label: 'x' }] } }, { name: 'p4', score: 2, children: { data: [{ label: 'y' }, { label: 'z' }] } }]);
  t.deepEqual(more, { data: { insert_parent: { affected_rows: 5, returning: [
    { name: 'p3', score: 1, note: null, children: [{ label: 'x' }] },
    { name: 'p4', score: 2, note: null, children: [{ label: 'y' }, { label: 'z' }] },
  ] } } });
  const extra = await run([{ name: 'p5', score: 1, note: 'hi', children: { data: [{ label: 'w' }] } }]);
  t.deepEqual(extra, { data: { insert_parent: { affected_rows: 2, returning: [{ name: 'p5', score: 1, note: 'hi', children: [{ label: 'w' }] }] } } });
  const nulled = await run([{ name: 'p6', score: 1, note: null, children: { data: [{ label: 'v' }] } }]);
  t.deepEqual(nulled, { data: { insert_parent: { affected_rows: 2, returning: [{ name: 'p6', score: 1, note: null, children: [{ label: 'v' }] }] } } });
  const bare = await run({ name: 'p7', score: 3 });
  t.deepEqual(bare, { data: { insert_parent: { affected_rows: 1, returning: [{ name: 'p7', score: 3, note: null, children: [] }] } } });
  t.deepEqual(delta(s), { hits: 0, misses: 4 });

  // and each of those shapes is cached in turn (a single object and a one-element list coerce alike: one plan)
  s = stats();
  const extra2 = await run([{ name: 'p8', score: 9, note: 'yo', children: { data: [{ label: 'u' }] } }]);
  t.deepEqual(extra2, { data: { insert_parent: { affected_rows: 2, returning: [{ name: 'p8', score: 9, note: 'yo', children: [{ label: 'u' }] }] } } });
  const bare2 = await run([{ name: 'p9', score: 4 }]);
  t.deepEqual(bare2, { data: { insert_parent: { affected_rows: 1, returning: [{ name: 'p9', score: 4, note: null, children: [] }] } } });
  t.deepEqual(delta(s), { hits: 2, misses: 0 });

  const count = await e.graphql({ query: '{ parent_aggregate { aggregate { count } } child_aggregate { aggregate { count } } }' });
  t.deepEqual(count.body, { data: { parent_aggregate: { aggregate: { count: 9 } }, child_aggregate: { aggregate: { count: 8 } } } });
});

test.serial('values inside a structural variable still go through validation and errors on every request', async (t) => {
  const q = 'mutation ($o: [parent_insert_input!]!) { insert_parent(objects: $o) { affected_rows } }';
  const ok = await e.graphql({ query: q, variables: { o: [{ name: 'v1', score: 1 }] } });
  t.deepEqual(ok.body, { data: { insert_parent: { affected_rows: 1 } } });
  const bad = await e.graphql({ query: q, variables: { o: [{ name: 'v2', score: 'x' }] } });
  t.like(bad.body, { errors: [{ extensions: { code: 'data-exception' } }] });
  const notInt = await e.graphql({ query: q, variables: { o: [{ name: 'v2', score: true }] } });
  t.like(notInt.body, { errors: [{ extensions: { code: 'parse-failed' } }] });
  const unknown = await e.graphql({ query: q, variables: { o: [{ name: 'v2', nope: 1 }] } });
  t.like(unknown.body, { errors: [{ extensions: { code: 'validation-failed' } }] });
  const missing = await e.graphql({ query: q, variables: { o: [{ name: null, score: 2 }] } });
  t.like(missing.body, { errors: [{ extensions: { code: 'constraint-violation' } }] });
  // the role's check applies to cached plans too
  const s = stats();
  const checked = await e.graphql({ query: q, variables: { o: [{ name: 'v3', score: -1 }] } }, { 'X-Engine-Role': 'user' });
  t.like(checked.body, { errors: [{ extensions: { code: 'permission-error' } }] });
  const passes = await e.graphql({ query: q, variables: { o: [{ name: 'v4', score: 5 }] } }, { 'X-Engine-Role': 'user' });
  t.deepEqual(passes.body, { data: { insert_parent: { affected_rows: 1 } } });
  const fails = await e.graphql({ query: q, variables: { o: [{ name: 'v5', score: -5 }] } }, { 'X-Engine-Role': 'user' });
  t.like(fails.body, { errors: [{ extensions: { code: 'permission-error' } }] });
  // the role's first request prepares without looking in the shape cache; the next two hit it
  t.deepEqual(delta(s), { hits: 2, misses: 0 });
});

test.serial('where and order_by as variables: plans per structure; Booleans, enums and nulls are part of the shape', async (t) => {
  const q = 'query ($w: tag_bool_exp, $o: [tag_order_by!]) { tag(where: $w, order_by: $o) { name } }';
  const run = async (w: unknown, o: unknown = [{ id: 'asc' }]) => (await e.graphql({ query: q, variables: { w, o } })).body;
  const names = (...n: string[]) => ({ data: { tag: n.map((name) => ({ name })) } });
  t.deepEqual(await run({ name: { _eq: 'a' } }), names('a'));
  let s = stats();
  t.deepEqual(await run({ name: { _eq: 'b' } }), names('b'));
  t.deepEqual(await run({ name: { _in: ['a', 'c'] } }), names('a', 'c'));
  t.deepEqual(await run({ name: { _in: ['b'] } }), names('b'));
  t.deepEqual(delta(s), { hits: 2, misses: 1 });

  s = stats();
  t.deepEqual(await run({ flag: { _is_null: true } }), names('c'));
  t.deepEqual(await run({ flag: { _is_null: false } }), names('a', 'b'));
  t.deepEqual(await run({ flag: { _is_null: true } }), names('c'));
  t.deepEqual(await run({ flag: { _eq: true } }), names('a'));
  t.deepEqual(await run({ flag: { _eq: false } }), names('b'));
  t.deepEqual(delta(s), { hits: 1, misses: 4 });

  // a null operand drops the condition; a null where is no where
  t.deepEqual(await run({ name: { _eq: null } }), names('a', 'b', 'c'));
  t.deepEqual(await run(null), names('a', 'b', 'c'));
  t.deepEqual(await run({ _or: [{ name: { _eq: 'a' } }, { info: { _contains: { k: 2 } } }] }), names('a', 'b'));
  t.deepEqual(await run({ _or: [{ name: { _eq: 'c' } }, { info: { _contains: { k: 1 } } }] }), names('a', 'c'));
  t.deepEqual(await run({ _or: [{ name: { _eq: 'c' } }] }), names('c'));

  // direction enums select the SQL: each direction its own plan
  t.deepEqual(await run({}, [{ name: 'desc' }]), names('c', 'b', 'a'));
  t.deepEqual(await run({}, [{ name: 'asc' }]), names('a', 'b', 'c'));
  t.deepEqual(await run({}, [{ name: 'desc' }]), names('c', 'b', 'a'));
  t.deepEqual(await run({}, { name: 'asc_nulls_first' }), names('a', 'b', 'c'));
});

test.serial('numbers in exponent notation inside a structural variable are part of the shape (they are rewritten)', async (t) => {
  const q = 'mutation ($o: [parent_insert_input!]!) { insert_parent(objects: $o) { returning { price } } }';
  const a = await e.graphql({ query: q, variables: { o: [{ name: 'e1', price: '1E2' }] } });
  const b = await e.graphql({ query: q, variables: { o: [{ name: 'e2', price: '2E3' }] } });
  const c = await e.graphql({ query: q, variables: { o: [{ name: 'e3', price: 7 }] } });
  const d = await e.graphql({ query: q, variables: { o: [{ name: 'e4', price: 8 }] } });
  t.deepEqual([a.body, b.body, c.body, d.body].map((x) => (x as { data: { insert_parent: { returning: Array<{ price: string }> } } }).data.insert_parent.returning[0].price), ['100.0', '2000.0', '7', '8']);
});

test.serial('a very large shape is run once and not kept', async (t) => {
  const q = 'mutation ($o: [parent_insert_input!]!) { insert_parent(objects: $o) { affected_rows } }';
  const objects = (n: number, p: string) => Array.from({ length: n }, (_, i) => ({ name: `${p}${i}`, score: i }));
  const before = stats();
  const a = await e.graphql({ query: q, variables: { o: objects(1000, 'big') } });
  const b = await e.graphql({ query: q, variables: { o: objects(1000, 'bigger') } });
  t.deepEqual([a.body, b.body], [{ data: { insert_parent: { affected_rows: 1000 } } }, { data: { insert_parent: { affected_rows: 1000 } } }]);
  t.is(stats().shapeSize, before.shapeSize);
  t.is(delta(before).hits, 0);
});
