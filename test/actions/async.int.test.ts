// Asynchronous actions: the mutation answers with an id at once, the worker calls the handler and stores the
// output or the error; `<action>(id:)` shows it to the session that made it and to admin; two instances share the
// queue without calling anything twice; an instance killed mid-call leaves the call to another one after its lease.
import test from 'ava';
import pg from 'pg';
import { request, spawnEngine, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { actionSetup, startActionEngine, startHandler, type Handler } from './handler.js';
import { WsClient } from '../helpers/ws.js';

let h: Handler;
test.before(async () => {
  h = await startHandler();
  h.routes.set('/user', (r, res) => {
    const input = r.body.input as { name: string };
    if (input.name === 'bad') {
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ message: 'bad name', code: 'bad-name' }));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ id: Number(r.body.session_variables['x-engine-user-id'] ?? 0), name: input.name }));
  });
});
test.after.always(async () => {
  await h?.close();
});

const setup = (handler: string, timeout = 30) => actionSetup({
  sql: 'CREATE TABLE person (id int PRIMARY KEY, name text NOT NULL); INSERT INTO person VALUES (1, \'one\'), (2, \'two\');',
  table: 'person',
  columns: ['id', 'name'],
  owner: 'id',
  customTypes: {
    objects: [{
      name: 'Made', fields: [{ name: 'id', type: 'Int!' }, { name: 'name', type: 'String' }],
      relationships: [{ name: 'person', type: 'object', remote_table: 'person', field_mapping: { id: 'id' } }],
    }],
  },
  actions: [
    {
      type: 'create_action',
      args: { name: 'make', definition: { kind: 'asynchronous', arguments: [{ name: 'name', type: 'String!' }], output_type: 'Made', handler: `${h.url}${handler}`, timeout } },
    },
    { type: 'create_action_permission', args: { action: 'make', role: 'user' } },
  ],
});

const user = (id: number) => ({ 'X-Engine-Role': 'user', 'X-Engine-User-Id': String(id) });
const STATUS = 'query ($id: uuid!) { make(id: $id) { __typename id created_at errors output { __typename id name person { name } } } }';

