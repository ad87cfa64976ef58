// Reads the rows of tables tracked as enums into the catalog (the schema cache turns them into GraphQL enums).
// Like the original, the rows are read when metadata is built, not on every data change.
import type pg from 'pg';
import { qualifiedKey, type QualifiedName } from '../core/names.js';
import { compile, ident, raw, sql } from '../sql/builder.js';
import type { PgCatalog } from './types.js';
import { introspectCatalog } from './introspect.js';

/**
 * Returns the catalog with the rows of the enum tables `enumTables`: re-read for `which` ('all' = every one),
 * kept from `previous` for the others.
 */
export async function withEnumValues(
  client: pg.ClientBase,
  enumTables: readonly QualifiedName[],
  catalog: PgCatalog,
  which: 'all' | string[],
  previous?: PgCatalog,
): Promise<PgCatalog> {
  const enumValues: NonNullable<PgCatalog['enumValues']> = {};
  for (const table of enumTables) {
    const key = qualifiedKey(table);
    const kept = previous?.enumValues?.[key];
    if (which !== 'all' && !which.includes(key) && kept) {
      enumValues[key] = kept;
      continue;
    }
    const pg = catalog.tables[key];
    const pk = pg?.primaryKey?.columns;
    if (!pg || !pk || pk.length !== 1 || pg.columns.length > 2) continue;
    const comment = pg.columns.find((c) => c.name !== pk[0]);
    const q = compile(sql`SELECT ${ident(pk[0])}::text AS value, ${comment ? sql`${ident(comment.name)}::text` : raw('NULL::text')} AS comment
      FROM ${ident(table.schema, table.name)} ORDER BY 1`);
    const { rows } = await client.query<{ value: string; comment: string | null }>(q.text);
    enumValues[key] = rows;
  }
  // The same catalog when nothing changed: builds compare catalogs by identity (src/cache/build.ts).
  for (const c of [catalog, previous]) {
    if (c && (c.enumValues || enumTables.length === 0) && c.tables === catalog.tables && c.functions === catalog.functions && c.serverVersion === catalog.serverVersion
      && sameRecord(c.enumValues ?? {}, enumValues)) return c;
  }
  return { ...catalog, enumValues };
}

/** A full catalog read for building metadata: introspection plus the enum tables' rows (start-up, reload, sync). */
export async function introspectWithEnums(client: pg.ClientBase, enumTables: readonly QualifiedName[]): Promise<PgCatalog> {
  return withEnumValues(client, enumTables, await introspectCatalog(client), 'all');
}

function sameRecord<T>(a: Record<string, T>, b: Record<string, T>): boolean {
  const keys = Object.keys(b);
  return keys.length === Object.keys(a).length && keys.every((k) => Object.hasOwn(a, k) && a[k] === b[k]);
}
