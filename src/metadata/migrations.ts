// Schema migrations (the original CLI's `migrate`): applied versions live in engine_catalog.schema_migrations
// (version bigint, dirty boolean), the table the original CLI keeps in hdb_catalog, created on first use. A
// migration runs as one engine operation (`engine_apply_migration`): its SQL through run_sql's path and its
// version row in the same transaction, logged as a sql_ran event that names the migration, so the history lists
// it and `history replay` restores the row with the schema.
import type pg from 'pg';
import { z } from 'zod';
import { EngineError } from '../core/errors.js';
import { decode, optionalBool } from '../../events/argument-shapes.js';
import type { MigrationRef } from '../../events/types.js';

const TABLE = 'engine_catalog.schema_migrations';

const version = z.union([z.string().regex(/^\d{1,18}$/, 'expected a version number'), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)])
  .transform((v) => String(BigInt(v)));

const migrationArgs = z
  .object({
    version,
    name: z.string(),
    direction: z.enum(['up', 'down']).default('up'),
    sql: z.string().default(''),
    file: z.string().nullable().optional(),
    skip_execution: optionalBool,
    cascade: optionalBool,
  })
  .strict();
export type MigrationArgs = z.output<typeof migrationArgs>;
export const parseMigrationArgs = (raw: unknown): MigrationArgs => decode(migrationArgs, raw);

export async function ensureMigrationsTable(client: pg.ClientBase): Promise<void> {
  await client.query(`CREATE TABLE IF NOT EXISTS ${TABLE} (version bigint NOT NULL PRIMARY KEY, dirty boolean NOT NULL)`);
}

export interface AppliedMigration {
  version: string;
  dirty: boolean;
}

/** The applied versions, oldest first (none before the table exists). */
export async function appliedMigrations(client: pg.ClientBase): Promise<AppliedMigration[]> {
  const exists = await client.query<{ t: string | null }>(`SELECT to_regclass('${TABLE}')::text AS t`);
  if (exists.rows[0]?.t == null) return [];
  const r = await client.query<{ version: string; dirty: boolean }>(`SELECT version::text AS version, dirty FROM ${TABLE} ORDER BY version`);
  return r.rows;
}

/** Refuses what the original refuses: an up of an applied version, a down of one that is not applied. */
export async function checkMigration(client: pg.ClientBase, a: MigrationArgs): Promise<void> {
  await ensureMigrationsTable(client);
  const r = await client.query<{ dirty: boolean }>(`SELECT dirty FROM ${TABLE} WHERE version = $1`, [a.version]);
  const row = r.rows[0];
  if (row?.dirty) throw new EngineError('unexpected', `Dirty database version ${a.version}. Fix and force version.`, { path: '$.args.version' });
  if (a.direction === 'up' && row) throw new EngineError('already-exists', 'Version already applied in database', { path: '$.args.version' });
  if (a.direction === 'down' && !row) throw new EngineError('not-exists', 'Migration not applied in database', { path: '$.args.version' });
}

/** The version row after the migration ran: added for up, removed for down. */
export async function recordMigration(client: pg.ClientBase, m: Pick<MigrationRef, 'version' | 'direction'>): Promise<void> {
  await ensureMigrationsTable(client);
  if (m.direction === 'up') await client.query(`INSERT INTO ${TABLE} (version, dirty) VALUES ($1, false) ON CONFLICT (version) DO UPDATE SET dirty = false`, [m.version]);
  else await client.query(`DELETE FROM ${TABLE} WHERE version = $1`, [m.version]);
}

export const migrationRef = (a: MigrationArgs): MigrationRef => ({
  version: a.version,
  name: a.name,
  direction: a.direction,
  file: a.file ?? null,
  skip_execution: a.skip_execution ?? false,
});
