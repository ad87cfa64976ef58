// Snapshots written after their write's commit (src/metadata/snapshots.ts Note [Snapshots after commit]): one that
// cannot be written is logged and costs nothing else; stopping waits for those in flight.
import test from 'ava';
import pg from 'pg';
import { SnapshotWriter } from '../../src/metadata/snapshots.js';
import { configureLog } from '../../src/core/log.js';

test('a snapshot that cannot be written is logged and fails nothing: settled() resolves once it is given up', async (t) => {
  const lines: string[] = [];
  configureLog('warn', (l) => lines.push(l));
  // Port 1: nothing listens there, connections are refused at once.
  const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', connectionTimeoutMillis: 1000 });
  try {
    const w = new SnapshotWriter(pool);
    w.write(500, { tables: {} });
    w.write(1000, { tables: {} });
    await t.notThrowsAsync(w.settled());
    await t.notThrowsAsync(w.settled(), 'nothing left in flight');
    const failed = lines.map((l) => JSON.parse(l) as { type: string; detail: { seq: number } }).filter((l) => l.type === 'metadata-snapshot-failed');
    t.deepEqual(failed.map((l) => l.detail.seq).sort((a, b) => a - b), [500, 1000]);
  } finally {
    await pool.end();
  }
});
