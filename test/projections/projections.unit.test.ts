// evolve/fold and the export format: key order, "left out when empty", renames, and replace_metadata's parse.
import test from 'ava';
import { EngineError } from '../../src/core/errors.js';
import { ev, type Event } from '../../events/types.js';
import { emptyMetadata } from '../../projections/metadata.js';
import { evolve } from '../../projections/evolve.js';
import { fold } from '../../projections/replay.js';
import { exportMetadata, parseMetadataDocument } from '../../projections/export.js';

const T = (name: string, schema = 'public') => ({ schema, name });
const noConfig = { custom_root_fields: {}, custom_column_names: {} };

const base: Event[] = [
  ev('table_tracked', { table: T('author'), is_enum: false, configuration: noConfig }),
  ev('table_tracked', { table: T('article'), is_enum: false, configuration: noConfig }),
  ev('relationship_created', { table: T('article'), kind: 'object', relationship: { name: 'author', using: { foreign_key_constraint_on: 'author_id' }, comment: null } }),
  ev('relationship_created', {
    table: T('author'), kind: 'array',
    relationship: { name: 'articles', using: { foreign_key_constraint_on: { table: T('article'), column: 'author_id' } }, comment: 'List all articles of the author' },
  }),
  ev('computed_field_added', { table: T('author'), computed_field: { name: 'get_articles', definition: { function: T('fetch_articles'), table_argument: 'author_row' }, comment: null } }),
  ev('function_tracked', { function: T('search_articles'), configuration: {} }),
];

test('export: version 2, tables sorted, empty keys left out', (t) => {
  t.deepEqual(exportMetadata(emptyMetadata()), { version: 2, tables: [] });
  const out = exportMetadata(fold(emptyMetadata(), base));
  t.deepEqual(out, {
    version: 2,
    tables: [
      { table: T('article'), object_relationships: [{ name: 'author', using: { foreign_key_constraint_on: 'author_id' } }] },
      {
        table: T('author'),
        array_relationships: [{ name: 'articles', using: { foreign_key_constraint_on: { column: 'author_id', table: T('article') } }, comment: 'List all articles of the author' }],
        computed_fields: [{ name: 'get_articles', definition: { function: T('fetch_articles'), table_argument: 'author_row' } }],
      },
    ],
    functions: [{ function: T('search_articles') }],
  });
  t.deepEqual(Object.keys(out.tables as object[]).length, 2);
});

test('export: table entry key order and permission shapes', (t) => {
  const m = fold(emptyMetadata(), [
    ev('table_tracked', { table: T('t'), is_enum: true, configuration: { custom_root_fields: { select: 'Ts' }, custom_column_names: {} } }),
    ev('permission_created', { table: T('t'), kind: 'update', role: 'u', permission: { columns: ['a'], filter: {} }, comment: null }),
    ev('permission_created', { table: T('t'), kind: 'select', role: 'b', permission: { columns: '*', computed_fields: [], filter: {}, allow_aggregations: true, limit: 5 }, comment: 'c' }),
    ev('permission_created', { table: T('t'), kind: 'select', role: 'a', permission: { columns: '*', computed_fields: [], filter: {}, allow_aggregations: false }, comment: null }),
    ev('permission_created', { table: T('t'), kind: 'insert', role: 'u', permission: { check: {}, set: {}, backend_only: false }, comment: null }),
  ]);
  const entry = (exportMetadata(m).tables as Array<Record<string, unknown>>)[0];
  t.deepEqual(Object.keys(entry), ['table', 'is_enum', 'configuration', 'insert_permissions', 'select_permissions', 'update_permissions']);
  t.deepEqual(entry.configuration, { custom_root_fields: { select: 'Ts' }, custom_column_names: {} });
  t.deepEqual(entry.select_permissions, [
    { role: 'a', permission: { columns: '*', filter: {} } },
    { role: 'b', permission: { columns: '*', filter: {}, limit: 5, allow_aggregations: true }, comment: 'c' },
  ]);
  t.deepEqual(entry.update_permissions, [{ role: 'u', permission: { columns: ['a'], filter: {}, check: null } }]);
  // backend_only is written whenever it was given, false too (as the original exports it); an empty set is left out.
  t.deepEqual(entry.insert_permissions, [{ role: 'u', permission: { check: {}, backend_only: false } }]);
});

