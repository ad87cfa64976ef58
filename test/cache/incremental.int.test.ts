// The incremental schema cache and role schemas (src/cache/build.ts Note [Incremental cache], Note [Delta build];
// src/graphql/schema/build.ts Note [Role schemas across states]) give what a build from scratch gives. A seeded
// random stream of metadata operations (successes and failures, single and in bulks) runs on a real database;
// after each one, the live state's cache (built from the previous one, in place within bulks) and the cache a
// follower gets by folding the new events onto its previous state must equal a cache built with a fresh memo, and
// every role's schema, reused across states where its key holds, must print as a schema built from that fresh cache
// and hold the same permissions. Serial: the last schema built per role is remembered process-wide, and the two
// tests' states would take turns replacing it.
import test from 'ava';
import { printSchema } from 'graphql';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { Harness } from '../metadata/harness.js';
import { randomMetadataOps } from '../helpers/random-metadata-ops.js';
import { buildSchemaCache } from '../../src/cache/build.js';
import { CacheMemo } from '../../src/cache/memo.js';
import type { EngineState } from '../../src/cache/state.js';
import type { SchemaCache } from '../../src/cache/types.js';
import { buildRoleSchema, roleSchema } from '../../src/graphql/schema/build.js';
import type { RoleSchema } from '../../src/graphql/role-schema.js';
import { features } from '../../src/features.js';
import { exportMetadata } from '../../projections/export.js';
import { fold } from '../../projections/replay.js';

const ROLES = ['admin', 'user', 'editor', 'anon', 'nobody'];
let prevState: EngineState;

let db: TestDatabase;
let h: Harness;
test.before(async () => {
  db = await createTestDatabase('cacheincr');
  h = await Harness.connect(db.url);
});
test.after.always(async () => {
  await h?.close();
  await db?.drop();
});

/** What a cache holds, as plain data (the lazily computed roles included). */
const contents = (c: SchemaCache) => ({ tables: c.tables, functions: c.functions, roles: c.roles, inconsistent: c.inconsistent, actions: c.actions, customTypes: c.customTypes });

/**
 * What a role's schema answers with beyond its printed SDL: the permissions (filters, checks, presets, limits) it
 * compiles requests with, of every table it reads, and the access of each table it exposes.
 */
function permissionsSeen(rs: RoleSchema, role: string) {
  const tables = Object.entries(rs.ctx.cache.tables).flatMap(([k, info]) => (info.permissions[role] ? [[k, info.permissions[role]]] : []));
  const views = [...rs.ctx.tables].map(([k, v]) => [k, { ...v.access, columns: [...v.access.columns], computedFields: [...v.access.computedFields] }]);
  return { tables, views };
}

/** Permission changes on every tracked table, many to a bulk (the in-place path of a big bulk). */
function permissionBulk(i: number): unknown {
  const args: unknown[] = [];
  Object.values(h.state.metadata.tables).forEach((meta, n) => {
    const table = meta.table.name;
    const role = ['user', 'editor', 'anon'][(i + n) % 3];
    if (meta.select_permissions[role]) args.push({ type: 'drop_select_permission', args: { table, role } });
    // Columns that may have been renamed away: then the element, and the bulk, fails.
    args.push({ type: 'create_select_permission', args: { table, role, permission: { columns: (i + n) % 2 ? '*' : ['id', 'name'], filter: { id: { _gt: i } } } } });
    args.push({ type: 'create_delete_permission', args: { table, role: `r${i}`, permission: { filter: {} } } });
  });
  return { type: 'bulk', args };
}

