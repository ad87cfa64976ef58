// A read replica's pool keeps its connections as the primary's does (--timeout, --conn-lifetime), not pg's own 10 s
// idle timeout. The "replica" here is the test server itself: only the pool's handling of its connections matters.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { baseDatabaseUrl } from '../helpers/db.js';
import { Replica } from '../../src/replicas/replica.js';
import { poolTimesOf, makeConfig } from '../../src/config/config.js';
import { configureLog } from '../../src/core/log.js';
import { until } from './fixture.js';

configureLog('silent');
const direct = new pg.Pool({ connectionString: baseDatabaseUrl(), max: 1 });
test.after.always(() => direct.end());

const connectionsOf = async (app: string): Promise<number> =>
  (await direct.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [app])).rows[0].n;

test('--timeout closes a replica pool connection idle that long', async (t) => {
  const app = `replica-pool-${randomBytes(4).toString('hex')}`;
  const times = poolTimesOf(makeConfig({ pgTimeout: 1, connLifetime: 0 }));
  const r = new Replica({ url: baseDatabaseUrl(), name: 'r', poolSize: 2, applicationName: app, poolTimes: times });
  try {
    await r.pool.query('SELECT 1');
    t.is(await connectionsOf(app), 1);
    // pg's own idle timeout (10 s) would keep it past this wait.
    await until(async () => (await connectionsOf(app)) === 0, 6_000);
    t.is(await connectionsOf(app), 0);
  } finally {
    await r.close();
  }
});

test('--conn-lifetime replaces a replica pool connection once its lifetime is over', async (t) => {
  const app = `replica-pool-${randomBytes(4).toString('hex')}`;
  const times = poolTimesOf(makeConfig({ pgTimeout: 0, connLifetime: 1 }));
  const r = new Replica({ url: baseDatabaseUrl(), name: 'r', poolSize: 1, applicationName: app, poolTimes: times });
  try {
    const pid = async (): Promise<number> => (await r.pool.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const first = await pid();
    let later = first;
    // Used every 100 ms, the one connection never idles; only its lifetime ends it.
    await until(async () => (later = await pid()) !== first, 10_000);
    t.not(later, first);
  } finally {
    await r.close();
  }
});
