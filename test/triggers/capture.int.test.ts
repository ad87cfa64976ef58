// Capture on real Postgres: the event row is written by a Postgres trigger in the changing transaction (payload
// per op, update column filter, payload subsets, session variables, rollback), and the triggers follow the
// metadata (replace, delete, untrack, clear, run_sql renames). Delivery is off here (no webhook listens).
import test from 'ava';
import pg from 'pg';
import { createTestDatabase } from '../helpers/db.js';
import { queryOk, startTestEngine, type TestEngine } from '../helpers/engine.js';

let e: TestEngine;
let db: pg.Client;

test.before(async () => {
  const database = await createTestDatabase('h11');
  // Webhooks point at a closed port: these tests read what was captured in event_log.
  e = await startTestEngine({ database, eventsFetchInterval: 600_000 });
  db = new pg.Client({ connectionString: database.url });
  await db.connect();
});
test.after.always(async () => {
  await db?.end();
  await e?.close();
  await e?.db.drop();
});

const ok = (body: unknown, headers?: Record<string, string>) => queryOk(e, body, headers);

const HOOK = 'http://127.0.0.1:9/hook';

async function table(name: string, trigger: Record<string, unknown>): Promise<void> {
  await ok({
    type: 'bulk',
    args: [
      { type: 'run_sql', args: { sql: `CREATE TABLE ${name} (id int PRIMARY KEY, a text, b int, j json)` } },
      { type: 'track_table', args: name },
      { type: 'create_event_trigger', args: { name: `${name}_t`, table: name, webhook: HOOK, ...trigger } },
    ],
  });
}

interface Row {
  op: string;
  data: { old: unknown; new: unknown };
  session_variables: unknown;
}

async function events(trigger: string): Promise<Row[]> {
  const r = await db.query<{ payload: Row }>('SELECT payload FROM engine_catalog.event_log WHERE trigger_name = $1 ORDER BY created_at', [trigger]);
  return r.rows.map((x) => x.payload);
}

test.serial('each op writes its event: INSERT new, UPDATE old+new, DELETE old; plain SQL has null session variables', async (t) => {
  await table('ops', { insert: { columns: '*' }, update: { columns: '*' }, delete: { columns: '*' } });
  await db.query(`INSERT INTO ops VALUES (1, 'x', 2, '{"k": 1}')`);
  await db.query(`UPDATE ops SET a = 'y' WHERE id = 1`);
  await db.query(`UPDATE ops SET a = 'y' WHERE id = 1`); // no change: no event
  await db.query(`DELETE FROM ops WHERE id = 1`);
  const row1 = { id: 1, a: 'x', b: 2, j: { k: 1 } };
  const row2 = { ...row1, a: 'y' };
  t.deepEqual(await events('ops_t'), [
    { op: 'INSERT', data: { old: null, new: row1 }, session_variables: null },
    { op: 'UPDATE', data: { old: row1, new: row2 }, session_variables: null },
    { op: 'DELETE', data: { old: row2, new: null }, session_variables: null },
  ]);
  // (Delivery to the closed port fails meanwhile: the delivery flags are tested in delivery.int.test.ts.)
  const full = await db.query('SELECT schema_name, table_name, delivered, archived FROM engine_catalog.event_log WHERE trigger_name = $1', ['ops_t']);
  t.deepEqual(full.rows, [0, 1, 2].map(() => ({ schema_name: 'public', table_name: 'ops', delivered: false, archived: false })));
});

