// The metadata log: versioned idempotent schema, optimistic append, reads, NOTIFY on commit, snapshots.
import test from 'ava';
import pg from 'pg';
import { createTestDatabase, waitingOnLock, type TestDatabase } from '../helpers/db.js';
import {
  AppendConflict,
  CATALOG_VERSION,
  appendEvents,
  crossesSnapshot,
  ensureCatalogSchema,
  headSeq,
  LOG_PAGE,
  latestSnapshot,
  readAllFrom,
  readFrom,
  writeSnapshot,
} from '../../events/log.js';

let db: TestDatabase;
const clients: pg.Client[] = [];
async function connect(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  clients.push(c);
  return c;
}

test.before(async () => {
  db = await createTestDatabase('log');
});
test.after.always(async () => {
  await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  await db?.drop();
});

test.serial('ensureCatalogSchema is idempotent, versioned and safe when run concurrently', async (t) => {
  const [a, b, c] = await Promise.all([connect(), connect(), connect()]);
  const versions = await Promise.all([ensureCatalogSchema(a), ensureCatalogSchema(b), ensureCatalogSchema(c)]);
  t.deepEqual(versions, [CATALOG_VERSION, CATALOG_VERSION, CATALOG_VERSION]);
  await ensureCatalogSchema(a);
  const r = await a.query('SELECT version FROM engine_catalog.schema_version ORDER BY version');
  t.deepEqual(r.rows.map((x) => x.version), Array.from({ length: CATALOG_VERSION }, (_, i) => i + 1));
  const cols = await a.query(
    `SELECT column_name, data_type FROM information_schema.columns
     WHERE table_schema = 'engine_catalog' AND table_name = 'metadata_log' ORDER BY ordinal_position`,
  );
  t.deepEqual(cols.rows.map((x) => `${x.column_name}:${x.data_type}`), [
    'seq:bigint', 'type:text', 'data:jsonb', 'meta:jsonb', 'created_at:timestamp with time zone', 'instance_id:text',
  ]);
});

test.serial('append in a transaction, read back in order; NOTIFY arrives on commit only', async (t) => {
  const w = await connect();
  const l = await connect();
  const notes: string[] = [];
  l.on('notification', (n) => notes.push(n.payload ?? ''));
  await l.query('LISTEN engine_metadata');
  t.is(await headSeq(w), 0);
  await w.query('BEGIN');
  const a = { type: 'metadata_cleared', data: {} } as const;
  const b = { type: 'relationship_dropped', data: { table: { schema: 'public', name: 'x' }, name: 'two' }, meta: { k: 'v' } } as const;
  const seq = await appendEvents(w, [a, b], 0, {
    instanceId: 'i1',
    meta: { request_id: 'r1' },
  });
  t.is(seq, 2);
  await new Promise((r) => setTimeout(r, 100));
  t.deepEqual(notes, []);
  await w.query('COMMIT');
  for (const end = Date.now() + 30_000; notes.length === 0 && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
  t.deepEqual(notes.map((n) => JSON.parse(n)), [{ seq: 2, instance: 'i1' }]);
  const events = await readFrom(w, 0);
  t.deepEqual(events.map((e) => [e.seq, e.type, e.data, e.meta, e.instanceId]), [
    [1, 'metadata_cleared', {}, { request_id: 'r1' }, 'i1'],
    [2, 'relationship_dropped', { table: { schema: 'public', name: 'x' }, name: 'two' }, { request_id: 'r1', k: 'v' }, 'i1'],
  ]);
  t.deepEqual((await readFrom(w, 1)).map((e) => e.seq), [2]);
  t.deepEqual((await readFrom(w, 0, 1)).map((e) => e.seq), [1]);
  t.is(await headSeq(w), 2);
});

test.serial('a stale expected seq is an AppendConflict and nothing is written', async (t) => {
  const w = await connect();
  const before = await headSeq(w);
  await w.query('BEGIN');
  await t.throwsAsync(appendEvents(w, [{ type: 'metadata_cleared', data: {} }], before - 1), { instanceOf: AppendConflict });
  await w.query('ROLLBACK');
  t.is(await headSeq(w), before);
});

test.serial('two concurrent writers with the same expected seq: one wins, one conflicts', async (t) => {
  const [a, b] = await Promise.all([connect(), connect()]);
  const head = await headSeq(a);
  await a.query('BEGIN');
  await b.query('BEGIN');
  await appendEvents(a, [{ type: 'relationship_dropped', data: { table: { schema: 'public', name: 'a' }, name: 'from-a' } }], head);
  const late = appendEvents(b, [{ type: 'relationship_dropped', data: { table: { schema: 'public', name: 'b' }, name: 'from-b' } }], head); // blocks on a's row lock
  await waitingOnLock(a, (b as unknown as { processID: number }).processID);
  await a.query('COMMIT');
  await t.throwsAsync(late, { instanceOf: AppendConflict });
  await b.query('ROLLBACK');
  const tail = await readFrom(a, head);
  t.deepEqual(tail.map((e) => e.data), [{ table: { schema: 'public', name: 'a' }, name: 'from-a' }]);
});

test.serial('readAllFrom: every event after a seq, across pages, in order', async (t) => {
  const w = await connect();
  const head = await headSeq(w);
  const n = 2 * LOG_PAGE + 500;
  const events = Array.from({ length: n }, (_, i) => ({ type: 'relationship_dropped', data: { table: { schema: 'public', name: 'p' }, name: `r${i}` } }) as const);
  await w.query('BEGIN');
  const last = await appendEvents(w, events, head);
  await w.query('COMMIT');
  t.is(last, head + n);
  const seqs = (after: number) => Array.from({ length: last - after }, (_, i) => after + 1 + i);
  // From the start, with exactly one page left (a full page, then an empty one), one more than a page, one, none.
  for (const after of [0, last - LOG_PAGE, last - LOG_PAGE - 1, last - 1, last]) {
    const read = await readAllFrom(w, after);
    t.deepEqual(read.map((e) => e.seq), seqs(after), `after ${after}`);
  }
  const tail = await readAllFrom(w, head + LOG_PAGE + 3);
  t.deepEqual(tail[0].data, { table: { schema: 'public', name: 'p' }, name: `r${LOG_PAGE + 3}` });
});

test.serial('snapshots: latest wins, older ones are pruned', async (t) => {
  const w = await connect();
  t.is(await latestSnapshot(w), null);
  for (const s of [500, 1000, 1500, 2000]) await writeSnapshot(w, s, { at: s });
  t.deepEqual(await latestSnapshot(w), { seq: 2000, metadata: { at: 2000 } });
  const r = await w.query('SELECT seq FROM engine_catalog.metadata_snapshot ORDER BY seq');
  t.deepEqual(r.rows.map((x) => Number(x.seq)), [1000, 1500, 2000]);
});

test('crossesSnapshot', (t) => {
  t.true(crossesSnapshot(499, 500, 500));
  t.true(crossesSnapshot(490, 1010, 500));
  t.false(crossesSnapshot(500, 999, 500));
  t.false(crossesSnapshot(3, 3, 500));
});
