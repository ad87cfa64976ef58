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
import { graphqlBody } from '../../bench/queries.js';
import { measureRotations, ratiosOf } from '../../bench/paired-measure.js';

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

test.serial('a paired measurement runs each target in each place and checks every response against the checked body', async (t) => {
  const q = QUERIES[1];
  const c = await checkQuery(q, { engine: engine.url, ceiling: ceiling.url });
  t.true(c.ok, c.problems.join('\n'));
  // Both targets run in this process here: the figures are this process's CPU, the structure is what is checked.
  const targets = [
    { name: 'ceiling', url: ceiling.url, pid: process.pid, expectBody: c.texts.ceiling! },
    { name: 'engine', url: engine.url, pid: process.pid, expectBody: c.texts.engine! },
  ];
  const rotations = await measureRotations({ targets, body: graphqlBody(q), connections: 2, rotations: 2, runSeconds: 0.3, shift: 1 });
  t.deepEqual(rotations.map((r) => r.order), [['engine', 'ceiling'], ['ceiling', 'engine']]);
  for (const r of rotations) {
    for (const name of ['ceiling', 'engine']) {
      t.true(r.runs[name].requests > 0, name);
      t.is(r.runs[name].problems, 0, name);
      t.true(r.runs[name].userSeconds + r.runs[name].systemSeconds > 0, name);
    }
  }
  const ratios = ratiosOf(rotations, 'engine', 'ceiling');
  t.is(ratios.cpu.length, 2);
  t.true(ratios.rps.every((x) => Number.isFinite(x) && x > 0));

  // A target whose answers differ from the checked body counts every one of them as a problem.
  const wrong = await measureRotations({ targets: [{ ...targets[1], expectBody: '{"data":null}' }], body: graphqlBody(q), connections: 1, rotations: 1, runSeconds: 0.2, shift: 0 });
  t.is(wrong[0].runs.engine.problems, wrong[0].runs.engine.requests);
});
