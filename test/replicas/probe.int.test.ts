// The health poll's connection (src/replicas/probe.ts) on the test server: one connection kept across reads; one
// that died while idle is reported and replaced at the next read; a failed read drops its connection.
import test from 'ava';
import pg from 'pg';
import { baseDatabaseUrl } from '../helpers/db.js';
import { Probe } from '../../src/replicas/probe.js';

const admin = new pg.Pool({ connectionString: baseDatabaseUrl(), max: 1 });
test.after.always(() => admin.end());

const PID = 'SELECT pg_backend_pid() AS pid';
const pidOf = async (p: Probe): Promise<number> => (await p.query<{ pid: number }>(PID))[0].pid;

async function terminate(pid: number): Promise<void> {
  await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  // Until the backend is gone (and the client has heard of it).
  for (let i = 0; i < 200; i++) {
    const r = await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]);
    if (r.rowCount === 0) break;
    await new Promise((res) => setTimeout(res, 10));
  }
  await new Promise((res) => setTimeout(res, 50));
}

test('one connection across reads, with the application name given', async (t) => {
  const probe = new Probe({ url: baseDatabaseUrl(), applicationName: 'probe-test-1', connectionTimeoutMillis: 5000 }, () => undefined);
  try {
    const pid = await pidOf(probe);
    t.is(await pidOf(probe), pid);
    const r = await admin.query<{ application_name: string }>('SELECT application_name FROM pg_stat_activity WHERE pid = $1', [pid]);
    t.is(r.rows[0]?.application_name, 'probe-test-1');
  } finally {
    await probe.close();
  }
});

test('a connection that died while idle is reported once and replaced at the next read', async (t) => {
  const errors: Error[] = [];
  const probe = new Probe({ url: baseDatabaseUrl(), applicationName: 'probe-test-2', connectionTimeoutMillis: 5000 }, (e) => errors.push(e));
  try {
    const pid = await pidOf(probe);
    await terminate(pid);
    t.is(errors.length, 1);
    const again = await pidOf(probe);
    t.not(again, pid);
    t.is(await pidOf(probe), again);
  } finally {
    await probe.close();
  }
});

test('a failed read drops its connection (the next read opens another); a closed probe refuses reads', async (t) => {
  const errors: Error[] = [];
  const probe = new Probe({ url: baseDatabaseUrl(), applicationName: 'probe-test-3', connectionTimeoutMillis: 5000 }, (e) => errors.push(e));
  const pid = await pidOf(probe);
  await t.throwsAsync(probe.query('SELECT pg_terminate_backend(pg_backend_pid())'));
  t.not(await pidOf(probe), pid);
  // The read's own failure is the read's: not reported as an idle connection's.
  t.is(errors.length, 0);
  await probe.close();
  await t.throwsAsync(probe.query(PID));
  const r = await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'probe-test-3'");
  t.is(r.rows[0].n, 0);
});
