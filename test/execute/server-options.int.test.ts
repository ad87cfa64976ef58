// Issue 34: the original's server options for the database take effect: --tx-iso sets the isolation of GraphQL
// mutations, --conn-lifetime replaces a pooled connection after its lifetime, --timeout closes an idle one, and the
// database given as separate settings (--host --port --user --password --dbname) is the one used, with
// --pg-connection-options on every connection.
import test from 'ava';
import pg from 'pg';
import { parseConfig, type ServerConfig } from '../../src/config/config.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { queryOk, startTestEngine, type TestEngine } from '../helpers/engine.js';

let db: TestDatabase;
let direct: pg.Client;

test.before(async () => {
  db = await createTestDatabase('opts');
  direct = new pg.Client({ connectionString: db.url });
  await direct.connect();
  await direct.query(`
    CREATE TABLE iso (id serial PRIMARY KEY, note text, level text DEFAULT current_setting('transaction_isolation'));
    CREATE VIEW backend AS SELECT pg_backend_pid() AS pid;
    CREATE VIEW float_digits AS SELECT current_setting('extra_float_digits') AS v;`);
});

test.after.always(async () => {
  await direct?.end();
  await db?.drop();
});

/** An engine on the test database with these settings (nothing of its own polls the pool), tables tracked. */
async function engine(settings: Partial<ServerConfig>, database: TestDatabase = db): Promise<TestEngine> {
  const e = await startTestEngine({ database: { ...database, drop: async () => undefined }, syncPollInterval: 3_600_000, ...settings });
  await queryOk(e, { type: 'bulk', args: ['iso', 'backend', 'float_digits'].map((name) => ({ type: 'track_table', args: { name } })) })
    .catch(async (err: unknown) => {
      // Already tracked by an earlier engine of this file (the metadata lives in the database).
      if (!String(err).includes('already-tracked')) throw err;
    });
  return e;
}

async function until(what: string, ok: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  for (const end = Date.now() + timeoutMs; !(await ok()); await new Promise((r) => setTimeout(r, 100))) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
  }
}

const ISO: Array<[ServerConfig['txIsolation'], string]> = [['read-committed', 'read committed'], ['repeatable-read', 'repeatable read'], ['serializable', 'serializable']];

test.serial('--tx-iso: the isolation level of GraphQL mutations, one root field or several', async (t) => {
  for (const [txIsolation, level] of ISO) {
    const e = await engine({ txIsolation });
    try {
      const one = await e.graphql({ query: 'mutation { insert_iso_one(object: {note: "one"}) { level } }' });
      t.deepEqual(one.body, { data: { insert_iso_one: { level } } }, txIsolation);
      const two = await e.graphql({ query: 'mutation { a: insert_iso_one(object: {note: "a"}) { level } b: insert_iso(objects: [{note: "b"}]) { returning { level } } }' });
      t.deepEqual(two.body, { data: { a: { level }, b: { returning: [{ level }] } } }, txIsolation);
    } finally {
      await e.close();
    }
  }
});

test.serial('--conn-lifetime: a pooled connection is replaced once its lifetime is over', async (t) => {
  const e = await engine({ pgConnections: 1, connLifetime: 1, pgTimeout: 0 });
  try {
    const pid = async (): Promise<number> => (await e.graphql({ query: '{ backend { pid } }' })).body.data.backend[0].pid;
    const first = await pid();
    // Queried every 100 ms, the one connection is never idle long; only its lifetime ends it.
    let later = first;
    await until('the connection is replaced', async () => (later = await pid()) !== first, 20_000);
    t.not(later, first);
  } finally {
    await e.close();
  }
});

test.serial('--timeout: a pooled connection idle that long is closed', async (t) => {
  const e = await engine({ pgTimeout: 1, connLifetime: 0 });
  try {
    const app = `engine-${e.engine.instanceId}`.slice(0, 63);
    const pooled = async (): Promise<number> =>
      (await direct.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [app])).rows[0].n;
    t.deepEqual((await e.graphql({ query: '{ iso(limit: 1) { id } }' })).status, 200);
    t.true((await pooled()) > 0);
    // The default (180 s), or pg's own (10 s), would keep it far longer.
    await until('the idle connections are closed', async () => (await pooled()) === 0, 8_000);
    t.is(await pooled(), 0);
  } finally {
    await e.close();
  }
});

test.serial('--host --port --user --password --dbname make the database; --pg-connection-options reach every connection', async (t) => {
  const u = new URL(db.url);
  const config = parseConfig([
    '--host', u.hostname, '--port', u.port || '5432', '--user', decodeURIComponent(u.username), '--dbname', db.name,
    ...(u.password ? ['--password', decodeURIComponent(u.password)] : []),
    '--pg-connection-options', '-c extra_float_digits=3',
  ], {});
  t.not(config.databaseUrl, undefined);
  const e = await engine({}, { ...db, url: config.databaseUrl! });
  try {
    // The default is 1; only the option makes it 3.
    t.deepEqual((await e.graphql({ query: '{ float_digits { v } }' })).body, { data: { float_digits: [{ v: '3' }] } });
  } finally {
    await e.close();
  }
});
