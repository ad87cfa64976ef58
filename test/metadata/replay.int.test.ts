// Replay property, checked against values built independently of evolve: (1) a fixed scenario (renames followed,
// a cascading drop, permissions rewritten) whose live export, fold from zero and fold from a mid-point snapshot
// must all equal a hand-written document; (2) a seeded random sequence of operations (successes and failures)
// whose committed requests, sent again to an empty database, give the same events and the same export.
// The HTTP history replay into an empty database is test/cli/history-property.int.test.ts.
import test from 'ava';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { Harness } from './harness.js';
import { emptyMetadata } from '../../projections/metadata.js';
import { fold, foldOwned } from '../../projections/replay.js';
import { exportMetadata } from '../../projections/export.js';
import { randomMetadataOps } from '../helpers/random-metadata-ops.js';

const dbs: TestDatabase[] = [];
const harnesses: Harness[] = [];
async function fresh(name: string): Promise<Harness> {
  const db = await createTestDatabase(name);
  dbs.push(db);
  const h = await Harness.connect(db.url);
  harnesses.push(h);
  return h;
}
test.after.always(async () => {
  await Promise.all(harnesses.map((h) => h.close()));
  await Promise.all(dbs.map((d) => d.drop()));
});

const SCENARIO: unknown[] = [
  { type: 'run_sql', args: { sql: `
    CREATE TABLE author (id serial PRIMARY KEY, name text);
    CREATE TABLE article (id serial PRIMARY KEY, title text, author_id int REFERENCES author(id));
    CREATE TABLE tag (id serial PRIMARY KEY, article_id int REFERENCES article(id));` } },
  { type: 'track_table', args: 'author' },
  { type: 'track_table', args: 'article' },
  { type: 'track_table', args: 'tag' },
  { type: 'create_object_relationship', args: { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } } },
  { type: 'create_array_relationship', args: { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } } },
  { type: 'create_array_relationship', args: { table: 'article', name: 'tags', using: { foreign_key_constraint_on: { table: 'tag', column: 'article_id' } } } },
  { type: 'create_select_permission', args: { table: 'article', role: 'user', permission: { columns: ['id', 'title'], filter: { author: { name: { _eq: 'X-Engine-User-Id' } } } } } },
  // The column and the table renamed in Postgres: the relationship and the permission follow.
  { type: 'run_sql', args: { sql: 'ALTER TABLE author RENAME COLUMN name TO full_name' } },
  { type: 'run_sql', args: { sql: 'ALTER TABLE article RENAME TO post' } },
  // Dropping tag with cascade takes the relationship that names it.
  { type: 'run_sql', args: { sql: 'DROP TABLE tag', cascade: true } },
  { type: 'set_permission_comment', args: { table: 'post', role: 'user', type: 'select', comment: 'own posts' } },
];

const EXPECTED = {
  version: 2,
  tables: [
    {
      table: { schema: 'public', name: 'author' },
      array_relationships: [
        { name: 'articles', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'post' }, column: 'author_id' } } },
      ],
    },
    {
      table: { schema: 'public', name: 'post' },
      object_relationships: [{ name: 'author', using: { foreign_key_constraint_on: 'author_id' } }],
      select_permissions: [
        { role: 'user', permission: { columns: ['id', 'title'], filter: { author: { full_name: { _eq: 'X-Engine-User-Id' } } } }, comment: 'own posts' },
      ],
    },
  ],
};

test('a fixed scenario: the live export, the fold from zero and from a snapshot equal the hand-written document', async (t) => {
  const h = await fresh('wreplayfix');
  for (const body of SCENARIO) await h.ok(body);
  t.deepEqual(exportMetadata(h.state.metadata), EXPECTED);
  t.deepEqual(exportMetadata(fold(emptyMetadata(), h.log)), EXPECTED);
  const points = [...h.snapshots.keys()].sort((a, b) => a - b);
  const mid = points[Math.floor(points.length / 2)];
  t.deepEqual(exportMetadata(fold(h.snapshots.get(mid)!, h.log.slice(mid))), EXPECTED);
  // Events survive JSON (as the log stores them).
  t.deepEqual(exportMetadata(fold(emptyMetadata(), JSON.parse(JSON.stringify(h.log)))), EXPECTED);
});

test('random operations: the committed requests, sent again to an empty database, give the same events and export', async (t) => {
  const h = await fresh('wreplay');
  const nextOp = randomMetadataOps(20241122, {
    tracked: () => Object.values(h.state.metadata.tables).map((x) => x.table.name),
    exported: () => exportMetadata(h.state.metadata),
  });
  const committed: unknown[] = [];
  let failed = 0;
  const N = 300;
  for (let i = 0; i < N; i++) {
    const body = nextOp(i);
    const res = await h.query(body);
    if (res.status === 200) committed.push(body);
    else failed++;
    // An unexpected 500 means an engine bug, not a rejected operation.
    t.not(res.status, 500, JSON.stringify({ body, res }));
  }
  t.log(`${N} operations: ${committed.length} succeeded, ${failed} rejected, ${h.log.length} events`);
  t.true(committed.length > 60);
  t.true(h.log.length > 100);

  // Start-up folds in place what it parsed (foldOwned): the same metadata as immer's fold, from zero and from a
  // snapshot, and frozen through as immer leaves it.
  const parsed = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
  const owned = foldOwned(emptyMetadata(), parsed(h.log));
  t.deepEqual(owned, fold(emptyMetadata(), h.log));
  t.true(Object.values(owned.tables).every((x) => Object.isFrozen(x) && Object.isFrozen(x.select_permissions)) && Object.isFrozen(owned.tables));
  for (const at of [...h.snapshots.keys()].filter((k, i) => i % 5 === 0)) {
    t.deepEqual(foldOwned(parsed(h.snapshots.get(at)!), parsed(h.log.slice(at))), fold(h.snapshots.get(at)!, h.log.slice(at)), `from ${at}`);
  }

  const again = await fresh('wreplay2');
  for (const body of committed) await again.ok(body);
  t.deepEqual(again.log, h.log);
  t.deepEqual(exportMetadata(again.state.metadata), exportMetadata(h.state.metadata));
});