async function until<T>(f: () => Promise<T>, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

test.serial('lifecycle: created → completed (output with a relationship) or error; visible to its session and admin only', async (t) => {
  const e = await startActionEngine(setup('/user'));
  try {
    const made = await e.graphql({ query: 'mutation { make(name: "Ann") }' }, user(1));
    const id = (made.body as any).data.make as string;
    t.regex(id, /^[0-9a-f-]{36}$/);
    const status = (headers: Record<string, string>) => e.graphql({ query: STATUS, variables: { id } }, headers);
    const done = await until(() => status(user(1)), (r) => (r.body as any).data?.make?.output != null);
    const row = (done.body as any).data.make;
    t.is(row.__typename, 'make');
    t.is(row.id, id);
    t.is(row.errors, null);
    t.true(Math.abs(Date.now() - Date.parse(row.created_at)) < 60_000, row.created_at);
    t.deepEqual(row.output, { __typename: 'Made', id: 1, name: 'Ann', person: { name: 'one' } });
    // the bytes as the original's SQL writes them: row objects, without spaces
    t.is(done.text, `{"data":{"make":{"__typename":"make","id":"${id}","created_at":${JSON.stringify(row.created_at)},"errors":null,"output":{"__typename":"Made","id":1,"name":"Ann","person":{"name":"one"}}}}}`);
    // the handler got the session of the mutation
    const call = h.calls.find((c) => c.body.action.name === 'make' && (c.body.input as any).name === 'Ann')!;
    t.deepEqual(call.body.session_variables, { 'x-engine-role': 'user', 'x-engine-user-id': '1' });
    // another session sees nothing; admin sees it (and admin's relationship is not filtered)
    t.deepEqual((await status(user(2))).body, { data: { make: null } });
    t.deepEqual((await status({})).body.data.make.output, { __typename: 'Made', id: 1, name: 'Ann', person: { name: 'one' } });

    const failed = await e.graphql({ query: 'mutation { make(name: "bad") }' }, user(2));
    const fid = (failed.body as any).data.make as string;
    const ferr = await until(() => e.graphql({ query: STATUS, variables: { id: fid } }, user(2)), (r) => (r.body as any).data?.make?.errors != null);
    t.deepEqual((ferr.body as any).data.make.errors, { path: '$', error: 'bad name', code: 'bad-name' });
    t.is((ferr.body as any).data.make.output, null);

    const pool = new pg.Pool({ connectionString: e.db.url, max: 1 });
    const rows = await pool.query('SELECT id, status, action_name FROM engine_catalog.hdb_action_log ORDER BY created_at');
    t.deepEqual(rows.rows.map((r) => [r.id, r.status, r.action_name]), [[id, 'completed', 'make'], [fid, 'error', 'make']]);
    // drop_action (clear_data defaults to true) removes the stored calls
    t.is((await e.query({ type: 'drop_action', args: { name: 'make' } })).status, 200);
    t.is((await pool.query('SELECT count(*)::int AS n FROM engine_catalog.hdb_action_log')).rows[0].n, 0);
    await pool.end();
  } finally {
    await e.close();
  }
});

test.serial('an enqueue is one transaction with the other root fields: a failing field leaves no stored call', async (t) => {
  const e = await startActionEngine(setup('/user'));
  const pool = new pg.Pool({ connectionString: e.db.url, max: 1 });
  try {
    const count = async () => (await pool.query("SELECT count(*)::int AS n FROM engine_catalog.hdb_action_log WHERE input->>'name' = 'Tx'")).rows[0].n as number;
    // the second insert violates the primary key after the action was enqueued: nothing of it stays
    const failed = await e.graphql({
      query: 'mutation { a: insert_person_one(object: {id: 3, name: "three"}) { id } make(name: "Tx") b: insert_person_one(object: {id: 3, name: "again"}) { id } }',
    });
    t.is((failed.body as any).errors?.[0]?.extensions?.code, 'constraint-violation');
    t.is(await count(), 0);
    t.is((await pool.query('SELECT count(*)::int AS n FROM person WHERE id = 3')).rows[0].n, 0);
    // the same without the conflict: the row, and the call, which the worker then makes
    const ok = await e.graphql({ query: 'mutation { a: insert_person_one(object: {id: 3, name: "three"}) { id } make(name: "Tx") }' });
    const id = (ok.body as any).data.make as string;
    t.deepEqual((ok.body as any).data.a, { id: 3 });
    t.is(await count(), 1);
    const done = await until(() => e.graphql({ query: STATUS, variables: { id } }), (r) => (r.body as any).data?.make?.output != null);
    t.is((done.body as any).data.make.output.name, 'Tx');
  } finally {
    await pool.end();
    await e.close();
  }
});

test.serial('subscription <action>(id:) over websockets: null output, then the output once the worker stored it; other sessions get null', async (t) => {
  // The handler answers once the subscription has shown the call without output (a fixed delay raced with opening
  // the socket on a loaded machine).
  let answer!: () => void;
  const answered = new Promise<void>((r) => (answer = r));
  h.routes.set('/slow-user', (r, res) => {
    void answered.then(() => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ id: Number(r.body.session_variables['x-engine-user-id'] ?? 0), name: (r.body.input as { name: string }).name }));
    });
  });
  const e = await startActionEngine(setup('/slow-user'), { liveQueries: { batchSize: 100, refetchInterval: 100 } });
  const sockets: WsClient[] = [];
  const open = async (headers: Record<string, string>) => {
    const c = await WsClient.open(e.url);
    sockets.push(c);
    await c.init(headers);
    return c;
  };
  try {
    const id = ((await e.graphql({ query: 'mutation { make(name: "Live") }' }, user(1))).body as any).data.make as string;
    const mine = await open(user(1));
    mine.send({ id: 's', type: 'start', payload: { query: 'subscription ($id: uuid!) { make(id: $id) { id errors output { name person { name } } } }', variables: { id } } });
    const first = await mine.nextFor('s');
    t.deepEqual(first.payload, { data: { make: { id, errors: null, output: null } } });
    answer();
    const next = await mine.nextFor('s', 30_000);
    t.deepEqual(next.payload, { data: { make: { id, errors: null, output: { name: 'Live', person: { name: 'one' } } } } });
    // the id as a literal; another user's session sees nothing, admin sees it
    const other = await open(user(2));
    other.send({ id: 'o', type: 'start', payload: { query: `subscription { make(id: "${id}") { id } }` } });
    t.deepEqual((await other.nextFor('o')).payload, { data: { make: null } });
    const admin = await open({});
    admin.send({ id: 'a', type: 'start', payload: { query: `subscription { make(id: "${id}") { output { name } } }` } });
    t.deepEqual((await admin.nextFor('a')).payload, { data: { make: { output: { name: 'Live' } } } });
  } finally {
    answer();
    for (const c of sockets) c.close();
    await e.close();
  }
});

