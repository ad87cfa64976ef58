// Event triggers, remote schemas and query collections through runMetadataQuery on real Postgres: env checks,
// introspection of a live remote (a loopback GraphQL server), export/replace round trips, bulk paths.
import test from 'ava';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSchema, graphql } from 'graphql';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { Harness } from './harness.js';

const dbs: TestDatabase[] = [];
const harnesses: Harness[] = [];
const servers: http.Server[] = [];
test.after.always(async () => {
  await Promise.all(harnesses.map((h) => h.close()));
  await Promise.all(dbs.map((d) => d.drop()));
  servers.forEach((s) => s.close());
});

async function fresh(): Promise<Harness> {
  const db = await createTestDatabase('wfam');
  dbs.push(db);
  const h = await Harness.connect(db.url);
  harnesses.push(h);
  await h.ok({
    type: 'bulk',
    args: [
      { type: 'run_sql', args: { sql: 'CREATE TABLE author (id serial PRIMARY KEY, name text)' } },
      { type: 'track_table', args: 'author' },
    ],
  });
  return h;
}

/** A loopback GraphQL server; `status` lets a test make it answer with an error. */
async function remoteServer(): Promise<{ url: string; seen: http.IncomingHttpHeaders[]; setStatus(s: number): void }> {
  const schema = buildSchema('type Query { hello: String }');
  const seen: http.IncomingHttpHeaders[] = [];
  let status = 200;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      seen.push(req.headers);
      if (status !== 200) {
        res.writeHead(status, { 'content-type': 'application/json' }).end('{"oops":true}');
        return;
      }
      const { query } = JSON.parse(body) as { query: string };
      const r = await graphql({ schema, source: query, rootValue: { hello: 'world' } });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(r));
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`, seen, setStatus: (s) => (status = s) };
}

const trigger = (args: Record<string, unknown> = {}) => ({
  type: 'create_event_trigger',
  args: { name: 'author_changed', table: 'author', webhook: 'http://hook.example/x', insert: { columns: '*' }, delete: { columns: '*' }, ...args },
});

test('event triggers: create, replace, export, delete; env variables checked as constraint-violation', async (t) => {
  const h = await fresh();
  t.deepEqual(await h.ok(trigger({ headers: [{ name: 'X-A', value: 'v' }] })), { message: 'success' });
  let exp = (await h.ok({ type: 'export_metadata', args: {} })) as { tables: Array<Record<string, unknown>> };
  t.deepEqual(exp.tables[0].event_triggers, [
    {
      name: 'author_changed',
      definition: { insert: { columns: '*' }, delete: { columns: '*' }, enable_manual: false },
      retry_conf: { num_retries: 0, interval_sec: 10, timeout_sec: 60 },
      webhook: 'http://hook.example/x',
      headers: [{ name: 'X-A', value: 'v' }],
    },
  ]);
  // replace with a missing env variable: rejected, nothing changes
  const bad = await h.query(trigger({ replace: true, webhook: undefined, webhook_from_env: 'ENGINE_TEST_SURELY_UNSET_VAR' }));
  t.is(bad.status, 400);
  t.like(bad.body as object, {
    code: 'constraint-violation',
    path: '$.args',
    error: `in table "author": in event trigger "author_changed": environment variable 'ENGINE_TEST_SURELY_UNSET_VAR' not set`,
  });
  process.env.ENGINE_TEST_HOOK_URL = 'http://from-env';
  await h.ok(trigger({ replace: true, webhook: undefined, webhook_from_env: 'ENGINE_TEST_HOOK_URL', update: { columns: ['name'] } }));
  exp = (await h.ok({ type: 'export_metadata', args: {} })) as { tables: Array<Record<string, unknown>> };
  const [et] = exp.tables[0].event_triggers as Array<Record<string, unknown>>;
  t.is(et.webhook_from_env, 'ENGINE_TEST_HOOK_URL');
  t.false('webhook' in et);
  // a column that does not exist
  t.like((await h.query(trigger({ name: 'other', update: { columns: ['nope'] } }))).body as object, { code: 'not-exists', error: 'column "nope" does not exist' });
  // replace_metadata round-trips the export
  const before = await h.ok({ type: 'export_metadata', args: {} });
  await h.ok({ type: 'replace_metadata', args: before });
  t.deepEqual(await h.ok({ type: 'export_metadata', args: {} }), before);
  await h.ok({ type: 'delete_event_trigger', args: { name: 'author_changed' } });
  await h.ok({ type: 'delete_event_trigger', args: { name: 'author_changed' } }); // unknown: still success
  exp = (await h.ok({ type: 'export_metadata', args: {} })) as { tables: Array<Record<string, unknown>> };
  t.false('event_triggers' in exp.tables[0]);
});

test('event triggers: errors inside bulk carry the element path; invoke/redeliver errors', async (t) => {
  const h = await fresh();
  const r = await h.query({ type: 'bulk', args: [trigger(), trigger()] });
  t.is(r.status, 500);
  t.like(r.body as object, { code: 'unexpected', path: '$.args[1].args' });
  const p = await h.query({ type: 'bulk', args: [trigger({ name: '' })] });
  t.like(p.body as object, { code: 'parse-failed', path: '$[0].name', error: 'empty string not allowed' });
  await h.ok(trigger());
  t.like((await h.query({ type: 'invoke_event_trigger', args: { name: 'author_changed', payload: {} } })).body as object, {
    code: 'not-supported',
    error: 'manual mode is not enabled for event trigger',
  });
  t.like((await h.query({ type: 'redeliver_event', args: { event_id: 'x' } })).body as object, { code: 'not-exists', error: 'event not found' });
  // untracking the table takes its triggers with it
  await h.ok({ type: 'untrack_table', args: { table: 'author' } });
  await h.ok({ type: 'track_table', args: 'author' });
  await h.ok(trigger());
});

test('remote schemas: introspected on add (headers sent), export, errors, reload, remove', async (t) => {
  const h = await fresh();
  const remote = await remoteServer();
  process.env.ENGINE_TEST_REMOTE_URL = remote.url;
  process.env.ENGINE_TEST_REMOTE_HDR = 'from-env';
  await h.ok({
    type: 'add_remote_schema',
    args: {
      name: 'hello',
      comment: 'a remote',
      definition: { url_from_env: 'ENGINE_TEST_REMOTE_URL', headers: [{ name: 'X-Static', value: 's' }, { name: 'X-Env', value_from_env: 'ENGINE_TEST_REMOTE_HDR' }], forward_client_headers: true },
    },
  });
  t.is(remote.seen.length, 1);
  t.is(remote.seen[0]['x-static'], 's');
  t.is(remote.seen[0]['x-env'], 'from-env');
  const exp = (await h.ok({ type: 'export_metadata', args: {} })) as Record<string, unknown>;
  t.deepEqual(exp.remote_schemas, [
    {
      name: 'hello',
      definition: { url_from_env: 'ENGINE_TEST_REMOTE_URL', headers: [{ name: 'X-Static', value: 's' }, { name: 'X-Env', value_from_env: 'ENGINE_TEST_REMOTE_HDR' }], forward_client_headers: true },
      comment: 'a remote',
    },
  ]);
  t.like((await h.query({ type: 'add_remote_schema', args: { name: 'hello', definition: { url: remote.url } } })).body as object, {
    code: 'already-exists',
    error: 'remote schema with name "hello" already exists',
  });
  t.like((await h.query({ type: 'add_remote_schema', args: { name: 'x', definition: { url_from_env: 'ENGINE_TEST_SURELY_UNSET_VAR' } } })).body as object, {
    code: 'not-found',
    error: "environment variable 'ENGINE_TEST_SURELY_UNSET_VAR' not set",
  });
  // nothing listens there
  const down = await h.query({ type: 'add_remote_schema', args: { name: 'down', definition: { url: 'http://127.0.0.1:9/graphql' } } });
  t.is(down.status, 400);
  t.like(down.body as object, { code: 'remote-schema-error', path: '$.args', error: 'HTTP exception occurred while sending the request to http://127.0.0.1:9/graphql' });
  remote.setStatus(500);
  t.like((await h.query({ type: 'add_remote_schema', args: { name: 'x', definition: { url: remote.url } } })).body as object, {
    code: 'remote-schema-error',
    error: `introspection query to ${remote.url} has responded with 500 status code`,
  });
  remote.setStatus(200);
  t.deepEqual(await h.ok({ type: 'reload_remote_schema', args: { name: 'hello' } }), { message: 'success' });
  t.like((await h.query({ type: 'reload_remote_schema', args: { name: 'nope' } })).body as object, { code: 'not-exists' });
  await h.ok({ type: 'remove_remote_schema', args: { name: 'hello' } });
  t.like((await h.query({ type: 'remove_remote_schema', args: { name: 'hello' } })).body as object, { code: 'not-exists', error: 'no such remote schema' });
  t.false('remote_schemas' in ((await h.ok({ type: 'export_metadata', args: {} })) as object));
});

test('query collections: export/replace round trip with the allow-list', async (t) => {
  const h = await fresh();
  await h.ok({
    type: 'bulk',
    args: [
      { type: 'create_query_collection', args: { name: 'c1', comment: 'first', definition: { queries: [{ name: 'q1', query: '{ author { id } }' }] } } },
      { type: 'add_collection_to_allowlist', args: { collection: 'c1' } },
    ],
  });
  const exp = (await h.ok({ type: 'export_metadata', args: {} })) as Record<string, unknown>;
  t.deepEqual(exp.query_collections, [{ name: 'c1', definition: { queries: [{ name: 'q1', query: '{ author { id } }' }] }, comment: 'first' }]);
  t.deepEqual(exp.allowlist, [{ collection: 'c1' }]);
  await h.ok({ type: 'clear_metadata', args: {} });
  await h.ok({ type: 'replace_metadata', args: exp });
  t.deepEqual(await h.ok({ type: 'export_metadata', args: {} }), exp);
  t.like((await h.query({ type: 'drop_query_collection', args: { collection: 'c1', cascade: false } })).body as object, { code: 'dependency-error' });
  await h.ok({ type: 'drop_query_collection', args: { collection: 'c1', cascade: true } });
  const after = (await h.ok({ type: 'export_metadata', args: {} })) as Record<string, unknown>;
  t.false('allowlist' in after);
  t.false('query_collections' in after);
});

test('replace_metadata: triggers and remote schemas are parsed, normalised and checked strictly', async (t) => {
  const h = await fresh();
  const remote = await remoteServer();
  const doc = (triggers: unknown[], remotes: unknown[]) => ({
    version: 2,
    tables: [{ table: { schema: 'public', name: 'author' }, event_triggers: triggers }],
    remote_schemas: remotes,
  });
  const et = { name: 'e1', definition: { insert: { columns: '*', payload: null }, enable_manual: null }, retry_conf: { num_retries: 1, interval_sec: 5 }, webhook: 'http://h' };
  await h.ok({ type: 'replace_metadata', args: doc([et], [{ name: 'r', definition: { url: remote.url, forward_client_headers: false, headers: [] } }]) });
  t.deepEqual(await h.ok({ type: 'export_metadata', args: {} }), {
    version: 2,
    tables: [{ table: { schema: 'public', name: 'author' }, event_triggers: [{ name: 'e1', definition: { insert: { columns: '*' }, enable_manual: false }, retry_conf: { num_retries: 1, interval_sec: 5 }, webhook: 'http://h' }] }],
    remote_schemas: [{ name: 'r', definition: { url: remote.url } }],
  });
  const missingRetry = await h.query({ type: 'replace_metadata', args: doc([{ name: 'e1', definition: {}, webhook: 'http://h' }], []) });
  t.like(missingRetry.body as object, { code: 'parse-failed', error: 'key "retry_conf" not found' });
  const envless = await h.query({ type: 'replace_metadata', args: doc([{ ...et, webhook: undefined, webhook_from_env: 'ENGINE_TEST_SURELY_UNSET_VAR' }], []) });
  t.is(envless.status, 400);
  t.like(envless.body as object, { code: 'unexpected', error: 'cannot continue due to inconsistent metadata' });
  t.like((envless.body as { internal: unknown[] }).internal[0] as object, { type: 'event_trigger' });
  const down = await h.query({ type: 'replace_metadata', args: doc([], [{ name: 'r', definition: { url: 'http://127.0.0.1:9/graphql' } }]) });
  t.like(down.body as object, { code: 'unexpected', error: 'cannot continue due to inconsistent metadata' });
  t.like((down.body as { internal: unknown[] }).internal[0] as object, { type: 'remote_schema', reason: 'HTTP exception occurred while sending the request to http://127.0.0.1:9/graphql' });
  // the failed replaces changed nothing
  t.is(((await h.ok({ type: 'export_metadata', args: {} })) as { remote_schemas: unknown[] }).remote_schemas.length, 1);
});

test('event triggers depend on their columns: run_sql drop needs cascade, renames follow, untrack takes them', async (t) => {
  const h = await fresh();
  await h.ok(trigger({ update: { columns: ['name'], payload: ['id', 'name'] } }));
  const r = await h.sql('ALTER TABLE author DROP COLUMN name');
  t.is(r.status, 400);
  t.like(r.body as object, { code: 'dependency-error', error: 'cannot drop due to the following dependent objects : event-trigger author.author_changed' });
  await h.sql('ALTER TABLE author RENAME COLUMN name TO full_name');
  let exp = (await h.ok({ type: 'export_metadata', args: {} })) as { tables: Array<{ event_triggers: Array<{ definition: Record<string, unknown> }> }> };
  t.deepEqual(exp.tables[0].event_triggers[0].definition.update, { columns: ['full_name'], payload: ['id', 'full_name'] });
  await h.ok({ type: 'run_sql', args: { sql: 'ALTER TABLE author DROP COLUMN full_name', cascade: true } });
  exp = (await h.ok({ type: 'export_metadata', args: {} })) as typeof exp;
  t.false('event_triggers' in exp.tables[0]);
  // untrack_table needs no cascade for its own triggers
  await h.ok(trigger());
  await h.ok({ type: 'untrack_table', args: { table: 'author' } });
  t.deepEqual(((await h.ok({ type: 'export_metadata', args: {} })) as { tables: unknown[] }).tables, []);
});
