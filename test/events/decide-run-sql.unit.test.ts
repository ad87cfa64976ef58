// Specs for the decisions made outside the per-family commands, written as given(events) / when(decision) /
// then(events | error) (emmett's DeciderSpecification): run_sql's metadata check from two hand-made catalogs
// (before and after the SQL), replace_metadata and drop_inconsistent_metadata.
import test from 'ava';
import { qualifiedKey } from '../../src/core/names.js';
import type { PgCatalog } from '../../src/catalog/types.js';
import { decideRunSql } from '../../events/decide/sql.js';
import { decideMetadata } from '../../events/decide/metadata.js';
import { ev, type Event } from '../../events/types.js';
import { fold } from '../../projections/replay.js';
import { emptyMetadata } from '../../projections/metadata.js';
import { ARTICLE_AUTHOR, ARTICLE_TRACKED, AUTHOR_ARTICLES, AUTHOR_TRACKED, article, author, blogCatalog, given as givenOn } from './fixtures.js';

const byAuthorName = { author: { name: { _eq: 'X-Engine-User-Id' } } };

/** The blog tracked, both relationships, and a select permission on article that filters through one. */
const BLOG: Event[] = [
  AUTHOR_TRACKED,
  ARTICLE_TRACKED,
  ARTICLE_AUTHOR,
  AUTHOR_ARTICLES,
  ev('permission_created', {
    table: article, kind: 'select', role: 'user', comment: null,
    permission: { columns: ['id', 'title'], computed_fields: [], filter: byAuthorName, allow_aggregations: false },
  }),
];

/** The catalog after the SQL: the same objects (same oids), changed by `change`. */
function after(before: PgCatalog, change: (c: PgCatalog) => void): PgCatalog {
  const c = structuredClone(before);
  change(c);
  return c;
}

const renameTable = (c: PgCatalog, from: string, to: string) => {
  const t = c.tables[`public.${from}`];
  delete c.tables[`public.${from}`];
  t.name = { schema: 'public', name: to };
  c.tables[qualifiedKey(t.name)] = t;
};

const run = (sql: string, cascade = false) => ({ sql, cascade, check_metadata_consistency: null, read_only: false });

/** These specs' decisions take the catalogs themselves. */
const given = (...events: Event[]) => givenOn(blogCatalog(), ...events);

test('run_sql without the metadata check: only sql_ran, whatever changed', (t) => {
  const before = blogCatalog();
  const gone = after(before, (c) => delete c.tables['public.article']);
  const r = { sql: 'drop table article', cascade: false, check_metadata_consistency: false, read_only: false };
  given(...BLOG).when((m) => decideRunSql(r, before, gone, m)).then(t, [ev('sql_ran', r)]);
});

test('run_sql renaming a column: column_renamed, and the permission that names it through a relationship is rewritten', (t) => {
  const before = blogCatalog();
  const renamed = after(before, (c) => (c.tables['public.author'].columns[1].name = 'full_name'));
  const r = run('alter table author rename column name to full_name');
  given(...BLOG).when((m) => decideRunSql(r, before, renamed, m)).then(t, [
    ev('sql_ran', r),
    ev('column_renamed', { table: author, from: 'name', to: 'full_name' }),
    ev('permission_updated', {
      table: article, kind: 'select', role: 'user',
      permission: { columns: ['id', 'title'], computed_fields: [], filter: { author: { full_name: { _eq: 'X-Engine-User-Id' } } }, allow_aggregations: false },
    }),
  ]);
});

test('run_sql renaming a tracked table: table_renamed', (t) => {
  const before = blogCatalog();
  const renamed = after(before, (c) => renameTable(c, 'article', 'post'));
  const r = run('alter table article rename to post');
  given(...BLOG).when((m) => decideRunSql(r, before, renamed, m)).then(t, [
    ev('sql_ran', r),
    ev('table_renamed', { from: article, to: { schema: 'public', name: 'post' } }),
  ]);
});

test('run_sql dropping a table other objects depend on: dependency-error without cascade', (t) => {
  const before = blogCatalog();
  const dropped = after(before, (c) => delete c.tables['public.article']);
  given(...BLOG).when((m) => decideRunSql(run('drop table article'), before, dropped, m)).throws(t, {
    code: 'dependency-error',
    message: 'cannot drop due to the following dependent objects : relationship author.articles',
    path: '$.args',
  });
});

test('run_sql dropping that table with cascade: the dependents dropped first, then the table untracked', (t) => {
  const before = blogCatalog();
  const dropped = after(before, (c) => delete c.tables['public.article']);
  const r = run('drop table article cascade', true);
  given(...BLOG).when((m) => decideRunSql(r, before, dropped, m)).then(t, [
    ev('sql_ran', r),
    ev('relationship_dropped', { table: author, name: 'articles' }),
    ev('table_untracked', { table: article }),
  ]);
});

test('run_sql dropping a column a permission filters on (through a relationship): dependency-error naming it', (t) => {
  const before = blogCatalog();
  const dropped = after(before, (c) => {
    const t = c.tables['public.author'];
    t.columns = t.columns.filter((x) => x.name !== 'name');
  });
  given(...BLOG).when((m) => decideRunSql(run('alter table author drop column name'), before, dropped, m)).throws(t, {
    code: 'dependency-error',
    message: 'cannot drop due to the following dependent objects : permission article.user.select',
    path: '$.args',
  });
});

test('replace_metadata: one metadata_replaced holding the new document', (t) => {
  const doc = fold(emptyMetadata(), BLOG.slice(0, 1));
  given(...BLOG).when((m) => decideMetadata({ op: 'replace_metadata', metadata: doc }, { metadata: m, catalog: blogCatalog() }))
    .then(t, [ev('metadata_replaced', { metadata: doc })]);
});

test('drop_inconsistent_metadata: drops for the inconsistent objects, dependents first, actions last', (t) => {
  const inconsistent = [
    JSON.stringify(['table', 'public', 'article']),
    JSON.stringify(['action', 'send_mail']),
    JSON.stringify(['permission', 'public', 'article', 'user', 'select']),
    JSON.stringify(['relationship', 'public', 'author', 'articles']),
  ];
  given(...BLOG).when((m) => decideMetadata({ op: 'drop_inconsistent_metadata' }, { metadata: m, catalog: blogCatalog(), inconsistent }))
    .then(t, [
      ev('permission_dropped', { table: article, kind: 'select', role: 'user' }),
      ev('relationship_dropped', { table: author, name: 'articles' }),
      ev('table_untracked', { table: article }),
      ev('action_dropped', { name: 'send_mail', clear_data: false }),
    ]);
  given(...BLOG).when((m) => decideMetadata({ op: 'drop_inconsistent_metadata' }, { metadata: m, catalog: blogCatalog(), inconsistent: [] })).then(t, []);
});

test('drop_inconsistent_metadata: inconsistent remote schemas are removed (after tables and actions)', (t) => {
  const rs = (name: string) => ev('remote_schema_added', { remote_schema: { name, definition: { url: `http://${name}/graphql` } } });
  const inconsistent = [JSON.stringify(['remote_schema', 'down']), JSON.stringify(['action', 'send_mail'])];
  given(...BLOG, rs('up'), rs('down'))
    .when((m) => decideMetadata({ op: 'drop_inconsistent_metadata' }, { metadata: m, catalog: blogCatalog(), inconsistent }))
    .then(t, [ev('action_dropped', { name: 'send_mail', clear_data: false }), ev('remote_schema_removed', { name: 'down' })]);
});
