// Which migrations `migrate apply` runs, from the folder and the applied versions, with the original CLI's flags
// and messages: every pending one by default, `--up N` / `--down N` (or `all`), one `--version V` with `--type`,
// `--skip-execution` to only mark them. Pure; the steps run one transaction each (migrate-run.ts).
import { compareVersions, type MigrationFiles } from './folder.js';

export interface MigrateOptions {
  up?: string;
  down?: string;
  version?: string;
  type?: string;
  skipExecution?: boolean;
}

export interface MigrationStep {
  version: string;
  name: string;
  direction: 'up' | 'down';
  /** `<version>_<name>/up.sql`, relative to the migrations folder. */
  file: string;
  sql: string;
  skipExecution: boolean;
}

export interface Applied {
  version: string;
  dirty: boolean;
}

export class PlanError extends Error {}

/** N of `--up N`, `--down N`; `all` (or absent) is every one. */
function count(v: string | undefined): number {
  if (v === undefined || v === 'all') return Infinity;
  if (!/^\d+$/.test(v)) throw new PlanError(`not a valid input for steps/version: ${v}`);
  return Number(v);
}

function step(m: MigrationFiles, direction: 'up' | 'down', skip: boolean): MigrationStep {
  const sql = direction === 'up' ? m.up : m.down;
  const file = `${m.dir}/${direction}.sql`;
  if (sql === null && !skip) throw new PlanError(`${file} does not exist`);
  return { version: m.version, name: m.name, direction, file, sql: sql ?? '', skipExecution: skip };
}

export function planMigrations(files: readonly MigrationFiles[], applied: readonly Applied[], o: MigrateOptions): MigrationStep[] {
  const given = [o.up, o.down, o.version].filter((x) => x !== undefined).length;
  if (given > 1) throw new PlanError('only one migration type can be applied at a time (--up, --down or --type)');
  if (o.type !== undefined && o.type !== 'up' && o.type !== 'down') throw new PlanError('--type is up or down');
  if (o.type !== undefined && o.version === undefined) throw new PlanError('--type goes with --version');
  const dirty = applied.find((a) => a.dirty);
  if (dirty) throw new PlanError(`Dirty database version ${dirty.version}. Fix and force version.`);
  const isApplied = new Set(applied.map((a) => a.version));
  const byVersion = new Map(files.map((m) => [m.version, m]));
  const skip = o.skipExecution === true;

  if (o.version !== undefined) {
    if (!/^\d+$/.test(o.version)) throw new PlanError(`not a valid input for steps/version: ${o.version}`);
    const version = String(BigInt(o.version));
    const m = byVersion.get(version);
    if (!m) throw new PlanError(`migration ${version} is not in the migrations folder`);
    const direction = o.type === 'down' ? 'down' : 'up';
    if (direction === 'up' && isApplied.has(version)) throw new PlanError('Version already applied in database');
    if (direction === 'down' && !isApplied.has(version)) throw new PlanError('Migration not applied in database');
    return [step(m, direction, skip)];
  }
  if (o.down !== undefined) {
    const n = count(o.down);
    const newestFirst = applied.map((a) => a.version).sort(compareVersions).reverse().slice(0, n);
    return newestFirst.map((v) => {
      const m = byVersion.get(v);
      if (!m) throw new PlanError(`migration ${v} is applied but not in the migrations folder (no down.sql to run)`);
      return step(m, 'down', skip);
    });
  }
  const pending = files.filter((m) => !isApplied.has(m.version));
  return pending.slice(0, count(o.up)).map((m) => step(m, 'up', skip));
}

export interface StatusRow {
  version: string;
  name: string;
  /** In the migrations folder. */
  source: boolean;
  /** In schema_migrations. */
  database: boolean;
  dirty: boolean;
}

/** One row per version, in the folder and/or applied, oldest first. */
export function migrationStatus(files: readonly MigrationFiles[], applied: readonly Applied[]): StatusRow[] {
  const rows = new Map<string, StatusRow>();
  for (const m of files) rows.set(m.version, { version: m.version, name: m.name, source: true, database: false, dirty: false });
  for (const a of applied) {
    const row = rows.get(a.version) ?? { version: a.version, name: '', source: false, database: false, dirty: false };
    rows.set(a.version, { ...row, database: true, dirty: a.dirty });
  }
  return [...rows.values()].sort((a, b) => compareVersions(a.version, b.version));
}
