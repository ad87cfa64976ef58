// Remote schemas and the whole-metadata operations: drop_inconsistent_metadata removes a remote that is
// inconsistent (as the original purges it), and reload_remote_schema is a line of the metadata log that another
// instance acts on (it introspects the remote again). The other instance is a separate process here (each engine
// keeps its own introspections: test/remote/introspections.int.test.ts runs two in one process). Real engines, real
// Postgres, real graphql-js servers on loopback.
import test from 'ava';
import pg from 'pg';
import { createTestDatabase } from '../helpers/db.js';
import { request, spawnEngine, startTestEngine } from '../helpers/engine.js';
import { startRemote } from './server.js';

async function lastEvent(dbUrl: string): Promise<{ type: string; data: unknown; operation: string }> {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    const r = await c.query("SELECT type, data, meta->>'operation' AS operation FROM engine_catalog.metadata_log ORDER BY seq DESC LIMIT 1");
    return r.rows[0] as { type: string; data: unknown; operation: string };
  } finally {
    await c.end();
  }
}

test('drop_inconsistent_metadata removes a remote that is down; the others stay', async (t) => {
  const down = await startRemote('type Query { greet: String }', { greet: () => 'hi' });
  const up = await startRemote('type Query { stays: String }', { stays: () => 'here' });
  t.teardown(() => up.close());
  const first = await startTestEngine();
  t.teardown(() => first.close());
  for (const [name, url] of [['greeter', down.url], ['stays', up.url]]) {
    const r = await first.query({ type: 'add_remote_schema', args: { name, definition: { url } } });
    t.is(r.status, 200, r.text);
  }
  await first.engine.close();
  await down.close();
  const second = await startTestEngine({ database: first.db });
  t.teardown(() => second.close());
  t.like((await second.query({ type: 'get_inconsistent_metadata', args: {} })).body, { is_consistent: false, inconsistent_objects: [{ type: 'remote_schema' }] });
  const r = await second.query({ type: 'drop_inconsistent_metadata', args: {} });
  t.is(r.status, 200, r.text);
  t.deepEqual(await lastEvent(first.db.url), { type: 'remote_schema_removed', data: { name: 'greeter' }, operation: 'drop_inconsistent_metadata' });
  t.deepEqual((await second.query({ type: 'get_inconsistent_metadata', args: {} })).body, { is_consistent: true, inconsistent_objects: [] });
  const exported = (await second.query({ type: 'export_metadata', args: {} })).body as { remote_schemas: Array<{ name: string }> };
  t.deepEqual(exported.remote_schemas.map((x) => x.name), ['stays']);
  t.deepEqual((await second.graphql({ query: '{ stays }' })).body, { data: { stays: 'here' } });
  t.is((await second.graphql({ query: '{ greet }' })).body.errors[0].extensions.code, 'validation-failed');
});

test('reload_remote_schema is an event in the metadata log; another instance introspects the remote again when it folds it', async (t) => {
  const db = await createTestDatabase('rr');
  t.teardown(() => db.drop());
  const v1 = await startRemote('type Query { a: String }', { a: () => 'A' });
  const port = Number(new URL(v1.url).port);
  const a = await startTestEngine({ database: db });
  t.teardown(() => a.close());
  t.is((await a.query({ type: 'add_remote_schema', args: { name: 'r', definition: { url: v1.url } } })).status, 200);
  const b = await spawnEngine(db.url);
  t.teardown(() => b.stop());
  const gql = (query: string) => request(`${b.url}/v1/graphql`, 'POST', { query });
  t.deepEqual((await gql('{ a }')).body, { data: { a: 'A' } });
  // The remote changes: instance b keeps what it introspected until a reload
  await v1.close();
  const v2 = await startRemote('type Query { a: String, b: String }', { a: () => 'A2', b: () => 'B' }, port);
  t.teardown(() => v2.close());
  t.is((await gql('{ b }')).body.errors[0].extensions.code, 'validation-failed');
  const r = await a.query({ type: 'reload_remote_schema', args: { name: 'r' } });
  t.is(r.status, 200, r.text);
  t.deepEqual(await lastEvent(db.url), { type: 'remote_schema_reloaded', data: { name: 'r' }, operation: 'reload_remote_schema' });
  t.deepEqual((await a.graphql({ query: '{ b }' })).body, { data: { b: 'B' } });
  let seen: unknown = null;
  for (let i = 0; i < 100; i++) {
    seen = (await gql('{ b }')).body;
    if (JSON.stringify(seen) === '{"data":{"b":"B"}}') break;
    await new Promise((res) => setTimeout(res, 100));
  }
  t.deepEqual(seen, { data: { b: 'B' } }, 'instance b introspected the remote again');
});
