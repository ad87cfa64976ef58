// Hand-built catalogs and a given(events).when(command).then(events | error) helper for decide specs.
import type { ExecutionContext } from 'ava';
import type { PgCatalog, PgColumn, PgFunction, PgTable } from '../../src/catalog/types.js';
import { qualifiedKey, toQualifiedName } from '../../src/core/names.js';
import { EngineError } from '../../src/core/errors.js';
import { operationOf } from '../../src/metadata/operations.js';
import type { Event } from '../../events/types.js';
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

/** Events for a list of queries applied in order (each decided on the fold of the previous ones). */
export function run(cat: PgCatalog, queries: Query[], given: Event[] = []): Event[] {
  let metadata = fold(emptyMetadata(), given);
  const out: Event[] = [];
  for (const q of queries) {
    const op = operationOf(q.type);
    const parse = op?.kind === 'command' ? op.versions[q.version ?? 1] : undefined;
    if (!parse) throw new Error(`not a command: ${q.type} (version ${q.version ?? 1})`);
    const events = parse(q.args).decide({ metadata, catalog: cat });
    metadata = fold(metadata, events);
    out.push(...events);
  }
  return out;
}

export function given(cat: PgCatalog, ...setup: Query[]) {
  const base = run(cat, setup);
  return {
    events: base,
    when(q: Query) {
      return {
        then(t: ExecutionContext, expected: Array<{ type: string; data?: unknown }>) {
          const events = run(cat, [q], base);
          t.deepEqual(events.map((e) => e.type), expected.map((e) => e.type));
          expected.forEach((e, i) => {
            if (e.data !== undefined) t.deepEqual(events[i].data, e.data);
          });
          return events;
        },
        throws(t: ExecutionContext, expected: { code: string; message?: string | RegExp; path?: string }) {
          const err = t.throws(() => run(cat, [q], base), { instanceOf: EngineError }) as EngineError;
          t.is(err.code as string, expected.code);
          if (typeof expected.message === 'string') t.is(err.message, expected.message);
          else if (expected.message) t.regex(err.message, expected.message);
          if (expected.path) t.is(err.path, expected.path);
        },
      };
    },
  };
}