test.serial('update columns filter; payload subsets per op; a json column does not break the comparison', async (t) => {
  await table('cols', { insert: { columns: '*', payload: ['id'] }, update: { columns: ['b', 'j'], payload: ['id', 'b'] }, delete: { columns: '*', payload: ['a'] } });
  await db.query(`INSERT INTO cols VALUES (1, 'x', 2, '{}')`);
  await db.query(`UPDATE cols SET a = 'changed' WHERE id = 1`); // a is not listened to
  await db.query(`UPDATE cols SET b = 3 WHERE id = 1`);
  await db.query(`UPDATE cols SET j = '{ }' WHERE id = 1`); // json text differs: a change
  await db.query(`UPDATE cols SET b = NULL WHERE id = 1`);
  await db.query(`DELETE FROM cols`);
  t.deepEqual(await events('cols_t'), [
    { op: 'INSERT', data: { old: null, new: { id: 1 } }, session_variables: null },
    { op: 'UPDATE', data: { old: { id: 1, b: 2 }, new: { id: 1, b: 3 } }, session_variables: null },
    { op: 'UPDATE', data: { old: { id: 1, b: 3 }, new: { id: 1, b: 3 } }, session_variables: null },
    { op: 'UPDATE', data: { old: { id: 1, b: 3 }, new: { id: 1, b: null } }, session_variables: null },
    { op: 'DELETE', data: { old: { a: 'changed' }, new: null }, session_variables: null },
  ]);
});

test.serial('session variables of a GraphQL mutation and of v1 DML; rolled-back changes leave no event', async (t) => {
  await table('sess', { insert: { columns: '*' }, update: { columns: '*' } });
  const g = await e.graphql({ query: 'mutation { insert_sess(objects: [{id: 1, a: "g"}]) { affected_rows } }' }, { 'x-engine-role': 'admin', 'x-engine-user-id': '42' });
  t.is(g.status, 200, g.text);
  t.deepEqual(g.body, { data: { insert_sess: { affected_rows: 1 } } });
  // Two root fields: one transaction, the session set once for both.
  const g2 = await e.graphql({ query: 'mutation { a: update_sess(where: {id: {_eq: 1}}, _set: {b: 5}) { affected_rows } b: insert_sess_one(object: {id: 2}) { id } }' }, { 'x-engine-user-id': '7' });
  t.is(g2.status, 200, g2.text);
  await ok({ type: 'insert', args: { table: 'sess', objects: [{ id: 3 }] } }, { 'x-engine-role': 'admin', 'x-engine-random': 'r', 'X-Other': 'no' });
  // A failing mutation (duplicate key) and a failing bulk roll back their events.
  const dup = await e.graphql({ query: 'mutation { insert_sess(objects: [{id: 10}, {id: 1}]) { affected_rows } }' });
  t.deepEqual(dup.body, { errors: [{ extensions: { path: '$.selectionSet.insert_sess.args.objects', code: 'constraint-violation' }, message: 'Uniqueness violation. duplicate key value violates unique constraint "sess_pkey"' }] });
  const bulk = await e.query({ type: 'bulk', args: [{ type: 'insert', args: { table: 'sess', objects: [{ id: 11 }] } }, { type: 'run_sql', args: { sql: 'SELECT 1/0' } }] });
  t.is(bulk.status, 400);
  await db.query('BEGIN');
  await db.query('INSERT INTO sess (id) VALUES (12)');
  await db.query('ROLLBACK');
  const got = await events('sess_t');
  t.deepEqual(got.map((x) => [x.op, (x.data.new as { id: number }).id, x.session_variables]), [
    ['INSERT', 1, { 'x-engine-role': 'admin', 'x-engine-user-id': '42' }],
    ['UPDATE', 1, { 'x-engine-role': 'admin', 'x-engine-user-id': '7' }],
    ['INSERT', 2, { 'x-engine-role': 'admin', 'x-engine-user-id': '7' }],
    ['INSERT', 3, { 'x-engine-role': 'admin', 'x-engine-random': 'r' }],
  ]);
});

