// Replay property: a seeded random sequence of metadata operations (successes and failures) on a real database;
// folding the collected events from zero, or from a mid-point snapshot, gives the live state's export.
import test from 'ava';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { Harness } from './harness.js';
import { emptyMetadata } from '../../projections/metadata.js';
import { fold } from '../../projections/replay.js';
import { exportMetadata } from '../../projections/export.js';
import { randomMetadataOps } from '../helpers/random-metadata-ops.js';

let db: TestDatabase;
let h: Harness;
test.before(async () => {
  db = await createTestDatabase('wreplay');
  h = await Harness.connect(db.url);
});
test.after.always(async () => {
  await h?.close();
  await db?.drop();
});

test('replaying the log from zero and from a snapshot gives the live export', async (t) => {
  const nextOp = randomMetadataOps(20241122, {
    tracked: () => Object.values(h.state.metadata.tables).map((x) => x.table.name),
    exported: () => exportMetadata(h.state.metadata),
  });

  let ok = 0;
  let failed = 0;
  const N = 300;
  for (let i = 0; i < N; i++) {
    const body = nextOp(i);
    const res = await h.query(body);
    if (process.env.REPLAY_DEBUG && res.status !== 200) console.error(JSON.stringify(body).slice(0, 150), JSON.stringify(res.body).slice(0, 200));
    if (res.status === 200) ok++;
    else failed++;
    // An unexpected 500 means an engine bug, not a rejected operation.
    t.not(res.status, 500, JSON.stringify({ body, res }));
  }
  t.log(`${N} operations: ${ok} succeeded, ${failed} rejected, ${h.log.length} events`);
  const counts: Record<string, number> = {};
  for (const e of h.log) counts[e.type] = (counts[e.type] ?? 0) + 1;
  t.log(counts);
  t.true(ok > 60);
  t.true(h.log.length > 100);

  const live = exportMetadata(h.state.metadata);
  t.deepEqual(exportMetadata(fold(emptyMetadata(), h.log)), live);
  // From a snapshot taken at some committed point in the middle.
  const points = [...h.snapshots.keys()].sort((a, b) => a - b);
  const mid = points[Math.floor(points.length / 2)];
  t.deepEqual(exportMetadata(fold(h.snapshots.get(mid)!, h.log.slice(mid))), live);
  // Events survive JSON (as the log stores them).
  t.deepEqual(exportMetadata(fold(emptyMetadata(), JSON.parse(JSON.stringify(h.log)))), live);
});
