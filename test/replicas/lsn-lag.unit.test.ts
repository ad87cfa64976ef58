// WAL positions as Postgres writes them, lag in time from the primary's sampled positions, and which failures of a
// read mean its source went away.
import test from 'ava';
import { formatLsn, parseLsn } from '../../src/replicas/lsn.js';
import { PrimaryHistory } from '../../src/replicas/lag.js';
import { failureOf } from '../../src/replicas/gone.js';

test('LSNs: hex high/low words, compared as numbers', (t) => {
  t.is(parseLsn('0/0'), 0);
  t.is(parseLsn('0/16B3748'), 0x16b3748);
  t.is(parseLsn('1/0'), 2 ** 32);
  t.is(parseLsn('16/b374d848'), 0x16 * 2 ** 32 + 0xb374d848);
  t.true(parseLsn('0/FFFFFFFF')! < parseLsn('1/0')!, 'the high word counts first');
  t.is(formatLsn(0x16 * 2 ** 32 + 0xb374d848), '16/B374D848');
  for (const bad of ['', '16', '0/', '/1', 'x/1', '0/1/2', '123456789/0', '0/ 1']) t.is(parseLsn(bad), null, bad);
});

test('lag: time since the primary was first seen past the replayed position; none at or past the newest', (t) => {
  const h = new PrimaryHistory();
  h.record(1000, 100);
  h.record(1100, 200);
  h.record(1200, 300);
  h.record(1250, 250); // an older read arriving late: positions never go back
  t.is(h.latest, 300);
  t.is(h.lagMs(300, 5000), 0);
  t.is(h.lagMs(400, 5000), 0);
  t.is(h.lagMs(250, 1300), 100, 'past 250 since the sample at 1200');
  t.is(h.lagMs(150, 1300), 200);
  t.is(h.lagMs(100, 1300), 200, 'at 100 it has what the primary had at 1000');
  t.is(h.lagMs(50, 1300), 300, 'behind every sample: since the oldest');
});

test('lag history keeps a bounded window', (t) => {
  const h = new PrimaryHistory(1000);
  for (let i = 0; i < 100; i++) h.record(i * 100, i + 1);
  // The newest is at 9900: the window starts at 8900, and the one sample before it (8800) is kept as its edge.
  t.is(h.lagMs(0, 10_000), 10_000 - 8800, 'samples older than the window were dropped');
});

test('failures: a server going away is worth a retry, a recovery conflict too, a bad query not', (t) => {
  t.is(failureOf(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })), 'gone');
  t.is(failureOf(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })), 'gone');
  t.is(failureOf(new Error('Connection terminated unexpectedly')), 'gone');
  t.is(failureOf(Object.assign(new Error('the database system is starting up'), { code: '57P03' })), 'gone');
  t.is(failureOf(Object.assign(new Error('canceling statement due to conflict with recovery'), { code: '40001' })), 'recovery-conflict');
  t.is(failureOf(Object.assign(new Error('could not serialize access'), { code: '40001' })), 'other');
  t.is(failureOf(Object.assign(new Error('relation "x" does not exist'), { code: '42P01' })), 'other');
  t.is(failureOf(undefined), 'other');
});