test.serial('a bulk that creates a trigger captures its own later inserts; clear_metadata archives them', async (t) => {
  await ok({ type: 'run_sql', args: { sql: 'CREATE TABLE inbulk (id int PRIMARY KEY)' } });
  await ok({
    type: 'bulk',
    args: [
      { type: 'track_table', args: 'inbulk' },
      { type: 'create_event_trigger', args: { name: 'inbulk_t', table: 'inbulk', webhook: HOOK, insert: { columns: '*' } } },
      { type: 'insert', args: { table: 'inbulk', objects: [{ id: 1 }] } },
      { type: 'run_sql', args: { sql: 'INSERT INTO inbulk VALUES (2)' } },
    ],
  });
  t.deepEqual((await events('inbulk_t')).map((x) => (x.data.new as { id: number }).id), [1, 2]);
  // The v1 select reads engine_catalog.event_log, as users of the original read hdb_catalog's.
  const sel = await ok({ type: 'select', args: { table: { schema: 'engine_catalog', name: 'event_log' }, columns: ['trigger_name', 'archived'], where: { trigger_name: 'inbulk_t' }, order_by: ['-created_at'], limit: 1 } });
  t.deepEqual(sel, [{ trigger_name: 'inbulk_t', archived: false }]);
  const conf = await ok({ type: 'select', args: { table: { schema: 'engine_catalog', name: 'event_triggers' }, columns: ['name', 'schema_name', 'table_name', 'configuration'], where: { name: 'inbulk_t' } } });
  t.like((conf as Array<{ configuration: { webhook: string } }>)[0], { name: 'inbulk_t', schema_name: 'public', table_name: 'inbulk', configuration: { webhook: HOOK } });
  // Other roles cannot read them.
  const denied = await e.query({ type: 'select', args: { table: { schema: 'engine_catalog', name: 'event_log' }, columns: ['id'] } }, { 'x-engine-role': 'user' });
  t.is(denied.status, 400);
});

test.serial('replace changes the filter; delete and untrack remove the Postgres triggers and archive the events', async (t) => {
  await table('life', { insert: { columns: '*' } });
  await db.query('INSERT INTO life (id) VALUES (1)');
  await ok({ type: 'create_event_trigger', args: { name: 'life_t', table: 'life', webhook: HOOK, update: { columns: ['b'] }, replace: true } });
  await db.query('INSERT INTO life (id) VALUES (2)'); // no insert spec any more
  await db.query("UPDATE life SET a = 'x'"); // not b
  await db.query('UPDATE life SET b = 1 WHERE id = 2');
  t.deepEqual((await events('life_t')).map((x) => x.op), ['INSERT', 'UPDATE']);
  const pgTriggers = async () => (await db.query(`SELECT tgname FROM pg_trigger WHERE tgrelid = 'public.life'::regclass AND NOT tgisinternal ORDER BY 1`)).rows.map((r) => r.tgname);
  t.deepEqual(await pgTriggers(), ['notify_engine_life_t_UPDATE']);
  await ok({ type: 'delete_event_trigger', args: { name: 'life_t' } });
  t.deepEqual(await pgTriggers(), []);
  await db.query('UPDATE life SET b = 2');
  const arch = await db.query('SELECT archived FROM engine_catalog.event_log WHERE trigger_name = $1', ['life_t']);
  t.deepEqual(arch.rows.map((r) => r.archived), [true, true]);
  const fns = await db.query(`SELECT count(*)::int AS n FROM pg_proc WHERE proname LIKE 'notify_engine_life_t%'`);
  t.is(fns.rows[0].n, 0);
  // untrack: the table's triggers go with it
  await ok({ type: 'create_event_trigger', args: { name: 'life_t2', table: 'life', webhook: HOOK, delete: { columns: '*' } } });
  t.deepEqual(await pgTriggers(), ['notify_engine_life_t2_DELETE']);
  await ok({ type: 'untrack_table', args: { table: 'life' } });
  t.deepEqual(await pgTriggers(), []);
});

test.serial('run_sql renames of a column and a table keep capture working; dropping a listened column is a dependency error', async (t) => {
  await table('ren', { update: { columns: ['b'], payload: ['id', 'b'] } });
  const drop = await e.query({ type: 'run_sql', args: { sql: 'ALTER TABLE ren DROP COLUMN b' } });
  t.is(drop.status, 400);
  t.is((drop.body as { code: string }).code, 'dependency-error');
  await ok({ type: 'run_sql', args: { sql: 'ALTER TABLE ren RENAME COLUMN b TO bb' } });
  await ok({ type: 'run_sql', args: { sql: 'ALTER TABLE ren RENAME TO ren2' } });
  await db.query('INSERT INTO ren2 (id, bb) VALUES (1, 1)');
  await db.query('UPDATE ren2 SET bb = 2');
  await db.query("UPDATE ren2 SET a = 'no'");
  const got = await db.query<{ table_name: string; payload: Row }>('SELECT table_name, payload FROM engine_catalog.event_log WHERE trigger_name = $1', ['ren_t']);
  t.deepEqual(got.rows, [{ table_name: 'ren2', payload: { op: 'UPDATE', data: { old: { id: 1, bb: 1 }, new: { id: 1, bb: 2 } }, session_variables: null } }]);
});

