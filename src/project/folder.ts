// A project folder on disk: the metadata folder's files (metadata-files.ts says what they hold) and the migrations
// folder, `<version>_<name>/up.sql` and `down.sql` as the original CLI lays them out.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { METADATA_FILES, type MetadataFile } from './metadata-files.js';

/** A reader of the metadata folder's files (null for a missing file). */
export function metadataReader(dir: string): (file: MetadataFile) => string | null {
  return (file) => {
    const path = join(dir, file);
    return existsSync(path) ? readFileSync(path, 'utf8') : null;
  };
}

/** Writes every file of the folder; returns the files whose content changed. */
export function writeMetadataFolder(dir: string, files: ReadonlyMap<MetadataFile, string>): MetadataFile[] {
  mkdirSync(dir, { recursive: true });
  const changed: MetadataFile[] = [];
  for (const file of METADATA_FILES) {
    const text = files.get(file);
    if (text === undefined) continue;
    const path = join(dir, file);
    if (existsSync(path) && readFileSync(path, 'utf8') === text) continue;
    writeFileSync(path, text);
    changed.push(file);
  }
  return changed;
}

export interface MigrationFiles {
  version: string;
  name: string;
  /** `<version>_<name>`, the migration's folder. */
  dir: string;
  up: string | null;
  down: string | null;
}

const MIGRATION_DIR = /^(\d+)_(.+)$/;

export const compareVersions = (a: string, b: string): number => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);

/** The migrations in a folder, oldest first; a folder that does not exist has none. */
export function readMigrations(dir: string): MigrationFiles[] {
  if (!existsSync(dir)) return [];
  const out: MigrationFiles[] = [];
  const seen = new Map<string, string>();
  for (const entry of readdirSync(dir)) {
    const m = MIGRATION_DIR.exec(entry);
    if (!m || !statSync(join(dir, entry)).isDirectory()) continue;
    const version = String(BigInt(m[1]));
    const other = seen.get(version);
    if (other !== undefined) throw new Error(`migrations ${other} and ${entry} have the same version ${version}`);
    seen.set(version, entry);
    const read = (f: string): string | null => (existsSync(join(dir, entry, f)) ? readFileSync(join(dir, entry, f), 'utf8') : null);
    out.push({ version, name: m[2], dir: entry, up: read('up.sql'), down: read('down.sql') });
  }
  return out.sort((a, b) => compareVersions(a.version, b.version));
}

/** Writes `<version>_<name>/up.sql` (and down.sql) as `migrate create` does; returns the migration's folder. */
export function createMigration(dir: string, version: string, name: string, up: string, down: string): string {
  const folder = `${version}_${name}`;
  const path = join(dir, folder);
  if (existsSync(path)) throw new Error(`${path} already exists`);
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, 'up.sql'), up);
  writeFileSync(join(path, 'down.sql'), down);
  return folder;
}
