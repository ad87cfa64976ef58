// Replay property through a live server (issue 2, acceptance 2): a seeded random sequence of 220 metadata operations
// sent to POST /v1/query; the stored log holds exactly what the answers said happened (events only for accepted
// requests, one at least for each that changed the export); restarting from the engine's own snapshots and
// replaying the exported history into an empty database both give the live server's export_metadata.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestEngine } from '../helpers/engine.js';
import { randomMetadataOps } from '../helpers/random-metadata-ops.js';
import { readFrom } from '../../events/log.js';

const BIN = new URL('../../bin/engine.mjs', import.meta.url).pathname;
const engineCli = (args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 120_000, env: { PATH: process.env.PATH ?? '' } });

let source: TestDatabase;
let target: TestDatabase;
test.before(async () => {
  source = await createTestDatabase('hpsrc');
  target = await createTestDatabase('hpdst');
});
test.after.always(async () => {
  await source?.drop();
  await target?.drop();
});

interface Exported {
  tables: Array<{ table: { schema: string; name: string } }>;
}

const exportOf = async (e: { query(body: unknown): Promise<{ status: number; body: unknown }> }): Promise<Exported> => {
  const r = await e.query({ type: 'export_metadata', args: {} });
  if (r.status !== 200) throw new Error(`export_metadata answered ${r.status}`);
  return r.body as Exported;
};

test('the log holds what the answers said; engine restarted from snapshots, and replayed history, equal the live export', async (t) => {
  const N = 220;
  // Snapshots every 25 events, so the restart below really starts from one.
  const live = await startTestEngine({ database: source, snapshotInterval: 25 });
  let liveExport: Exported;
  /** Per request (its id is `hp-<i>`): its type, whether it was accepted, whether the export changed. */
  const sent: Array<{ type: string; accepted: boolean; changed: boolean }> = [];
  try {
    let current = await exportOf(live);
    const nextOp = randomMetadataOps(7_2026, {
      tracked: () => current.tables.filter((x) => x.table.schema === 'public').map((x) => x.table.name),
      exported: () => current,
    });
    for (let i = 0; i < N; i++) {
      const body = nextOp(i) as { type: string };
      const res = await live.query(body, { 'x-request-id': `hp-${i}` });
      // Rejections are part of the property (they must leave nothing behind); a 500 would be an engine bug.
      t.not(res.status, 500, JSON.stringify({ body, res: res.body }));
      const next = await exportOf(live);
      sent.push({ type: body.type, accepted: res.status === 200, changed: JSON.stringify(next) !== JSON.stringify(current) });
      if (res.status !== 200) t.deepEqual(next, current, `rejected request hp-${i} changed the export`);
      current = next;
    }
    liveExport = current;
  } finally {
    await live.close();
  }
  const ok = sent.filter((x) => x.accepted).length;
  t.log(`${N} operations through HTTP, ${ok} succeeded`);
  t.true(ok > 60);
  t.true(liveExport.tables.length > 0);

  // 1. The stored log against the answers: each event names an accepted request of that type, in the order they were
  // sent; every request that changed the export appended at least one.
  const c = new pg.Client({ connectionString: source.url });
  await c.connect();
  let eventCount: number;
  let snapshots: number;
  try {
    const events = await readFrom(c, 0);
    eventCount = events.length;
    const indexOf = (e: (typeof events)[number]) => Number(/^hp-(\d+)$/.exec(String(e.meta.request_id))?.[1] ?? NaN);
    let last = -1;
    const logged = new Set<number>();
    for (const e of events) {
      const i = indexOf(e);
      t.true(Number.isInteger(i) && i >= last, `event ${e.seq} (${e.type}) out of order or of no request: ${JSON.stringify(e.meta)}`);
      t.true(sent[i]?.accepted, `event ${e.seq} (${e.type}) of rejected request hp-${i}`);
      t.is(e.meta.operation, sent[i]?.type, `event ${e.seq}`);
      last = i;
      logged.add(i);
    }
    for (const [i, x] of sent.entries()) if (x.changed) t.true(logged.has(i), `hp-${i} (${x.type}) changed the export but appended nothing`);
    snapshots = (await c.query('SELECT count(*)::int AS n FROM engine_catalog.metadata_snapshot')).rows[0].n;
  } finally {
    await c.end();
  }
  t.log(`${eventCount} events in the log, ${snapshots} snapshots kept`);
  t.true(eventCount > 100);
  t.true(snapshots > 0);

  // 2. A fresh engine on the same database starts from its latest snapshot plus the events after it.
  const restarted = await startTestEngine({ database: source });
  try {
    t.deepEqual(await exportOf(restarted), liveExport);
  } finally {
    await restarted.close();
  }

  // 3. The exported history replayed into an empty database.
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'engine-history-')), 'log.jsonl');
  const ex = engineCli(['history', 'export', '--database-url', source.url, '--output', file]);
  t.is(ex.status, 0, ex.stderr);
  const rp = engineCli(['history', 'replay', file, '--database-url', target.url]);
  t.is(rp.status, 0, rp.stderr);
  const replayed = await startTestEngine({ database: target });
  try {
    t.deepEqual(await exportOf(replayed), liveExport);
  } finally {
    await replayed.close();
  }
});