test.serial('a table dropped and re-created by run_sql gets its trigger back', async (t) => {
  await table('again', { insert: { columns: '*' } });
  // Without the consistency check the metadata keeps the table and its trigger; Postgres lost the trigger.
  await ok({ type: 'run_sql', args: { sql: 'DROP TABLE again; CREATE TABLE again (id int PRIMARY KEY, a text, b int, j json)', check_metadata_consistency: false } });
  await db.query('INSERT INTO again (id) VALUES (1)');
  t.is((await events('again_t')).length, 1);
});

async function rawEvents(trigger: string): Promise<Array<{ id: string; payload: Row }>> {
  const r = await db.query<{ id: string; payload: Row }>('SELECT id, payload FROM engine_catalog.event_log WHERE trigger_name = $1 ORDER BY created_at, id', [trigger]);
  return r.rows;
}

test.serial('one statement of many rows: an event per row with distinct ids; UPDATE pairs each old and new image, also when the key changes', async (t) => {
  await table('many', { insert: { columns: '*', payload: ['id', 'b'] }, update: { columns: ['b'] }, delete: { columns: '*', payload: ['id'] } });
  await db.query('INSERT INTO many (id, b) SELECT i, i * 10 FROM generate_series(1, 200) i');
  const inserted = await rawEvents('many_t');
  t.is(inserted.length, 200);
  t.is(new Set(inserted.map((x) => x.id)).size, 200);
  t.deepEqual(new Set(inserted.map((x) => (x.payload.data.new as { id: number }).id)), new Set(Array.from({ length: 200 }, (_, i) => i + 1)));
  t.true(inserted.every((x) => (x.payload.data.new as { id: number; b: number }).b === (x.payload.data.new as { id: number }).id * 10));
  // Ids are UUIDs of version 7 and variant 10.
  t.true(inserted.every((x) => /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(x.id)));
  await db.query('TRUNCATE engine_catalog.event_invocation_logs, engine_catalog.event_log_rows, engine_catalog.event_log_batches');
  // Every row changes b, odd rows change their key as well; rows 151.. change nothing listened to.
  await db.query(`UPDATE many SET id = CASE WHEN id % 2 = 1 THEN id + 1000 ELSE id END, b = CASE WHEN id > 150 THEN b ELSE b + 1 END, a = 'x'`);
  const updated = await rawEvents('many_t');
  t.is(updated.length, 150);
  for (const { payload } of updated) {
    const o = payload.data.old as { id: number; b: number; a: string | null };
    const n = payload.data.new as { id: number; b: number; a: string };
    t.deepEqual([n.id, n.b, o.a, n.a], [o.id % 2 === 1 ? o.id + 1000 : o.id, o.b + 1, null, 'x']);
  }
  t.deepEqual(new Set(updated.map((x) => (x.payload.data.old as { id: number }).id)), new Set(Array.from({ length: 150 }, (_, i) => i + 1)));
  // ON CONFLICT DO UPDATE: an insert event for the new row, an update event for the conflicting one.
  await db.query('TRUNCATE engine_catalog.event_invocation_logs, engine_catalog.event_log_rows, engine_catalog.event_log_batches');
  await db.query('INSERT INTO many (id, b) VALUES (2, 0), (5000, 1) ON CONFLICT (id) DO UPDATE SET b = excluded.b');
  t.deepEqual((await rawEvents('many_t')).map((x) => [x.payload.op, x.payload.data.new]).sort(), [
    ['INSERT', { id: 5000, b: 1 }],
    ['UPDATE', { id: 2, a: 'x', b: 0, j: null }],
  ]);
  // Statements that change no row (or no listened column) write nothing.
  await db.query('TRUNCATE engine_catalog.event_invocation_logs, engine_catalog.event_log_rows, engine_catalog.event_log_batches');
  await db.query('DELETE FROM many WHERE id < 0');
  await db.query(`UPDATE many SET a = 'y'`);
  t.is((await rawEvents('many_t')).length, 0);
  await db.query('DELETE FROM many');
  t.is((await rawEvents('many_t')).length, 201);
});

