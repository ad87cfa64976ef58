// permission_updated has one implementation (updatePermissionRules, events/types.ts): evolve folds it, and decide
// applies it to see its own renames when one run_sql renames several columns (events/decide/local-fold.ts).
import test from 'ava';
import type { PgCatalog } from '../../src/catalog/types.js';
import { decideRunSql } from '../../events/decide/sql.js';
import { ev, type Event } from '../../events/types.js';
import { fold } from '../../projections/replay.js';
import { emptyMetadata } from '../../projections/metadata.js';
import { blogCatalog } from './fixtures.js';

const article = { schema: 'public', name: 'article' };
const noConfig = { custom_root_fields: {}, custom_column_names: {} };
const selectable = (columns: string[]) => ({ columns, computed_fields: [], filter: {}, allow_aggregations: false });

const ARTICLE: Event[] = [
  ev('table_tracked', { table: article, is_enum: false, configuration: noConfig }),
  ev('permission_created', { table: article, kind: 'select', role: 'user', permission: selectable(['id', 'title']), comment: 'readers' }),
];

test('permission_updated replaces the rules and keeps the comment', (t) => {
  const m = fold(emptyMetadata(), [...ARTICLE, ev('permission_updated', { table: article, kind: 'select', role: 'user', permission: selectable(['title']) })]);
  t.deepEqual(m.tables['public.article'].select_permissions.user, { role: 'user', permission: selectable(['title']), comment: 'readers' });
});

test('one run_sql renaming two columns a permission lists: the second rewrite starts from the first', (t) => {
  const before: PgCatalog = blogCatalog();
  const renamed = structuredClone(before);
  const cols = renamed.tables['public.article'].columns;
  cols[0].name = 'article_id';
  cols[1].name = 'headline';
  const r = { sql: 'alter table article rename id to article_id; alter table article rename title to headline', cascade: false, check_metadata_consistency: null, read_only: false };
  const events = decideRunSql(r, before, renamed, fold(emptyMetadata(), ARTICLE));
  t.deepEqual(events.filter((e) => e.type === 'permission_updated'), [
    ev('permission_updated', { table: article, kind: 'select', role: 'user', permission: selectable(['article_id', 'title']) }),
    ev('permission_updated', { table: article, kind: 'select', role: 'user', permission: selectable(['article_id', 'headline']) }),
  ]);
});
