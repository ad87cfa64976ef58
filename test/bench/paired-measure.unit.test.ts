import test from 'ava';
import { ratiosOf, rotationOrder, type PairedRotation } from '../../bench/paired-measure.js';
import { processCpu } from '../../bench/load.js';
import { parseConfig } from '../../bench/config.js';

test('over n rotations each of n targets holds each place of the order exactly once', (t) => {
  const targets = ['ceiling', 'a', 'b'];
  const orders = [0, 1, 2].map((r) => rotationOrder(targets, r));
  t.deepEqual(orders, [['ceiling', 'a', 'b'], ['a', 'b', 'ceiling'], ['b', 'ceiling', 'a']]);
  for (let place = 0; place < 3; place++) t.deepEqual(orders.map((o) => o[place]).sort(), [...targets].sort());
  // A spawn's shift continues the cycle rather than restarting it.
  t.deepEqual(rotationOrder(targets, 4), orders[1]);
});

const rounded = (xs: number[]) => xs.map((x) => Math.round(x * 1e6) / 1e6);
const run = (requests: number, userSeconds: number, systemSeconds: number, seconds = 1) => ({ requests, seconds, userSeconds, systemSeconds, problems: 0 });

test('ratios are per rotation: CPU per request (total, user, system) and req/s, engine over ceiling', (t) => {
  const rotations: PairedRotation[] = [
    // ceiling 1000 req in 0.06 s user + 0.02 s system (80 µs/req); engine 800 req in 0.06 + 0.02 (100 µs/req).
    { order: ['ceiling', 'e'], runs: { ceiling: run(1000, 0.06, 0.02), e: run(800, 0.06, 0.02) } },
    // ceiling 500 req, 0.03 + 0.01 s (80 µs/req); engine 500 req, 0.045 + 0.015 s over 2 s (120 µs/req, half the rate).
    { order: ['e', 'ceiling'], runs: { ceiling: run(500, 0.03, 0.01), e: run(500, 0.045, 0.015, 2) } },
  ];
  const r = ratiosOf(rotations, 'e', 'ceiling');
  t.deepEqual(rounded(r.cpu), [1.25, 1.5]);
  t.deepEqual(rounded(r.user), [1.25, 1.5]);
  t.deepEqual(rounded(r.system), [1.25, 1.5]);
  t.deepEqual(rounded(r.rps), [0.8, 0.5]);
});

test('a rotation where a target served nothing gives no ratio; a split with no ceiling ticks is left out', (t) => {
  const rotations: PairedRotation[] = [
    { order: ['ceiling', 'e'], runs: { ceiling: run(0, 0, 0), e: run(100, 0.01, 0) } },
    { order: ['e', 'ceiling'], runs: { ceiling: run(100, 0.01, 0), e: run(100, 0.02, 0.01) } },
  ];
  const r = ratiosOf(rotations, 'e', 'ceiling');
  t.deepEqual(rounded(r.cpu), [3]);
  t.deepEqual(rounded(r.user), [2]);
  t.deepEqual(r.system, []);
  t.deepEqual(ratiosOf(rotations, 'missing', 'ceiling').cpu, []);
});

test('processCpu reads a live process and grows with the work it does', (t) => {
  const before = processCpu(process.pid);
  const until = Date.now() + 120;
  let x = 0;
  while (Date.now() < until) x += Math.sqrt(x + 1);
  const after = processCpu(process.pid);
  t.true(x > 0);
  t.true(after.user + after.system > before.user + before.system, JSON.stringify({ before, after }));
  t.throws(() => processCpu(2 ** 30));
});

test('the paired flags: defaults, flags and env', (t) => {
  t.like(parseConfig([], {}), { spawns: 4, rotations: 8, runSeconds: 1 });
  t.like(parseConfig(['--spawns', '2', '--rotations=6', '--engine-root', '/a,/b'], { BENCH_RUN_SECONDS: '0.5' }), { spawns: 2, rotations: 6, runSeconds: 0.5, engineRoot: '/a,/b' });
  t.throws(() => parseConfig(['--rotations', '0'], {}), { message: /positive number/ });
});
