// The router's choices, on replicas whose known state the test sets (their pools are never used) and a primary that
// is the test server (its WAL position is really read): the replica with the fewest reads in flight among those that
// replayed far enough, the position a read must see per consistency setting, the schema floor, retries and
// fallbacks.
import test from 'ava';
import pg from 'pg';
import { baseDatabaseUrl } from '../helpers/db.js';
import { Replica } from '../../src/replicas/replica.js';
import { ReplicaSet } from '../../src/replicas/replica-set.js';
import type { ReplicaConsistency } from '../../src/config/config.js';
import { configureLog } from '../../src/core/log.js';

configureLog('silent');
const primary = new pg.Pool({ connectionString: baseDatabaseUrl(), max: 2 });
test.after.always(() => primary.end());

const NOWHERE = 'postgres://postgres@127.0.0.1:1/none';

async function setOf(n: number, consistency: ReplicaConsistency = 'instance', waitMs = 0): Promise<{ set: ReplicaSet; rs: Replica[] }> {
  const rs = Array.from({ length: n }, (_, i) => new Replica({ url: NOWHERE, name: `r${i}`, poolSize: 1, applicationName: 'test' }));
  for (const r of rs) {
    r.state = 'up';
    r.replayed = Number.MAX_SAFE_INTEGER;
  }
  const set = new ReplicaSet({ primary, replicas: rs, consistency, waitMs });
  await set.readPrimary(primary); // the start-up floor
  return { set, rs };
}

const sync = <T>(v: T | Promise<T>): T => {
  if (v instanceof Promise) throw new Error('expected an answer at once');
  return v;
};

test('the replica with the fewest reads in flight; ties take turns; a preferred one is kept while it qualifies', async (t) => {
  const { set, rs } = await setOf(3);
  rs[0].outstanding = 2;
  rs[1].outstanding = 1;
  rs[2].outstanding = 3;
  t.is(sync(set.source(0)), rs[1]);
  t.is(rs[1].outstanding, 2, 'a read in flight is counted');
  rs[0].outstanding = 0;
  rs[1].outstanding = 0;
  rs[2].outstanding = 0;
  const picks = new Set<unknown>();
  for (let i = 0; i < 3; i++) {
    const s = sync(set.source(0));
    picks.add(s);
    s.done();
  }
  t.is(picks.size, 3, 'equal replicas share the reads');
  rs[2].outstanding = 10;
  const kept = sync(set.source(0, rs[2]));
  t.is(kept, rs[2], 'the preferred replica, busy as it is');
  rs[2].state = 'lagging';
  t.not(sync(set.source(0, rs[2])), rs[2], 'not once it left the rotation');
});

test('a read needs its own position, and with consistency instance every write of this instance', async (t) => {
  const { set, rs } = await setOf(2, 'instance');
  const floor = set.history.latest;
  rs[0].replayed = floor + 100;
  rs[1].replayed = floor + 200;
  t.is(sync(set.source(floor + 150)), rs[1], 'only the replica past the asked position');
  t.is(sync(set.source(floor + 300)), set.primary, 'none that far (no wait allowed): the primary');
  t.is(set.fallbacks.behind, 1);
  set.instanceLsn = floor + 150;
  t.is(sync(set.source(0)), rs[1], 'instance: past this instance\'s last write');
  const header = (await setOf(2, 'header')).set;
  header.instanceLsn = Number.MAX_SAFE_INTEGER;
  t.not(sync(header.source(0)), header.primary, 'header: this instance\'s writes do not hold a read back');
});

test('no replica in rotation: the primary; a retry goes to another replica, else the primary', async (t) => {
  const { set, rs } = await setOf(2);
  rs[0].state = 'down';
  rs[1].state = 'lagging';
  t.is(sync(set.source(0)), set.primary);
  t.is(set.fallbacks['no-replica'], 1);
  rs[0].state = 'up';
  rs[1].state = 'up';
  t.is(sync(set.retry(rs[0], 0)), rs[1], 'another replica');
  rs[1].state = 'down';
  t.is(sync(set.retry(rs[0], 0)), set.primary, 'none left: the primary');
  t.is(set.retries, 2);
});

test('schema floor: after a new state, the primary until its position is read again; then replicas that far only', async (t) => {
  const { set, rs } = await setOf(2, 'none');
  const before = set.history.latest;
  rs[0].replayed = before - 1;
  rs[1].replayed = before - 1;
  set.stateSwapped();
  t.is(sync(set.source(0)), set.primary, 'until the primary\'s position is read');
  t.is(set.fallbacks.schema, 1);
  await set.readPrimary(primary);
  t.true(set.history.latest >= before);
  t.is(sync(set.source(0)), set.primary, 'replicas short of the floor are not used');
  rs[1].replayed = set.history.latest;
  t.is(sync(set.source(0)), rs[1], 'a replica at the floor is');
});

test('a replica told a read failed: gone (leaves the rotation, retry), recovery conflict (retry), other (no retry)', async (t) => {
  const { rs } = await setOf(1);
  const r = rs[0];
  r.outstanding = 3;
  t.false(r.done(Object.assign(new Error('syntax error'), { code: '42601' })));
  t.is(r.state, 'up');
  t.true(r.done(Object.assign(new Error('canceling statement due to conflict with recovery'), { code: '40001' })));
  t.is(r.state, 'up');
  t.true(r.done(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })));
  t.is(r.state, 'down');
  t.is(r.outstanding, 0);
});

test('waiting: a read waits for a replica within the allowance, then the primary serves it', async (t) => {
  const { set, rs } = await setOf(1, 'header', 150);
  rs[0].replayed = 0;
  const started = Date.now();
  // The replica's pool points nowhere: reading its position fails, it leaves the rotation, the waiter gets the primary.
  const s = await set.source(Number.MAX_SAFE_INTEGER);
  t.is(s, set.primary);
  t.true(Date.now() - started < 5000);
  t.is(rs[0].state, 'down', 'a replica that cannot be read left the rotation');
  set.close();
  for (const r of rs) await r.close();
});
