import test from 'ava';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { compileLiveQuery, liveQueryParams } from '../../src/sql/live.js';
import { compact } from './db.js';
import { asc, cols, eq, lit, query, rootSelect, select, table, T, variable } from './ir.js';

let db: TestDatabase;
let pool: pg.Pool;

test.before(async () => {
  db = await createTestDatabase('c2live');
  pool = new pg.Pool({ connectionString: db.url, max: 1 });
  await pool.query(`CREATE TABLE item (id int PRIMARY KEY, owner text, tags int[]); INSERT INTO item VALUES (1, 'ann', '{1}'), (2, 'bob', '{2}'), (3, 'ann', '{1,2}')`);
});
test.after.always(async () => {
  await pool?.end();
  await db?.drop();
});

test('one statement answers every subscriber with its own variables and session', async (t) => {
  const op = query(['item', rootSelect(select(table('item'), cols('id'), {
    where: { kind: 'and', items: [
      eq('owner', { kind: 'session', name: 'x-engine-user-id', pgType: T('text') }),
      { kind: 'column', column: 'id', op: '_gte', value: variable('min') },
      { kind: 'column', column: 'tags', op: '_contains', value: variable('tags', 'int4', [], true) },
    ] },
    orderBy: [asc('id')], limit: lit(10),
  }))]);
  const plan = compileLiveQuery({ ...op, operation: 'subscription' });
  t.regex(plan.text, /\("_subs"\."vars"->>0\)::"text"/);
  const params = liveQueryParams(plan, [
    { id: 'a', source: { variables: { min: 1, tags: [1] }, sessionVariables: { 'x-engine-user-id': 'ann' } } },
    { id: 'b', source: { variables: { min: 3, tags: [1] }, sessionVariables: { 'x-engine-user-id': 'ann' } } },
    { id: 'c', source: { variables: { min: 1, tags: [] }, sessionVariables: { 'x-engine-user-id': 'bob' } } },
  ]);
  const r = await pool.query<[string, string]>({ text: plan.text, values: params, rowMode: 'array' });
  t.deepEqual(r.rows.map(([id, data]) => [id, compact(data)]), [
    ['a', '{"item":[{"id":1},{"id":3}]}'],
    ['b', '{"item":[{"id":3}]}'],
    ['c', '{"item":[{"id":2}]}'],
  ]);
});
