// `engine history list|show|diff`: the metadata history operations (src/metadata/history.ts) from the command line,
// reading the log straight from the database (no server needed). Text by default, `--format json` for scripts.
import pg from 'pg';
import { isEngineError } from '../core/errors.js';
import { catalogExists } from '../../events/log.js';
import { exportAt, historyDiff, historyList } from '../metadata/history.js';
import type { Change } from '../../projections/history.js';

export const HISTORY_FLAGS = ['at', 'limit', 'offset', 'format'] as const;

export const HISTORY_USAGE = `  engine history list [--limit N] [--offset N]   the metadata changes, newest first (seq, time, role, summary)
  engine history show --at N                    the metadata (export_metadata) as it was at version N
  engine history diff A [B]                     what changed from version A to B (default: the newest)
      (these three take --format json|text)`;

type Runner = <T>(run: (url: string) => Promise<T>) => Promise<T>;

const int = (v: string | boolean | undefined, name: string): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== 'string' || !/^\d+$/.test(v) || !Number.isSafeInteger(n)) throw new UsageError(`--${name} needs a non-negative integer`);
  return n;
};

class UsageError extends Error {}

/** Runs one history sub-command; returns the exit code (2: usage, 1: failure). */
export async function historyCommand(
  sub: string | undefined,
  rest: readonly string[],
  flags: ReadonlyMap<string, string | boolean | undefined>,
  withDatabase: Runner,
  out: (s: string) => void = (s) => process.stdout.write(s),
): Promise<number> {
  let run: (c: pg.Client) => Promise<string>;
  try {
    const format = flags.get('format') ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError('--format is json or text');
    const json = format === 'json';
    if (sub === 'list' && rest.length === 0) {
      const offset = int(flags.get('offset'), 'offset');
      const limit = int(flags.get('limit'), 'limit');
      run = async (c) => {
        const page = await historyList(c, offset, limit);
        if (json) return JSON.stringify(page, null, 2);
        return page.entries.map((e) => `${String(e.seq).padStart(5)}  ${e.time}  ${(e.role ?? '-').padEnd(8)}  ${e.summary}`).join('\n');
      };
    } else if (sub === 'show' && rest.length === 0) {
      const at = int(flags.get('at'), 'at');
      if (at === undefined) throw new UsageError('history show needs --at N');
      run = async (c) => JSON.stringify(await exportAt(c, at), null, 2);
    } else if (sub === 'diff' && (rest.length === 1 || rest.length === 2)) {
      const from = int(rest[0], 'diff A');
      const to = rest[1] === undefined ? undefined : int(rest[1], 'diff B');
      run = async (c) => {
        const d = await historyDiff(c, from!, to);
        return json ? JSON.stringify(d, null, 2) : [`diff ${d.from} → ${d.to}: ${d.changes.length} change(s)`, ...d.changes.map(changeLine)].join('\n');
      };
    } else {
      throw new UsageError(`usage:\n${HISTORY_USAGE}`);
    }
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`engine: ${e.message}\n`);
    return 2;
  }
  return withDatabase(async (url) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      if (!(await catalogExists(client))) throw new Error('this database has no engine_catalog (no history)');
      const text = await run(client);
      out(text === '' ? '' : text + '\n');
      return 0;
    } catch (e) {
      process.stderr.write(`engine: history ${sub} failed: ${isEngineError(e) ? e.message : (e as Error).message}\n`);
      return 1;
    } finally {
      await client.end();
    }
  });
}

const SIGN = { added: '+', removed: '-', changed: '~' } as const;

/** `~ tables[public.author].select_permissions[user]` and, for changes, the value before and after on one line each. */
function changeLine(c: Change): string {
  const head = `${SIGN[c.kind]} ${c.path}`;
  if (c.kind !== 'changed') return head;
  return `${head}\n    before: ${JSON.stringify(c.before)}\n    after:  ${JSON.stringify(c.after)}`;
}
