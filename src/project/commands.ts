// The project commands of the engine's CLI (the original CLI's project workflow): `engine init DIR`,
// `engine metadata ...`, `engine migrate ...`. They talk to a running engine over HTTP (--endpoint,
// --admin-secret, config.yaml, ENGINE_GRAPHQL_ENDPOINT / ENGINE_GRAPHQL_ADMIN_SECRET); exit code 0 or 1.
import { resolve } from 'node:path';
import { contextOf, parseArgs, processIo, UsageError, type Io } from './cli-io.js';
import { initProject } from './project-config.js';
import { METADATA_USAGE, metadataCommand } from './metadata-commands.js';
import { MIGRATE_FLAGS, MIGRATE_USAGE, migrateCommand } from './migrate-commands.js';
import { ApiError } from './client.js';
import { failureText } from './failure.js';

export const PROJECT_COMMANDS = new Set(['init', 'metadata', 'migrate']);

export const PROJECT_USAGE = `  engine init DIR [--endpoint URL] [--admin-secret S]
                                                a project folder: config.yaml, metadata/, migrations/
${METADATA_USAGE}
${MIGRATE_USAGE}
      (project commands take --endpoint URL, --admin-secret S, --project DIR (default: .),
       --metadata-dir DIR, --migrations-dir DIR and --format json|text; config.yaml in the project
       folder, ENGINE_GRAPHQL_ENDPOINT and ENGINE_GRAPHQL_ADMIN_SECRET give the defaults)`;

function init(argv: readonly string[], io: Io): void {
  const args = parseArgs(argv, []);
  const [, dir, ...rest] = args.words;
  if (dir === undefined || rest.length) throw new UsageError('usage: engine init DIR [--endpoint URL] [--admin-secret S]');
  const created = initProject(resolve(dir), args.flags.get('endpoint'), args.flags.get('admin-secret'));
  if (args.flags.get('format') === 'json') io.out(JSON.stringify({ directory: resolve(dir), created }, null, 2) + '\n');
  else io.out(`Project created in ${resolve(dir)}: ${created.join(', ')}\n`);
}

/** Runs `engine init|metadata|migrate ...` (argv without the program); returns the exit code. */
export async function projectCommand(argv: readonly string[], env: Record<string, string | undefined>, io: Io = processIo): Promise<number> {
  try {
    if (argv[0] === 'init') {
      init(argv, io);
      return 0;
    }
    const args = parseArgs(argv, MIGRATE_FLAGS, ['skip-execution']);
    const c = contextOf(args, env, io);
    await (argv[0] === 'metadata' ? metadataCommand(c) : migrateCommand(c));
    return 0;
  } catch (e) {
    // Usage, folder, plan and engine errors alike: one line, exit 1 (as the original CLI).
    if (!(e instanceof Error)) throw e;
    const message = e instanceof ApiError ? failureText(e) : e.message;
    io.err(`engine: ${message}\n`);
    return 1;
  }
}
