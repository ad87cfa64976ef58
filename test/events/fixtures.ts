// Hand-built catalogs, hand-written events, and a given(events).when(command).then(events | error) helper for decide specs.
import type { ExecutionContext } from 'ava';
import type { PgCatalog, PgColumn, PgFunction, PgTable } from '../../src/catalog/types.js';
import { qualifiedKey, toQualifiedName, type QualifiedName } from '../../src/core/names.js';
import { EngineError } from '../../src/core/errors.js';
import { operationOf } from '../../src/metadata/operations.js';
import { ev, type Event, type Metadata } from '../../events/types.js';
import { fold } from '../../projections/replay.js';
import { emptyMetadata } from '../../projections/metadata.js';

let oid = 1000;

export function col(name: string, type = 'int4', extra: Partial<PgColumn> = {}): PgColumn {
  return {
    name, position: 0, type, typeSchema: 'pg_catalog', typeKind: 'base', isArray: false,
    formattedType: type === 'int4' ? 'integer' : type, nullable: true, hasDefault: false, isIdentity: false,
    isGenerated: false, comment: null, ...extra,
  };
}

export function table(
  name: string,
  columns: PgColumn[],
  opts: { pk?: string[]; fks?: Array<{ name?: string; columns: string[]; ref: string; refColumns: string[] }>; kind?: PgTable['kind'] } = {},
): PgTable {
  const qn = toQualifiedName(name.includes('.') ? { schema: name.split('.')[0], name: name.split('.')[1] } : name);
  return {
    name: qn,
    oid: oid++,
    kind: opts.kind ?? 'table',
    comment: null,
    columns: columns.map((c, i) => ({ ...c, position: i + 1 })),
    primaryKey: opts.pk ? { name: `${qn.name}_pkey`, columns: opts.pk } : null,
    uniqueConstraints: [],
    foreignKeys: (opts.fks ?? []).map((f) => ({
      name: f.name ?? `${qn.name}_${f.columns.join('_')}_fkey`,
      columns: f.columns,
      refTable: toQualifiedName(f.ref),
      refColumns: f.refColumns,
    })),
    insertable: true,
    updatable: true,
    deletable: true,
  };
}

export function fn(name: string, opts: Partial<PgFunction> & { args?: PgFunction['args'] } = {}): PgFunction {
  return {
    name: toQualifiedName(name),
    oid: oid++,
    volatility: 'stable',
    returnsSet: true,
    returnType: { schema: 'public', name: 'article' },
    returnTypeKind: 'composite',
    returnsTable: { schema: 'public', name: 'article' },
    args: [],
    comment: null,
    definition: '',
    ...opts,
  };
}

export function catalog(tables: PgTable[], functions: PgFunction[] = []): PgCatalog {
  const c: PgCatalog = { tables: {}, functions: {}, serverVersion: 150000 };
  for (const t of tables) c.tables[qualifiedKey(t.name)] = t;
  for (const f of functions) (c.functions[qualifiedKey(f.name)] ??= []).push(f);
  return c;
}

/** author(id, name), article(id, title, author_id → author.id), and a search function. */
export function blogCatalog(): PgCatalog {
  return catalog(
    [
      table('author', [col('id'), col('name', 'text')], { pk: ['id'] }),
      table('article', [col('id'), col('title', 'text'), col('author_id')], {
        pk: ['id'],
        fks: [{ columns: ['author_id'], ref: 'author', refColumns: ['id'] }],
      }),
    ],
    [
      fn('search_articles', { args: [{ name: 'search', type: 'text', typeSchema: 'pg_catalog', mode: 'in', hasDefault: false }] }),
      fn('author_full_name', {
        returnsSet: false, returnType: { schema: 'pg_catalog', name: 'text' }, returnTypeKind: 'base', returnsTable: null,
        args: [{ name: 'a', type: 'author', typeSchema: 'public', mode: 'in', hasDefault: false }],
      }),
    ],
  );
}

export type Query = { type: string; args: unknown; version?: 1 | 2 };
/** A decision that is not a /v1/query command of its own (run_sql's check, replace_metadata, ...): metadata → events. */
export type Decision = (metadata: Metadata) => Event[];

/** The events a command decides on `metadata` (throws its EngineError). */
export function decideCommand(cat: PgCatalog, metadata: Metadata, q: Query): Event[] {
  const op = operationOf(q.type);
  const parse = op?.kind === 'command' ? op.versions[q.version ?? 1] : undefined;
  if (!parse) throw new Error(`not a command: ${q.type} (version ${q.version ?? 1})`);
  return parse(q.args).decide({ metadata, catalog: cat });
}

/**
 * A decide spec, as emmett's DeciderSpecification: given the events so far (folded with evolve into the state),
 * when a command (or a decision), then exactly these events, data and all, or this error.
 */
export function given(cat: PgCatalog, ...events: Event[]) {
  const metadata = fold(emptyMetadata(), events);
  const decide = (q: Query | Decision): Event[] => (typeof q === 'function' ? q(metadata) : decideCommand(cat, metadata, q));
  return {
    when(q: Query | Decision) {
      return {
        /** Returns the events (deep-equal to `expected`) for checks of what they fold into. */
        then(t: ExecutionContext, expected: Event[]): Event[] {
          const actual = decide(q);
          t.deepEqual(actual, expected);
          return actual;
        },
        throws(t: ExecutionContext, expected: { code: string; message?: string | RegExp; path?: string }) {
          const err = t.throws(() => decide(q), { instanceOf: EngineError }) as EngineError;
          t.is(err.code as string, expected.code);
          if (typeof expected.message === 'string') t.is(err.message, expected.message);
          else if (expected.message) t.regex(err.message, expected.message);
          if (expected.path) t.is(err.path, expected.path);
        },
      };
    },
  };
}

// Events of the blog's metadata, written out by hand, for specs to start from -----------------------------------

export const author = { schema: 'public', name: 'author' };
export const article = { schema: 'public', name: 'article' };
const noConfiguration = { custom_root_fields: {}, custom_column_names: {} };

export const tableTracked = (table: QualifiedName): Event => ev('table_tracked', { table, is_enum: false, configuration: noConfiguration });
export const AUTHOR_TRACKED = tableTracked(author);
export const ARTICLE_TRACKED = tableTracked(article);
/** article.author, on article's author_id. */
export const ARTICLE_AUTHOR = ev('relationship_created', {
  table: article, kind: 'object', relationship: { name: 'author', using: { foreign_key_constraint_on: 'author_id' }, comment: null },
});
/** author.articles, on article's author_id. */
export const AUTHOR_ARTICLES = ev('relationship_created', {
  table: author, kind: 'array', relationship: { name: 'articles', using: { foreign_key_constraint_on: { table: article, column: 'author_id' } }, comment: null },
});
