// A select permission's `limit` caps `nodes` but not the aggregate values of `<t>_aggregate` (as the original):
// count/max/sum run over every permitted row (or the client's own limit), nodes keep the first `limit` rows.
import test from 'ava';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';

let e: TestEngine;
const USER = { 'x-engine-role': 'user' };

test.before(async () => {
  e = await startTestEngine();
  const r = await e.query({
    type: 'bulk',
    args: [
      { type: 'run_sql', args: { sql: `
        CREATE TABLE shelf (id int PRIMARY KEY);
        CREATE TABLE item (id int PRIMARY KEY, shelf_id int NOT NULL REFERENCES shelf(id), n int NOT NULL);
        INSERT INTO shelf VALUES (1), (2);
        INSERT INTO item SELECT i, 1 + (i > 8)::int, i * 10 FROM generate_series(1, 10) AS i;` } },
      { type: 'track_table', args: 'shelf' },
      { type: 'track_table', args: 'item' },
      { type: 'create_array_relationship', args: { table: 'shelf', name: 'items', using: { foreign_key_constraint_on: { table: 'item', column: 'shelf_id' } } } },
      { type: 'create_select_permission', args: { table: 'item', role: 'user', permission: { columns: ['id', 'n'], filter: { n: { _gt: 10 } }, limit: 3, allow_aggregations: true } } },
      { type: 'create_select_permission', args: { table: 'shelf', role: 'user', permission: { columns: ['id'], filter: {}, allow_aggregations: true } } },
    ],
  });
  if (r.status !== 200) throw new Error(r.text);
});
test.after.always(async () => {
  await e?.close();
});

const data = async (query: string): Promise<unknown> => {
  const r = await e.graphql({ query }, USER);
  if (!r.body.data) throw new Error(r.text);
  return r.body.data;
};

test('aggregate values count every permitted row; nodes are capped by the permission limit', async (t) => {
  t.deepEqual(
    await data('{ item_aggregate(order_by: {id: asc}) { aggregate { count max { id } sum { n } } nodes { id } } }'),
    { item_aggregate: { aggregate: { count: 9, max: { id: 10 }, sum: { n: 540 } }, nodes: [{ id: 2 }, { id: 3 }, { id: 4 }] } },
  );
  t.deepEqual(
    await data('{ item_aggregate(order_by: {id: desc}) { nodes { id } aggregate { count } } }'),
    { item_aggregate: { nodes: [{ id: 10 }, { id: 9 }, { id: 8 }], aggregate: { count: 9 } } },
  );
});

test('the client limit still applies to the aggregate values; nodes alone and plain selects stay capped', async (t) => {
  t.deepEqual(
    await data('{ item_aggregate(order_by: {id: asc}, limit: 5) { aggregate { count max { id } } nodes { id } } }'),
    { item_aggregate: { aggregate: { count: 5, max: { id: 6 } }, nodes: [{ id: 2 }, { id: 3 }, { id: 4 }] } },
  );
  t.deepEqual(await data('{ item_aggregate(order_by: {id: asc}) { nodes { id } } }'), { item_aggregate: { nodes: [{ id: 2 }, { id: 3 }, { id: 4 }] } });
  t.deepEqual(await data('{ item(order_by: {id: asc}) { id } }'), { item: [{ id: 2 }, { id: 3 }, { id: 4 }] });
  t.deepEqual(
    await data('{ item_aggregate(where: {id: {_gt: 100}}) { aggregate { count } nodes { id } } }'),
    { item_aggregate: { aggregate: { count: 0 }, nodes: [] } },
  );
});

test('relationship aggregates follow the same rule', async (t) => {
  t.deepEqual(
    await data('{ shelf(order_by: {id: asc}) { id items_aggregate(order_by: {id: asc}) { aggregate { count } nodes { id } } } }'),
    { shelf: [
      { id: 1, items_aggregate: { aggregate: { count: 7 }, nodes: [{ id: 2 }, { id: 3 }, { id: 4 }] } },
      { id: 2, items_aggregate: { aggregate: { count: 2 }, nodes: [{ id: 9 }, { id: 10 }] } },
    ] },
  );
});
