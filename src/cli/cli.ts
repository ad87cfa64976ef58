// Command line: `engine serve` (default), `engine version`, `engine history export|replay|list|show|diff`, `--help`.
// Settings come from flags and ENGINE_GRAPHQL_* env vars (src/config/config.ts); a bad value exits with one line.
import cluster from 'node:cluster';
import { createReadStream, createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import pg from 'pg';
import type { Event } from '../../events/types.js';
import { ConfigError, configFrom, settingsHelp, splitArgs, type ServerConfig } from '../config/config.js';
import { configureLog, log } from '../core/log.js';
import { inTransaction } from '../core/transaction.js';
import { startEngine } from '../main.js';
import { startEmbeddedPostgres } from '../startup/embedded-postgres.js';
import { servePrimary, tellPrimary } from './cluster.js';
import { ENGINE_VERSION } from '../version.js';
import {
  appendEvents,
  catalogExists,
  ensureCatalogSchema,
  headSeq,
  readFrom,
  writeSnapshot,
  type LoggedEvent,
} from '../../events/log.js';
import { fold } from '../../projections/replay.js';
import { emptyMetadata } from '../../projections/metadata.js';
import { HISTORY_FLAGS, HISTORY_USAGE, historyCommand } from './history.js';
import { reconcileEventTriggers } from '../triggers/reconcile.js';
import { recordMigration } from '../metadata/migrations.js';
import { PROJECT_COMMANDS, PROJECT_USAGE, projectCommand } from '../project/commands.js';
import { reconcileCronTriggers } from '../scheduled/catalog.js';
import type { Env } from '../core/env.js';

const USAGE = `engine ${ENGINE_VERSION}: a GraphQL engine over Postgres

usage:
  engine [serve] [options]                      start the server (the default command)
  engine version                                print the version
  engine history export [--output FILE]         write the metadata log as JSON lines (stdout by default)
  engine history replay FILE --database-url URL apply an exported log to an empty database:
                                                runs run_sql's SQL in order and rebuilds the metadata
${HISTORY_USAGE}
${PROJECT_USAGE}

With no database URL, an embedded Postgres is started under --data-dir.
A flag takes precedence over its environment variable.

options:
${settingsHelp()}
  --output FILE
      history export: file to write (default: stdout)`;

export async function main(argv: readonly string[], env: Env = process.env): Promise<number> {
  if (argv[0] !== undefined && PROJECT_COMMANDS.has(argv[0]) && !argv.includes('--help')) return projectCommand(argv, env);
  let args;
  let config: ServerConfig;
  try {
    args = splitArgs(argv, ['output', ...HISTORY_FLAGS]);
    if (args.help) {
      process.stdout.write(USAGE + '\n');
      return 0;
    }
    config = configFrom(args.flags, env);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`engine: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  const [command = 'serve', sub, ...rest] = args.positional;
  switch (command) {
    case 'serve':
      if (sub !== undefined) return usageError(`unexpected argument ${sub}`);
      return config.workers > 1 && cluster.isPrimary ? servePrimary(config) : serve(config);
    case 'version':
      process.stdout.write(`${JSON.stringify({ version: ENGINE_VERSION })}\n`);
      return 0;
    case 'history': {
      configureLog(config.logLevel === 'debug' ? 'debug' : 'warn', (l) => process.stderr.write(l + '\n'));
      if (sub === 'export' && rest.length === 0) {
        const output = args.unknown.get('output');
        return historyExport(config, typeof output === 'string' ? output : undefined);
      }
      if (sub === 'replay' && rest.length === 1) return historyReplay(config, rest[0]);
      if (sub === 'list' || sub === 'show' || sub === 'diff') return historyCommand(sub, rest, args.unknown, (run) => withDatabase(config, run));
      return usageError('usage: engine history export [--output FILE] | replay FILE --database-url URL | list | show --at N | diff A [B]');
    }
    default:
      return usageError(`unknown command ${command}`);
  }
}

function usageError(message: string): number {
  process.stderr.write(`engine: ${message} (see --help)\n`);
  return 2;
}

/** One engine serving until a signal: alone, or as a worker of `serve --workers N` (src/cli/cluster.ts). */
async function serve(config: ServerConfig): Promise<number> {
  let engine;
  try {
    engine = await startEngine(config, { listenWhenReady: cluster.isWorker });
  } catch (e) {
    log.error('startup', { message: (e as Error).message, error: e });
    process.stderr.write(`engine: ${(e as Error).message}\n`);
    await tellPrimary({ type: 'engine-failed', message: (e as Error).message });
    return 1;
  }
  await tellPrimary({ type: 'engine-ready' });
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) return;
      stopping = true;
      log.info('shutdown', { message: `received ${signal}, shutting down` });
      engine.close().then(resolve, resolve);
    };
    // A worker hears Ctrl-C twice (from the terminal and from the primary): the second must not kill it mid-close.
    const listen = cluster.isWorker ? process.on.bind(process) : process.once.bind(process);
    listen('SIGINT', () => stop('SIGINT'));
    listen('SIGTERM', () => stop('SIGTERM'));
  });
  return 0;
}

/** The database URL from the settings, or the embedded server's (started for the duration of `run`). */
async function withDatabase<T>(config: ServerConfig, run: (url: string) => Promise<T>): Promise<T> {
  if (config.databaseUrl !== undefined) return run(config.databaseUrl);
  const db = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort });
  try {
    return await run(db.url);
  } finally {
    await db.stop();
  }
}

/** One JSON object per line: {seq, type, data, meta, created_at, instance_id}. */
export const eventLine = (e: LoggedEvent): string =>
  JSON.stringify({ seq: e.seq, type: e.type, data: e.data, meta: e.meta, created_at: e.createdAt, instance_id: e.instanceId });

async function historyExport(config: ServerConfig, output: string | undefined): Promise<number> {
  return withDatabase(config, async (url) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const out: Writable = output ? createWriteStream(output) : process.stdout;
    try {
      if (!(await catalogExists(client))) throw new Error('this database has no engine_catalog (nothing to export)');
      for (let seq = 0; ; ) {
        const batch = await readFrom(client, seq, 1000);
        if (batch.length === 0) break;
        const chunk = batch.map(eventLine).join('\n') + '\n';
        if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
        seq = batch[batch.length - 1].seq;
      }
    } catch (e) {
      process.stderr.write(`engine: history export failed: ${(e as Error).message}\n`);
      return 1;
    } finally {
      await client.end();
      if (output) await new Promise((r) => (out as ReturnType<typeof createWriteStream>).end(r));
    }
    return 0;
  });
}

/** A line of `history export`: an Event as the log held it (a file is trusted as the log is). */
type ExportedEvent = Event & {
  seq: number;
  meta?: Record<string, unknown>;
};

/** The SQL a sql_ran event carries (`data.sql`). */
function sqlOf(e: ExportedEvent): string | null {
  const d = e.data as { sql?: unknown } | null;
  return d && typeof d.sql === 'string' ? d.sql : null;
}

/** Runs the events' SQL and appends them, in the caller's transaction; the last seq. */
async function replayEvents(client: pg.Client, events: ExportedEvent[], snapshotInterval: number): Promise<number> {
  let seq = 0;
  for (const e of events) {
    const sql = e.type === 'sql_ran' ? sqlOf(e) : null;
    if (sql !== null) {
      try {
        await client.query(sql);
      } catch (err) {
        throw new Error(`event ${e.seq} (sql_ran) failed: ${(err as Error).message}`);
      }
    }
    // A schema migration's version row comes back with its SQL.
    if (e.type === 'sql_ran' && e.data.migration) await recordMigration(client, e.data.migration);
    seq = await appendEvents(client, [{ ...e, meta: { ...(e.meta ?? {}), replayed: true } }], seq, {
      instanceId: 'history-replay',
    });
  }
  const metadata = fold(emptyMetadata(), await readFrom(client, 0));
  if (seq >= snapshotInterval) await writeSnapshot(client, seq, metadata);
  // The replayed metadata's event triggers get their capture triggers (the log holds no DDL for them).
  await reconcileEventTriggers(client, metadata);
  // Its cron triggers get their catalog rows and upcoming events.
  await reconcileCronTriggers(client, metadata);
  return seq;
}

async function historyReplay(config: ServerConfig, file: string): Promise<number> {
  if (config.databaseUrl === undefined) return usageError('history replay needs --database-url (an empty database)');
  const client = new pg.Client({ connectionString: config.databaseUrl });
  await client.connect();
  try {
    await ensureCatalogSchema(client);
    if ((await headSeq(client)) !== 0) throw new Error('the target database already has a metadata log; replay needs an empty one');
    const events: ExportedEvent[] = [];
    const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
    let lineNo = 0;
    for await (const line of lines) {
      lineNo++;
      if (line.trim() === '') continue;
      let e: ExportedEvent;
      try {
        e = JSON.parse(line) as ExportedEvent;
      } catch {
        throw new Error(`${file}:${lineNo}: not JSON`);
      }
      if (typeof e.type !== 'string' || typeof e.seq !== 'number') throw new Error(`${file}:${lineNo}: not an exported event`);
      if (e.seq !== events.length + 1) throw new Error(`${file}:${lineNo}: expected seq ${events.length + 1}, found ${e.seq}`);
      events.push(e);
    }
    // All or nothing: the schema changes and the log land in one transaction.
    const seq = await inTransaction(client, () => replayEvents(client, events, config.snapshotInterval));
    process.stderr.write(`engine: replayed ${events.length} events (seq ${seq})\n`);
    return 0;
  } catch (e) {
    process.stderr.write(`engine: history replay failed: ${(e as Error).message}\n`);
    return 1;
  } finally {
    await client.end();
  }
}

/** Entry point for bin/engine.mjs: runs the command, then exits with its code (embedded Postgres hooks may linger). */
export async function runCli(): Promise<void> {
  const code = await main(process.argv.slice(2));
  process.exitCode = code;
  setTimeout(() => process.exit(code), 50);
}