test.serial('random metadata changes: incremental caches and role schemas equal fresh builds', async (t) => {
  const nextOp = randomMetadataOps(33, {
    tracked: () => Object.values(h.state.metadata.tables).map((x) => x.table.name),
    exported: () => exportMetadata(h.state.metadata),
  });
  const followerMemo = new CacheMemo();
  let follower: EngineState = { ...h.state, cache: buildSchemaCache(h.state.metadata, h.state.catalog, h.state.remoteSchemas, features.cacheChecks, { memo: followerMemo }) };
  let compared = 0;
  let reused = 0;
  let bulks = 0;
  const N = 220;
  for (let i = 0; i < N; i++) {
    // Every 7th request a bulk of permission changes on every table.
    const body = i % 7 === 6 ? permissionBulk(i) : nextOp(i);
    const before = h.log.length;
    const res = await h.query(body);
    t.not(res.status, 500, JSON.stringify({ body, res }));
    if (i % 7 === 6 && res.status === 200) bulks++;
    const state = h.state;
    const fresh = buildSchemaCache(state.metadata, state.catalog, state.remoteSchemas, features.cacheChecks, { memo: new CacheMemo() });
    t.deepEqual(contents(state.cache), contents(fresh), `live cache after ${JSON.stringify(body)}`);
    // A follower folds the new events onto its previous state (as src/sync/catchup.ts does); another process, so
    // with a memo of its own.
    const events = h.log.slice(before);
    if (events.length) {
      const metadata = fold(follower.metadata, events);
      const cache = buildSchemaCache(metadata, state.catalog, state.remoteSchemas, features.cacheChecks, { previous: follower.cache, memo: followerMemo });
      follower = { seq: state.seq, metadata, catalog: state.catalog, remoteSchemas: state.remoteSchemas, cache };
      t.deepEqual(contents(follower.cache), contents(fresh), `follower cache after ${JSON.stringify(body)}`);
    }
    for (const role of ROLES) {
      const previous = i > 0 ? roleSchema(prevState, role, features.extensions) : null;
      const live = roleSchema(state, role, features.extensions);
      if (live === previous) reused++;
      const expected = buildRoleSchema(fresh, role, features.extensions);
      t.is(printSchema(live.schema), printSchema(expected.schema), `${role}'s schema after ${JSON.stringify(body)}`);
      t.deepEqual(permissionsSeen(live, role), permissionsSeen(expected, role), `${role}'s permissions after ${JSON.stringify(body)}`);
      compared++;
    }
    prevState = state;
  }
  t.log(`${N} operations, ${bulks} permission bulks committed, ${h.log.length} events, ${compared} role schemas compared, ${reused} reused from the state before`);
  t.true(bulks > 10);
  // The stream must exercise reuse, or it proves nothing about it.
  t.true(reused > 50);
});

test.serial('a permission change rebuilds only the schema of the role it changes; a relationship change those of roles that see the table', async (t) => {
  const other = await createTestDatabase('cacheincr2');
  const g = await Harness.connect(other.url);
  t.teardown(async () => {
    await g.close();
    await other.drop();
  });
  await g.ok({ type: 'run_sql', args: { sql: 'CREATE TABLE a (id serial PRIMARY KEY, title text); CREATE TABLE b (id serial PRIMARY KEY, a_id int REFERENCES a(id)); CREATE TABLE c (id serial PRIMARY KEY);' } });
  await g.ok({ type: 'bulk', args: [
    { type: 'track_table', args: 'a' }, { type: 'track_table', args: 'b' }, { type: 'track_table', args: 'c' },
    ...['user', 'editor'].map((role) => ({ type: 'create_select_permission', args: { table: 'a', role, permission: { columns: '*', filter: {} } } })),
    ...['user', 'editor'].map((role) => ({ type: 'create_select_permission', args: { table: 'b', role, permission: { columns: '*', filter: {} } } })),
    { type: 'create_select_permission', args: { table: 'c', role: 'anon', permission: { columns: '*', filter: {} } } },
  ] });
  const schemas = () => Object.fromEntries(['admin', 'user', 'editor', 'anon'].map((r) => [r, roleSchema(g.state, r, features.extensions)]));
  const s0 = schemas();
  await g.ok({ type: 'create_insert_permission', args: { table: 'a', role: 'user', permission: { columns: ['title'], check: {} } } });
  const s1 = schemas();
  t.not(s1.user, s0.user);
  t.is(s1.editor, s0.editor);
  t.is(s1.anon, s0.anon);
  t.is(s1.admin, s0.admin);
  await g.ok({ type: 'create_object_relationship', args: { table: 'b', name: 'a', using: { foreign_key_constraint_on: 'a_id' } } });
  const s2 = schemas();
  t.not(s2.user, s1.user);
  t.not(s2.editor, s1.editor);
  t.not(s2.admin, s1.admin);
  t.is(s2.anon, s1.anon);
  t.truthy(s2.editor.ctx.tables.get('public.b')?.objectRels.get('a'));
});
