// `engine serve --migrations-dir DIR --metadata-dir DIR`: before the engine serves, it applies the pending
// migrations, then the metadata folder, as the original's cli-migrations image does, through the engine's own
// write path (so each migration and the metadata are history entries like the CLI's). Instances starting together
// take turns on a session advisory lock: the first applies, the others wait, then find nothing left to apply.
// A folder that does not exist is skipped (as the image does); any failure stops start-up, naming the file.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { log } from '../core/log.js';
import { isEngineError } from '../core/errors.js';
import { ensureCatalogSchema } from '../../events/log.js';
import { exportMetadata } from '../../projections/export.js';
import { diffExports } from '../../projections/history.js';
import { loadState } from '../sync/catchup.js';
import { StateStore } from '../sync/state-store.js';
import { runMetadataWrite, type WriteContext } from '../metadata/write.js';
import { appliedMigrations } from '../metadata/migrations.js';
import { asExported, exportFromFiles } from './metadata-files.js';
import { metadataReader, readMigrations } from './folder.js';
import { planMigrations } from './migrate-plan.js';
import { failureText, fileOfPath } from './failure.js';

/** Advisory lock key (two-int form) held while a starting instance applies the project folders. */
const LOCK = [0x656e6769, 0x70726a] as const;

export interface ProjectDirs {
  migrationsDir?: string;
  metadataDir?: string;
}

const ADMIN = { role: 'admin', requestId: 'startup' };

function describe(e: unknown): string {
  if (isEngineError(e)) return failureText({ message: e.message, internal: e.internal });
  return (e as Error).message;
}

async function applyMigrations(w: WriteContext, client: pg.ClientBase, dir: string): Promise<number> {
  const steps = planMigrations(readMigrations(dir), await appliedMigrations(client), {});
  for (const [i, s] of steps.entries()) {
    const started = Date.now();
    try {
      await runMetadataWrite(w, { type: 'engine_apply_migration', args: { version: s.version, name: s.name, sql: s.sql, file: s.file } }, ADMIN);
    } catch (e) {
      throw new Error(`migration ${join(dir, s.file)} failed: ${describe(e)}`);
    }
    log.info('startup', { kind: 'migrations', info: { message: `[${i + 1}/${steps.length}] applied migration ${s.version}_${s.name}`, file: join(dir, s.file), time_taken: (Date.now() - started) / 1000 } });
  }
  return steps.length;
}

async function applyMetadata(w: WriteContext, store: StateStore, dir: string): Promise<boolean> {
  let folder;
  try {
    folder = exportFromFiles(metadataReader(dir));
  } catch (e) {
    throw new Error(`metadata ${join(dir, '')}: ${(e as Error).message}`);
  }
  if (diffExports(exportMetadata(store.get().metadata), asExported(folder) ?? folder).length === 0) return false;
  try {
    await runMetadataWrite(w, { type: 'replace_metadata', args: folder }, ADMIN);
  } catch (e) {
    const file = isEngineError(e) ? fileOfPath(e.path) : null;
    throw new Error(`metadata ${join(dir, file ?? '')} failed to apply: ${describe(e)}`);
  }
  return true;
}

/** Applies the folders that exist; throws an Error whose message is one line naming the file. */
export async function applyProjectAtStartup(w: WriteContext, dirs: ProjectDirs): Promise<void> {
  const migrations = dirs.migrationsDir !== undefined && existsSync(dirs.migrationsDir) ? dirs.migrationsDir : null;
  const metadata = dirs.metadataDir !== undefined && existsSync(dirs.metadataDir) ? dirs.metadataDir : null;
  for (const [what, dir] of [['migrations', dirs.migrationsDir], ['metadata', dirs.metadataDir]] as const) {
    if (dir !== undefined && !existsSync(dir)) log.info('startup', { kind: 'migrations', info: { message: `${what} directory ${dir} does not exist, skipping` } });
  }
  if (migrations === null && metadata === null) return;
  const client = await w.pool.connect();
  let locked = false;
  try {
    await ensureCatalogSchema(client);
    await client.query('SELECT pg_advisory_lock($1, $2)', [...LOCK]);
    locked = true;
    // A state of our own: the instance's store is not ready (and answers nothing) until start-up loads it after this.
    const store = new StateStore();
    store.swap(await loadState(client, w.projector));
    const writer: WriteContext = { ...w, store };
    const applied = migrations === null ? 0 : await applyMigrations(writer, client, migrations);
    const replaced = metadata !== null && (await applyMetadata(writer, store, metadata));
    log.info('startup', {
      kind: 'migrations',
      info: { message: `project applied: ${applied} migration(s), metadata ${replaced ? 'replaced' : 'unchanged'}`, seq: store.seq },
    });
  } finally {
    if (locked) await client.query('SELECT pg_advisory_unlock($1, $2)', [...LOCK]).catch(() => undefined);
    client.release();
  }
}
