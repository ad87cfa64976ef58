// `engine migrate create|apply|status` against a running engine, with the original CLI's flags: each migration
// is one engine_apply_migration (its SQL and version row in one transaction, one history entry); the first
// failure stops the run, naming the file and the Postgres error, with the earlier migrations applied.
import { readFileSync } from 'node:fs';
import { createMigration, readMigrations } from './folder.js';
import { migrationStatus, planMigrations, type Applied, type MigrationStep } from './migrate-plan.js';
import { ApiError } from './client.js';
import { failureText } from './failure.js';
import { UsageError, table, type Context } from './cli-io.js';

export const MIGRATE_USAGE = `  engine migrate create NAME [--sql-from-file F | --up-sql S [--down-sql S]]
                                                a new migrations/<version>_NAME/up.sql and down.sql
  engine migrate apply [--up N|all] [--down N|all] [--version V [--type up|down]] [--skip-execution]
                                                apply pending migrations (default: all), or roll back
  engine migrate status                         each version: in the folder, applied in the database`;

export const MIGRATE_FLAGS = ['sql-from-file', 'up-sql', 'down-sql', 'up', 'down', 'version', 'type'];

async function applied(c: Context): Promise<Applied[]> {
  return (await c.client.query<{ migrations: Applied[] }>({ type: 'engine_migration_status', args: {} })).migrations;
}

function createCommand(c: Context, name: string | undefined): void {
  if (name === undefined || name === '') throw new UsageError('usage: engine migrate create NAME [--sql-from-file F | --up-sql S --down-sql S]');
  if (/[/\\\s]/.test(name)) throw new UsageError('a migration name has no spaces or slashes');
  const file = c.args.flags.get('sql-from-file');
  const upSql = c.args.flags.get('up-sql');
  if (file !== undefined && upSql !== undefined) throw new UsageError('--sql-from-file and --up-sql cannot be used together');
  const up = file !== undefined ? readFileSync(file, 'utf8') : (upSql ?? '');
  const down = c.args.flags.get('down-sql') ?? '';
  const version = String(Date.now());
  const dir = createMigration(c.settings.migrationsDir, version, name, up, down);
  if (c.json) c.io.out(JSON.stringify({ version, name, directory: dir }, null, 2) + '\n');
  else c.say(`Migrations files created: ${dir}/up.sql, ${dir}/down.sql (version ${version})`);
}

interface StepResult {
  version: string;
  name: string;
  direction: string;
  file: string;
  skip_execution: boolean;
  ms: number;
}

async function runStep(c: Context, s: MigrationStep): Promise<StepResult> {
  const started = performance.now();
  try {
    await c.client.query({
      type: 'engine_apply_migration',
      args: { version: s.version, name: s.name, direction: s.direction, sql: s.sql, file: s.file, skip_execution: s.skipExecution },
    });
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    throw new Error(`migration ${s.file} failed: ${failureText(e)}`);
  }
  return { version: s.version, name: s.name, direction: s.direction, file: s.file, skip_execution: s.skipExecution, ms: Math.round(performance.now() - started) };
}

async function applyCommand(c: Context): Promise<void> {
  const type = c.args.flags.get('type');
  const options = {
    up: c.args.flags.get('up'),
    down: c.args.flags.get('down'),
    version: c.args.flags.get('version'),
    type,
    skipExecution: c.args.switches.has('skip-execution'),
  };
  if (options.skipExecution && options.up === undefined && options.down === undefined && options.version === undefined) {
    throw new UsageError('--skip-execution flag can be set only with --version, --up, --down flags');
  }
  const steps = planMigrations(readMigrations(c.settings.migrationsDir), await applied(c), options);
  const done: StepResult[] = [];
  for (const [i, s] of steps.entries()) {
    const r = await runStep(c, s).catch((e: Error) => {
      if (c.json) c.io.out(JSON.stringify({ applied: done, failed: s.file, error: e.message }, null, 2) + '\n');
      throw e;
    });
    done.push(r);
    const verb = s.skipExecution ? (s.direction === 'up' ? 'marked applied' : 'marked rolled back') : s.direction === 'up' ? 'applied' : 'rolled back';
    c.say(`[${i + 1}/${steps.length}] ${verb} ${s.version}_${s.name} (${s.file}) in ${r.ms} ms`);
  }
  if (c.json) c.io.out(JSON.stringify({ applied: done }, null, 2) + '\n');
  else c.say(steps.length ? 'migrations applied' : 'nothing to apply');
}

async function statusCommand(c: Context): Promise<void> {
  const rows = migrationStatus(readMigrations(c.settings.migrationsDir), await applied(c));
  if (c.json) return void c.io.out(JSON.stringify({ migrations: rows }, null, 2) + '\n');
  const present = (b: boolean) => (b ? 'Present' : 'Not Present');
  c.say(table(['VERSION', 'NAME', 'SOURCE STATUS', 'DATABASE STATUS'], rows.map((r) => [r.version, r.name, present(r.source), present(r.database) + (r.dirty ? ' (dirty)' : '')])));
}

export async function migrateCommand(c: Context): Promise<void> {
  const [, sub, ...rest] = c.args.words;
  if (sub === 'create' && rest.length <= 1) return createCommand(c, rest[0]);
  if (rest.length > 0) throw new UsageError(`unexpected argument ${rest[0]}`);
  if (sub === 'apply') return applyCommand(c);
  if (sub === 'status') return statusCommand(c);
  throw new UsageError(`usage:\n${MIGRATE_USAGE}`);
}
