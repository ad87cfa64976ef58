// Reads the rows of tables tracked as enums into the catalog (the schema cache turns them into GraphQL enums).
// Like the original, the rows are read when metadata is built, not on every data change.
import type pg from 'pg';
import { qualifiedKey } from '../core/names.js';
import type { PgCatalog } from '../catalog/types.js';
import type { Metadata } from '../../projections/metadata.js';
import { introspectCatalog } from '../catalog/introspect.js';

const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;

/**
 * Returns the catalog with enum rows for `which` tables re-read ('all' = every enum table); other enum tables keep
 * the rows `previous` had.
 */
export async function withEnumValues(
  client: pg.ClientBase,
  metadata: Metadata,
  catalog: PgCatalog,
  which: 'all' | string[],
  previous?: PgCatalog,
): Promise<PgCatalog> {
  const enumValues: NonNullable<PgCatalog['enumValues']> = {};
  for (const t of Object.values(metadata.tables)) {
    if (!t.is_enum) continue;
    const key = qualifiedKey(t.table);
    const kept = previous?.enumValues?.[key];
    if (which !== 'all' && !which.includes(key) && kept) {
      enumValues[key] = kept;
      continue;
    }
    const pg = catalog.tables[key];
    const pk = pg?.primaryKey?.columns;
    if (!pg || !pk || pk.length !== 1 || pg.columns.length > 2) continue;
    const comment = pg.columns.find((c) => c.name !== pk[0]);
    const sql = `SELECT ${ident(pk[0])}::text AS value, ${comment ? `${ident(comment.name)}::text` : 'NULL::text'} AS comment
      FROM ${ident(t.table.schema)}.${ident(t.table.name)} ORDER BY 1`;
    const { rows } = await client.query<{ value: string; comment: string | null }>(sql);
    enumValues[key] = rows;
  }
  return { ...catalog, enumValues };
}

/** A full catalog read for building metadata: introspection plus enum rows (start-up, reload, sync). */
export async function introspectForMetadata(client: pg.ClientBase, metadata: Metadata): Promise<PgCatalog> {
  return withEnumValues(client, metadata, await introspectCatalog(client), 'all');
}
