// The bench's correctness gate end to end at a tiny scale: the engine, set up through the bench's own metadata
// requests, answers every bench query with exactly the ceiling's JSON.
import test from 'ava';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';
import { generateDataset } from '../../bench/dataset.js';
import { startCeiling, type Ceiling } from '../../bench/ceiling.js';
import { setupEngineMetadata } from '../../bench/engine.js';
import { checkQuery } from '../../bench/check.js';
import { QUERIES } from '../../bench/queries.js';
import { setQuiet } from '../../bench/log.js';

let db: TestDatabase;
let engine: TestEngine;
let ceiling: Ceiling;

test.before(async () => {
  setQuiet(true);
  db = await createTestDatabase('benche');
  await generateDataset(db.url, { scale: 0.001, seed: 11 });
  engine = await startTestEngine({ database: db, stringifyNumericTypes: false });
  ceiling = await startCeiling({ databaseUrl: db.url, poolSize: 2 });
  await setupEngineMetadata(engine.url);
});

test.after.always(async () => {
  await ceiling?.close();
  await engine?.close();
  await db?.drop();
});

for (const q of QUERIES) {
  test.serial(`engine and ceiling give identical JSON for ${q.name} (${q.description})`, async (t) => {
    const c = await checkQuery(q, { engine: engine.url, ceiling: ceiling.url });
    t.deepEqual(c.problems, []);
    t.deepEqual(c.differences, []);
  });
}

test.serial('metadata setup can be repeated (clear_metadata, then bulk again)', async (t) => {
  await setupEngineMetadata(engine.url);
  const c = await checkQuery(QUERIES[0], { engine: engine.url, ceiling: ceiling.url });
  t.true(c.ok, c.problems.join('\n'));
});
