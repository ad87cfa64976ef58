// The history operations through a live server: the export at every version equals what the server exported at
// that version (a seeded random stream of operations, snapshots included), the list and its summaries, a diff
// between two versions, a revert (replace_metadata with the export at N) that is itself history, and bad input.
import test from 'ava';
import { queryOk, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { randomMetadataOps } from '../helpers/random-metadata-ops.js';

let e: TestEngine;
test.before(async () => {
  e = await startTestEngine({ snapshotInterval: 10 });
});
test.after.always(() => e?.close());

const ok = (body: unknown) => queryOk(e, body);
const versionOf = (r: { headers: Headers }) => Number(r.headers.get('x-engine-metadata-version'));

test.serial('export at N equals the live export at N, for every version of a random stream', async (t) => {
  const live = new Map<number, unknown>();
  let current = (await e.query({ type: 'export_metadata', args: {} })).body as { tables: Array<{ table: { schema: string; name: string } }> };
  const nextOp = randomMetadataOps(15_2026, {
    tracked: () => current.tables.filter((x) => x.table.schema === 'public').map((x) => x.table.name),
    exported: () => current,
  });
  for (let i = 0; i < 80; i++) {
    await e.query(nextOp(i));
    const r = await e.query({ type: 'export_metadata', args: {} });
    current = r.body as typeof current;
    live.set(versionOf(r), r.body);
  }
  const head = e.seq();
  t.true(head >= 40, `only ${head} events`);
  t.true(live.size >= 30);
  for (const [version, exported] of live) {
    const r = await e.query({ type: 'engine_history_export', args: { version } });
    t.is(r.status, 200);
    t.deepEqual(r.body, exported, `version ${version}`);
  }
  t.deepEqual((await e.query({ type: 'engine_history_export', args: { version: 0 } })).body, { version: 2, tables: [] });
  await ok({ type: 'clear_metadata', args: {} });
  await ok({ type: 'run_sql', args: { sql: 'DROP SCHEMA public CASCADE; CREATE SCHEMA public;' } });
});

test.serial('list, diff and revert: the revert is itself history', async (t) => {
  await ok({ type: 'run_sql', args: { sql: 'CREATE TABLE author (id serial PRIMARY KEY, name text); CREATE TABLE article (id serial PRIMARY KEY, author_id int REFERENCES author(id), title text)' } });
  await ok({ type: 'track_table', args: { table: 'author' } });
  await ok({ type: 'track_table', args: { table: 'article' } });
  await ok({ type: 'create_object_relationship', args: { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } } });
  const beforePermission = e.seq();
  const filter = { id: { _eq: 'X-Engine-User-Id' } };
  await ok({ type: 'create_select_permission', args: { table: 'author', role: 'user', permission: { columns: ['id', 'name'], filter } } });
  const withPermission = e.seq();

  const list = (await e.query({ type: 'engine_history_list', args: { limit: 5 } })).body;
  t.is(list.head, withPermission);
  t.is(list.entries.length, 5);
  t.deepEqual(list.entries.map((x: { seq: number }) => x.seq), [0, 1, 2, 3, 4].map((i) => withPermission - i));
  t.deepEqual(list.entries.slice(0, 4).map((x: { summary: string }) => x.summary), [
    'created select permission for role user on public.author',
    'created object relationship author on public.article',
    'tracked table public.article',
    'tracked table public.author',
  ]);
  t.like(list.entries[0], { type: 'permission_created', operation: 'create_select_permission', role: 'admin' });
  t.regex(list.entries[0].time, /^\d{4}-\d\d-\d\dT/);
  t.is(typeof list.entries[0].request_id, 'string');
  const page2 = (await e.query({ type: 'engine_history_list', args: { offset: 1, limit: 2 } })).body;
  t.deepEqual(page2.entries.map((x: { seq: number }) => x.seq), [withPermission - 1, withPermission - 2]);

  const diff = (await e.query({ type: 'engine_history_diff', args: { from: beforePermission - 3, to: withPermission } })).body;
  t.deepEqual(diff.changes.map((c: { kind: string; path: string }) => `${c.kind} ${c.path}`), ['added tables[public.article]', 'added tables[public.author]']);
  t.deepEqual(diff.changes[1].after.select_permissions, [{ role: 'user', permission: { columns: ['id', 'name'], filter } }]);
  const exact = (await e.query({ type: 'engine_history_diff', args: { from: beforePermission } })).body;
  t.is(exact.to, withPermission);
  t.deepEqual(exact.changes, [{
    kind: 'added',
    path: 'tables[public.author].select_permissions[user]',
    after: { role: 'user', permission: { columns: ['id', 'name'], filter } },
  }]);

  // Revert: replace_metadata with the export at the version before the permission.
  const userQuery = { query: '{ author { id } }' };
  const asUser = { 'x-engine-role': 'user', 'x-engine-user-id': '1' };
  t.deepEqual((await e.graphql(userQuery, asUser)).body, { data: { author: [] } });
  const old = (await e.query({ type: 'engine_history_export', args: { version: beforePermission } })).body;
  await ok({ type: 'replace_metadata', args: old });
  t.is(e.seq(), withPermission + 1);
  const denied = (await e.graphql(userQuery, asUser)).body;
  t.is(denied.errors?.[0]?.extensions?.code, 'validation-failed');
  t.deepEqual((await e.query({ type: 'export_metadata', args: {} })).body, old);
  const top = (await e.query({ type: 'engine_history_list', args: { limit: 1 } })).body;
  t.like(top.entries[0], { seq: withPermission + 1, type: 'metadata_replaced', operation: 'replace_metadata', summary: 'replaced metadata (2 tables)' });
  const undo = (await e.query({ type: 'engine_history_diff', args: { from: withPermission, to: withPermission + 1 } })).body;
  t.deepEqual(undo.changes.map((c: { kind: string; path: string }) => `${c.kind} ${c.path}`), ['removed tables[public.author].select_permissions[user]']);
  // ... and the revert can be reverted.
  await ok({ type: 'replace_metadata', args: (await e.query({ type: 'engine_history_export', args: { version: withPermission } })).body });
  t.deepEqual((await e.graphql(userQuery, asUser)).body, { data: { author: [] } });
});

test.serial('bad input gets metadata API errors; non-admin roles are refused', async (t) => {
  const head = e.seq();
  const beyond = await e.query({ type: 'engine_history_export', args: { version: head + 1 } });
  t.is(beyond.status, 400);
  t.deepEqual(beyond.body, { path: '$.args', error: `version ${head + 1} does not exist (the newest is ${head})`, code: 'not-exists' });
  const missing = await e.query({ type: 'engine_history_export', args: {} });
  t.deepEqual(missing.body, { path: '$.args', error: 'key "version" not found', code: 'parse-failed' });
  const negative = await e.query({ type: 'engine_history_list', args: { limit: 0 } });
  t.is(negative.status, 400);
  t.deepEqual(negative.body, { path: '$.args.limit', error: 'Number must be greater than or equal to 1', code: 'parse-failed' });
  const user = await e.query({ type: 'engine_history_list', args: {} }, { 'x-engine-role': 'user' });
  t.is(user.status, 400);
  t.deepEqual(user.body, { path: '$.args', error: 'restricted access : admin only', code: 'access-denied' });
  // Read-only: it may share a bulk with other read-only operations and appends nothing.
  const bulk = await e.query({ type: 'bulk', args: [{ type: 'engine_history_diff', args: { from: 0 } }, { type: 'export_metadata', args: {} }] });
  t.is(bulk.status, 200);
  t.is(bulk.body[0].to, head);
  t.is(e.seq(), head);
});
