import test from 'ava';
import { parseConfig } from '../../bench/config.js';
import { selectQueries } from '../../bench/queries.js';
import { metadataBulk } from '../../bench/engine.js';

test('defaults are the full bench', (t) => {
  const c = parseConfig([], {});
  t.like(c, { scale: 1, database: 'engine_bench', connections: 16, warmupSeconds: 3, durationSeconds: 10, only: null, quick: false, floor: false });
  t.deepEqual(c.targets, ['engine', 'ceiling']);
});

test('--quick shrinks the dataset and the runs, into its own database', (t) => {
  t.like(parseConfig(['--quick'], {}), { scale: 0.01, database: 'engine_bench_quick', warmupSeconds: 1, durationSeconds: 2 });
});

test('flags win over env, both forms of flag value work', (t) => {
  const c = parseConfig(['--duration', '5', '--connections=8', '--only', 'q1,Q3'], { BENCH_DURATION: '20', BENCH_SCALE: '0.5' });
  t.like(c, { durationSeconds: 5, connections: 8, scale: 0.5 });
  t.deepEqual(c.only, ['Q1', 'Q3']);
  t.deepEqual(selectQueries(c.only).map((q) => q.name), ['Q1', 'Q3']);
});

test('bad input fails loudly', (t) => {
  t.throws(() => parseConfig(['--nope'], {}), { message: /unknown flag --nope/ });
  t.throws(() => parseConfig(['--duration', '-1'], {}), { message: /positive number/ });
  t.throws(() => selectQueries(['Q9']), { message: /unknown queries: Q9/ });
});

test('--floor adds the floor to bench:paired, and takes no value', (t) => {
  t.true(parseConfig(['--floor', '--spawns', '2'], {}).floor);
  t.like(parseConfig(['--floor', '--spawns', '2'], {}), { spawns: 2 });
});

test('target selection', (t) => {
  t.deepEqual(parseConfig(['--ceiling-only'], {}).targets, ['ceiling']);
  t.deepEqual(parseConfig(['--engine-only', '--engine-url', 'http://x:1'], {}).targets, ['engine']);
});

test('metadata covers both directions of every foreign key used by the queries', (t) => {
  const rels = metadataBulk()
    .filter((o) => o.type !== 'track_table')
    .map((o) => {
      const a = o.args as { table: { name: string }; name: string };
      return `${a.table.name}.${a.name}`;
    });
  for (const r of ['artist.albums', 'album.tracks', 'album.artist', 'track.album', 'customer.invoices', 'invoice.lines', 'invoice_line.track']) {
    t.true(rels.includes(r), r);
  }
});