test.serial('event_log is readable and writable as a table: ids stay the same when a batch is expanded; UPDATE, DELETE and INSERT go through', async (t) => {
  await table('viewed', { insert: { columns: '*' } });
  // Inside one transaction the worker cannot see (so cannot expand) the statement's batch: the writes below
  // meet the events while they are still a batch.
  const c = new pg.Client({ connectionString: e.db.url });
  await c.connect();
  try {
    await c.query('BEGIN');
    await c.query('INSERT INTO viewed (id, a) SELECT i, i::text FROM generate_series(1, 3) i');
    const before = (await c.query<{ id: string; n: number }>(`SELECT id, (payload->'data'->'new'->>'id')::int AS n FROM engine_catalog.event_log WHERE trigger_name = 'viewed_t' ORDER BY n`)).rows;
    t.is(before.length, 3);
    t.is((await c.query('SELECT 1 FROM engine_catalog.event_log_batches WHERE trigger_name = $1', ['viewed_t'])).rows.length, 1);
    // A user's UPDATE of one event expands its batch; the ids do not change.
    const upd = await c.query('UPDATE engine_catalog.event_log SET locked = now() WHERE id = $1 RETURNING id', [before[0].id]);
    t.deepEqual(upd.rows, [{ id: before[0].id }]);
    t.is((await c.query('SELECT 1 FROM engine_catalog.event_log_batches WHERE trigger_name = $1', ['viewed_t'])).rows.length, 0);
    const after = (await c.query<{ id: string; locked: Date | null }>(`SELECT id, locked FROM engine_catalog.event_log_rows WHERE trigger_name = 'viewed_t' ORDER BY (payload->'data'->'new'->>'id')::int`)).rows;
    t.deepEqual(after.map((r) => r.id), before.map((r) => r.id));
    t.deepEqual(after.map((r) => r.locked !== null), [true, false, false]);
    await c.query('DELETE FROM engine_catalog.event_log WHERE id = $1', [before[1].id]);
    // A capture function of an earlier engine version inserted into engine_catalog.event_log directly.
    const ins = await c.query<{ id: string; delivered: boolean; tries: number }>(
      `INSERT INTO engine_catalog.event_log (schema_name, table_name, trigger_name, payload)
       VALUES ('public', 'viewed', 'viewed_t', '{"op": "INSERT", "data": {"old": null, "new": {"id": 9}}, "session_variables": null}')
       RETURNING id, delivered, tries`);
    t.is(ins.rows.length, 1);
    t.deepEqual([ins.rows[0].delivered, ins.rows[0].tries], [false, 0]);
    await c.query('ROLLBACK');
  } finally {
    await c.end();
  }
});

test.serial("a json value jsonb cannot hold (\\u0000) does not make the log unreadable", async (t) => {
  await table('nul', { insert: { columns: '*' } });
  await db.query(`INSERT INTO nul (id, j) VALUES (1, '{"k": "a\\u0000b"}'), (2, '{"k": 1}')`);
  const got = await db.query<{ id: string; payload: Row & { error?: string } }>(`SELECT id, payload FROM engine_catalog.event_log WHERE trigger_name = 'nul_t'`);
  t.is(got.rows.length, 2);
  t.true(got.rows.some((r) => (r.payload.data?.new as { id: number } | null)?.id === 2));
  t.true(got.rows.some((r) => r.payload.op === 'INSERT' && typeof r.payload.error === 'string'));
  // Expanding the batch keeps both events (this waits for a worker expanding it meanwhile).
  await db.query('SELECT engine_catalog.expand_event_batches(1, $1)', [got.rows[0].id]);
  t.is((await db.query(`SELECT 1 FROM engine_catalog.event_log_rows WHERE trigger_name = 'nul_t'`)).rows.length, 2);
});