test('evolve never mutates its input', (t) => {
  const m0 = emptyMetadata();
  const m1 = evolve(m0, base[0]);
  t.deepEqual(m0, emptyMetadata());
  t.truthy(m1.tables['public.author']);
});

test('relationship rename follows into own-table permissions', (t) => {
  const m = fold(emptyMetadata(), [
    ...base,
    ev('permission_created', { table: T('article'), kind: 'select', role: 'u', permission: { columns: '*', computed_fields: [], filter: { author: { id: { _eq: 1 } } }, allow_aggregations: false }, comment: null }),
    ev('relationship_renamed', { table: T('article'), name: 'author', new_name: 'writer' }),
  ]);
  t.deepEqual(Object.keys(m.tables['public.article'].object_relationships), ['writer']);
  t.deepEqual((m.tables['public.article'].select_permissions.u.permission as { filter: unknown }).filter, { writer: { id: { _eq: 1 } } });
});

test('table and column renames rewrite references', (t) => {
  const m = fold(emptyMetadata(), [
    ...base,
    ev('table_custom_fields_set', { table: T('article'), configuration: { custom_root_fields: {}, custom_column_names: { author_id: 'AuthorId' } } }),
    ev('permission_created', { table: T('article'), kind: 'select', role: 'u', permission: { columns: ['id', 'author_id'], computed_fields: [], filter: { _or: [{ author_id: { _eq: 1 } }, { author: { id: { _eq: 2 } } }] }, allow_aggregations: false }, comment: null }),
    ev('column_renamed', { table: T('article'), from: 'author_id', to: 'writer_id' }),
    ev('table_renamed', { from: T('article'), to: T('posts') }),
  ]);
  t.falsy(m.tables['public.article']);
  const posts = m.tables['public.posts'];
  t.deepEqual(posts.table, T('posts'));
  t.deepEqual(posts.configuration.custom_column_names, { writer_id: 'AuthorId' });
  t.deepEqual(posts.object_relationships.author.using, { foreign_key_constraint_on: 'writer_id' });
  const perm = posts.select_permissions.u.permission as unknown as Record<string, unknown>;
  t.deepEqual(perm.columns, ['id', 'writer_id']);
  t.deepEqual(perm.filter, { _or: [{ writer_id: { _eq: 1 } }, { author: { id: { _eq: 2 } } }] });
  t.deepEqual(m.tables['public.author'].array_relationships.articles.using, { foreign_key_constraint_on: { table: T('posts'), column: 'writer_id' } });
});

test('metadata_replaced and metadata_cleared', (t) => {
  const m = fold(emptyMetadata(), base);
  const replaced = evolve(emptyMetadata(), ev('metadata_replaced', { metadata: m }));
  t.deepEqual(exportMetadata(replaced), exportMetadata(m));
  t.deepEqual(exportMetadata(evolve(m, ev('metadata_cleared', {}))), { version: 2, tables: [] });
});

test('parse(export(m)) round-trips', (t) => {
  const m = fold(emptyMetadata(), [
    ...base,
    ev('permission_created', { table: T('author'), kind: 'select', role: 'u', permission: { columns: ['id'], computed_fields: [], filter: { id: { _eq: 'X-Engine-User-Id' } }, allow_aggregations: true }, comment: 'c' }),
    ev('function_tracked', { function: T('f', 'other'), configuration: { session_argument: 's' } }),
  ]);
  const doc = exportMetadata(m);
  t.deepEqual(exportMetadata(parseMetadataDocument(doc)), doc);
});

test('parse: v1 documents with plain names and empty lists', (t) => {
  const m = parseMetadataDocument({
    tables: [
      { table: 'author', object_relationships: [], array_relationships: [{ using: { foreign_key_constraint_on: { column: 'author_id', table: 'article' } }, name: 'articles', comment: null }], insert_permissions: [], event_triggers: [] },
    ],
    functions: ['search_articles', { schema: 'public', name: 'x' }],
  });
  t.deepEqual(Object.keys(m.functions), ['public.search_articles', 'public.x']);
  t.deepEqual(m.tables['public.author'].array_relationships.articles.using, { foreign_key_constraint_on: { table: T('article'), column: 'author_id' } });
});

