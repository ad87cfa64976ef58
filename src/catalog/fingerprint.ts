// A cheap way to tell that the catalog a state holds is still the one Postgres has (Note [Catalog fingerprint]).
import type pg from 'pg';
import type { PgCatalog } from './types.js';

// Note [Catalog fingerprint]
// Every metadata write decides against the catalog as its transaction sees it (src/metadata/execute.ts Note [Catalog
// freshness]); reading it whole costs a second and more at 1,000 tables. Any DDL inserts, updates or deletes rows of
// the system catalogs the introspection reads, and each row's xmin names the transaction that wrote it: the count
// and the sum of the xmins of those catalogs' rows change with every DDL (committed by anyone, or done earlier in
// this transaction). The fingerprint is taken before the introspection it is attached to, so a change between the
// two makes the next comparison fail and the catalog be read again: a stale catalog is never kept.
const count = (from: string) => `(SELECT count(*) || ':' || coalesce(sum(x.xmin::text::bigint), 0) FROM ${from})`;

export const FINGERPRINT_SQL = `SELECT concat_ws(',',
  ${count('pg_namespace x')},
  ${count('pg_class x')},
  ${count("pg_attribute x JOIN pg_class c ON c.oid = x.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname <> 'pg_catalog' AND n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\\_toast%'")},
  ${count('pg_type x')},
  ${count('pg_constraint x')},
  ${count('pg_proc x')},
  ${count("pg_depend x WHERE x.deptype = 'e'")},
  ${count('pg_description x')},
  ${count('pg_rewrite x')},
  ${count('pg_trigger x')}
) AS fingerprint`;

export async function catalogFingerprint(client: pg.ClientBase): Promise<string> {
  const { rows } = await client.query<{ fingerprint: string }>(FINGERPRINT_SQL);
  return rows[0].fingerprint;
}

const fingerprints = new WeakMap<PgCatalog, string>();

/** The fingerprint taken before `catalog` was read, if one was. */
export const fingerprintOf = (catalog: PgCatalog): string | undefined => fingerprints.get(catalog);

/** Notes that `catalog` was read after `fingerprint` was taken (and is what Postgres had then). */
export function withFingerprint(catalog: PgCatalog, fingerprint: string): PgCatalog {
  fingerprints.set(catalog, fingerprint);
  return catalog;
}