test.serial('two instances share the queue: every call runs exactly once', async (t) => {
  const seen = new Map<string, number>();
  h.routes.set('/count', (r, res) => {
    const n = (r.body.input as { name: string }).name;
    seen.set(n, (seen.get(n) ?? 0) + 1);
    setTimeout(() => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ id: 1, name: n }));
    }, 200);
  });
  const a = await startTestEngine();
  const b = await startTestEngine({ database: a.db });
  try {
    t.is((await a.query(setup('/count'))).status, 200);
    await until(async () => b.engine.state().cache.actions?.make, (x) => x !== undefined);
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      const r = await (i % 2 ? a : b).graphql({ query: `mutation { make(name: "n${i}") }` });
      ids.push((r.body as any).data.make);
    }
    const pool = new pg.Pool({ connectionString: a.db.url, max: 1 });
    const left = await until(
      async () => (await pool.query("SELECT count(*)::int AS n FROM engine_catalog.hdb_action_log WHERE status <> 'completed'")).rows[0].n as number,
      (n) => n === 0, 30_000,
    );
    t.is(left, 0);
    t.is(seen.size, 40);
    t.deepEqual([...seen.values()].filter((n) => n !== 1), []);
    const by = await pool.query('SELECT locked_by, count(*)::int AS n FROM engine_catalog.hdb_action_log GROUP BY locked_by ORDER BY locked_by');
    t.log(`calls per instance: ${by.rows.map((r) => r.n).join(' / ')}`);
    t.is(by.rows.reduce((s, r) => s + r.n, 0), 40);
    await pool.end();
  } finally {
    await b.close();
    await a.close();
  }
});

test.serial('an instance killed (SIGKILL) during a call: the call is made again after the lease, and completes', async (t) => {
  let release: (() => void) | null = null;
  let calls = 0;
  h.routes.set('/hang', (_r, res) => {
    calls += 1;
    const answer = () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ id: 2, name: 'late' }));
    };
    if (calls === 1) release = answer; // the first call never gets an answer (its caller dies)
    else answer();
  });
  const db: TestDatabase = await createTestDatabase('e');
  await (await startActionEngine(setup('/hang', 1), { database: db })).close();
  const child = await spawnEngine(db.url);
  const pool = new pg.Pool({ connectionString: db.url, max: 1 });
  try {
    const made = await request(`${child.url}/v1/graphql`, 'POST', { query: 'mutation { make(name: "x") }' });
    const id = (made.body as any).data.make as string;
    await until(async () => calls, (n) => n === 1);
    t.is(calls, 1);
    await child.kill();
    const killedAt = Date.now();
    const row = (await pool.query('SELECT status, lease_until > now() AS leased FROM engine_catalog.hdb_action_log WHERE id = $1', [id])).rows[0];
    t.deepEqual(row, { status: 'processing', leased: true });
    const e = await startTestEngine({ database: db });
    try {
      const done = await until(() => e.graphql({ query: STATUS, variables: { id } }), (r) => (r.body as any).data?.make?.output != null, 30_000);
      t.deepEqual((done.body as any).data.make.output, { __typename: 'Made', id: 2, name: 'late', person: { name: 'two' } });
      t.is(calls, 2);
      t.log(`reclaimed and completed ${Date.now() - killedAt} ms after the kill (lease: timeout 1 s + 10 s margin)`);
    } finally {
      await e.close();
    }
  } finally {
    (release as (() => void) | null)?.();
    await child.kill();
    await pool.end();
    await db.drop();
  }
});
