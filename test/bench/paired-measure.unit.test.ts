import test from 'ava';
import { ratiosOf, rotationOrder, type PairedRotation } from '../../bench/paired-measure.js';
import { cpuOfStat, processCpu } from '../../bench/load.js';
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

test('cpuOfStat reads utime and stime (fields 14 and 15, clock ticks) of a /proc stat line, whatever the command name holds', (t) => {
  // pid, (comm), state, ppid, pgrp, session, tty_nr, tpgid, flags, minflt, cminflt, majflt, cmajflt, utime, stime,
  // cutime, cstime, priority, nice, num_threads, ...: 1234 and 567 ticks of 10 ms; the children's 8 and 9 are not ours.
  const rest = 'S 1 4242 4242 0 -1 4194560 1000 0 5 0 1234 567 8 9 20 0 11 0 71082 3133440 365';
  t.deepEqual(cpuOfStat(`4242 (node) ${rest}`), { user: 12.34, system: 5.67 });
  t.deepEqual(cpuOfStat(`4242 (my engine) (x) 1 2) ${rest}`), { user: 12.34, system: 5.67 });
  t.deepEqual(cpuOfStat(`7 (a) R 1 7 7 0 -1 0 0 0 0 0 0 3 0 0 20 0 1 0 1 1 1`), { user: 0, system: 0.03 });
});

/** Where the busy loops put their result (so no engine can skip them). */
let sink = 0;

test('processCpu of this process agrees with process.cpuUsage and grows with the work it does', (t) => {
  const seconds = (u: NodeJS.CpuUsage) => ({ user: u.user / 1e6, system: u.system / 1e6 });
  const total = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;
  // Busy until this process has used 0.2 s more CPU (by the clock it would depend on how loaded the machine is).
  const spin = () => {
    const until = total(process.cpuUsage()) + 0.2;
    while (total(process.cpuUsage()) < until) for (let i = 0; i < 1e5; i++) sink = Math.sqrt(sink + i);
  };
  spin();
  const low = seconds(process.cpuUsage());
  const read = processCpu(process.pid);
  const high = seconds(process.cpuUsage());
  // /proc counts whole 10 ms ticks, and the kernel splits user/system by sampling: allow a few ticks either way.
  const slack = 0.05;
  t.true(read.user + read.system >= low.user + low.system - slack && read.user + read.system <= high.user + high.system + slack, JSON.stringify({ low, read, high }));
  t.true(read.user >= low.user - slack && read.user <= high.user + slack, JSON.stringify({ low, read, high }));
  spin();
  const after = processCpu(process.pid);
  t.true(after.user + after.system >= read.user + read.system + 0.2 - slack, JSON.stringify({ read, after }));
  t.throws(() => processCpu(2 ** 30));
});

test('the paired flags: defaults, flags and env', (t) => {
  t.like(parseConfig([], {}), { spawns: 4, rotations: 8, runSeconds: 1 });
  t.like(parseConfig(['--spawns', '2', '--rotations=6', '--engine-root', '/a,/b'], { BENCH_RUN_SECONDS: '0.5' }), { spawns: 2, rotations: 6, runSeconds: 0.5, engineRoot: '/a,/b' });
  t.throws(() => parseConfig(['--rotations', '0'], {}), { message: /positive number/ });
});