test('parse: errors', (t) => {
  const err = (doc: unknown) => t.throws(() => parseMetadataDocument(doc), { instanceOf: EngineError }) as EngineError;
  t.is(err({}).message, 'key "tables" not found');
  let e = err({ version: 3, tables: [] });
  t.is(e.message, 'expected 1 or 2, encountered 3');
  t.is(e.path, '$.version');
  e = err({ tables: [{ table: 'a' }, { table: { schema: 'public', name: 'a' } }] });
  t.is(e.code, 'already-exists');
  t.is(e.message, 'multiple declarations exist for the following tables : ["public.a"]');
  e = err({ tables: [{ table: 'a', bogus: 1 }] });
  t.is(e.message, 'unexpected keys when parsing TableMetadata : [bogus]');
  e = err({ tables: [{ table: 'a', object_relationships: [{ name: 'r', using: { foreign_key_constraint_on: 'x' } }, { name: 'r', using: { foreign_key_constraint_on: 'y' } }] }] });
  t.is(e.code, 'already-exists');
});

test('folding in one batch equals evolving event by event, and stays linear', (t) => {
  const events: Event[] = [];
  for (let i = 0; i < 400; i++) {
    const tn = T(`t${i}`);
    events.push(
      ev('table_tracked', { table: tn, is_enum: false, configuration: noConfig }),
      ev('relationship_created', { table: tn, kind: 'object', relationship: { name: 'r', using: { foreign_key_constraint_on: 'x' }, comment: null } }),
      ev('permission_created', { table: tn, kind: 'select', role: 'u', permission: { columns: ['x'], computed_fields: [], filter: { x: { _eq: 1 } }, allow_aggregations: false }, comment: null }),
      ev('relationship_renamed', { table: tn, name: 'r', new_name: 's' }),
      ev('column_renamed', { table: tn, from: 'x', to: 'y' }),
    );
    if (i % 3 === 0) events.push(ev('table_renamed', { from: tn, to: T(`u${i}`) }));
    if (i % 7 === 0) events.push(ev('table_untracked', { table: T(`u${i}`) }));
  }
  events.push(ev('metadata_replaced', { metadata: fold(emptyMetadata(), events.slice(0, 50)) }), ...events.slice(50, 80));
  const stepwise = events.reduce((m, e) => evolve(m, e), emptyMetadata());
  // Linear, not quadratic: bounded on the CPU time the fold costs (a loaded machine stretches the wall clock,
  // which is only reported): about 55 ms on this machine for these 2,200 events.
  const started = Date.now();
  const cpu = process.cpuUsage();
  const batched = fold(emptyMetadata(), events);
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  t.log(`fold of ${events.length} events: ${cpuMs.toFixed(0)} ms CPU, ${Date.now() - started} ms wall`);
  t.deepEqual(batched, stepwise);
  t.true(cpuMs < 2000, `${cpuMs} ms CPU`);
});

test('query collections and the allow-list fold and export', (t) => {
  const m = fold(emptyMetadata(), [
    ev('query_collection_created', { collection: { name: 'c1', definition: { queries: [{ name: 'q1', query: '{ a }' }] } } }),
    ev('collection_query_added', { collection: 'c1', query: { name: 'q2', query: '{ b }' } }),
    ev('collection_query_dropped', { collection: 'c1', query_name: 'q1' }),
    ev('allowlist_collection_added', { collection: 'c1' }),
  ]);
  const out = exportMetadata(m);
  t.deepEqual(out, {
    version: 2,
    tables: [],
    query_collections: [{ name: 'c1', definition: { queries: [{ name: 'q2', query: '{ b }' }] } }],
    allowlist: [{ collection: 'c1' }],
  });
  t.deepEqual(exportMetadata(parseMetadataDocument(out)), out);
  const dropped = fold(m, [ev('allowlist_collection_dropped', { collection: 'c1' }), ev('query_collection_dropped', { name: 'c1' })]);
  t.deepEqual(exportMetadata(dropped), { version: 2, tables: [] });
});