test.serial('columns named like the capture SQL names (n, o, i, r, tg_op, new, old, engine_d) are captured as values', async (t) => {
  await ok({
    type: 'bulk',
    args: [
      { type: 'run_sql', args: { sql: 'CREATE TABLE clash (n int PRIMARY KEY, o text, i int, r text, tg_op text, new int, old int, engine_d int, engine_p int)' } },
      { type: 'track_table', args: 'clash' },
      { type: 'create_event_trigger', args: { name: 'clash_all', table: 'clash', webhook: HOOK, insert: { columns: '*' }, update: { columns: '*' } } },
      { type: 'create_event_trigger', args: { name: 'clash_sub', table: 'clash', webhook: HOOK, update: { columns: ['o', 'tg_op', 'engine_d'], payload: ['n', 'tg_op', 'new', 'old', 'engine_d'] }, delete: { columns: '*', payload: ['i', 'r', 'engine_p'] } } },
    ],
  });
  const row = { n: 1, o: 'o', i: 2, r: 'r', tg_op: 'x', new: 3, old: 4, engine_d: 5, engine_p: 6 };
  await db.query('INSERT INTO clash VALUES (1, $1, 2, $2, $3, 3, 4, 5, 6)', ['o', 'r', 'x']);
  await db.query(`UPDATE clash SET i = 20`); // not listened to by clash_sub
  await db.query(`UPDATE clash SET tg_op = 'y', engine_d = 50`);
  await db.query('DELETE FROM clash');
  const row2 = { ...row, i: 20 };
  const row3 = { ...row2, tg_op: 'y', engine_d: 50 };
  t.deepEqual(await events('clash_all'), [
    { op: 'INSERT', data: { old: null, new: row }, session_variables: null },
    { op: 'UPDATE', data: { old: row, new: row2 }, session_variables: null },
    { op: 'UPDATE', data: { old: row2, new: row3 }, session_variables: null },
  ]);
  t.deepEqual(await events('clash_sub'), [
    { op: 'UPDATE', data: { old: { n: 1, tg_op: 'x', new: 3, old: 4, engine_d: 5 }, new: { n: 1, tg_op: 'y', new: 3, old: 4, engine_d: 50 } }, session_variables: null },
    { op: 'DELETE', data: { old: { i: 20, r: 'r', engine_p: 6 }, new: null }, session_variables: null },
  ]);
});

test.serial('a partitioned table: writes through the parent and into a partition directly are captured', async (t) => {
  await ok({
    type: 'bulk',
    args: [
      { type: 'run_sql', args: { sql: `CREATE TABLE parts (id int, k text, PRIMARY KEY (id, k)) PARTITION BY LIST (k);
                                        CREATE TABLE parts_a PARTITION OF parts FOR VALUES IN ('a')` } },
      { type: 'track_table', args: 'parts' },
      { type: 'create_event_trigger', args: { name: 'parts_t', table: 'parts', webhook: HOOK, insert: { columns: '*' }, update: { columns: '*' } } },
      // A partition created after the trigger is covered too.
      { type: 'run_sql', args: { sql: `CREATE TABLE parts_b PARTITION OF parts FOR VALUES IN ('b')` } },
    ],
  });
  await db.query(`INSERT INTO parts VALUES (1, 'a'), (2, 'b')`);
  await db.query(`INSERT INTO parts_b VALUES (3, 'b')`);
  await db.query(`UPDATE parts_a SET id = 10`);
  const got = await db.query<{ table_name: string; payload: Row }>('SELECT table_name, payload FROM engine_catalog.event_log WHERE trigger_name = $1 ORDER BY created_at', ['parts_t']);
  t.deepEqual(got.rows.map((r) => [r.table_name, r.payload.op, r.payload.data.new]), [
    ['parts_a', 'INSERT', { id: 1, k: 'a' }],
    ['parts_b', 'INSERT', { id: 2, k: 'b' }],
    ['parts_b', 'INSERT', { id: 3, k: 'b' }],
    ['parts_a', 'UPDATE', { id: 10, k: 'a' }],
  ]);
});
