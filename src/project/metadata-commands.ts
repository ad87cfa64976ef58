// `engine metadata export|apply|diff|reload|clear|inconsistency list|drop` against a running engine, as the
// original CLI's commands: the folder is written from export_metadata, applied as one replace_metadata (one
// history version; nothing when the folder already matches), and compared with the engine in the history's paths.
import { diffExports, type Change } from '../../projections/history.js';
import { asExported, exportFromFiles, filesFromExport } from './metadata-files.js';
import { metadataReader, writeMetadataFolder } from './folder.js';
import { ApiError } from './client.js';
import { failureText, fileOfPath } from './failure.js';
import { UsageError, table, type Context } from './cli-io.js';

type Obj = Record<string, unknown>;

/** The folder's document (what apply sends), and the changes from the engine's metadata to it. */
async function folderAndChanges(c: Context): Promise<{ folder: Obj; changes: Change[] }> {
  const folder = exportFromFiles(metadataReader(c.settings.metadataDir), c.settings.actions);
  const server = await c.client.query<Obj>({ type: 'export_metadata', args: {} });
  return { folder, changes: diffExports(server, asExported(folder) ?? folder) };
}

const SIGN = { added: '+', removed: '-', changed: '~' } as const;

function changeLines(changes: Change[]): string[] {
  return changes.flatMap((ch) => {
    const head = `${SIGN[ch.kind]} ${ch.path}`;
    if (ch.kind !== 'changed') return [head];
    return [head, `    server: ${JSON.stringify(ch.before)}`, `    folder: ${JSON.stringify(ch.after)}`];
  });
}

async function exportCommand(c: Context): Promise<void> {
  const doc = await c.client.query<Obj>({ type: 'export_metadata', args: {} });
  const changed = writeMetadataFolder(c.settings.metadataDir, filesFromExport(doc));
  if (c.json) c.io.out(JSON.stringify({ directory: c.settings.metadataDir, changed }, null, 2) + '\n');
  else c.say(`Metadata exported to ${c.settings.metadataDir} (${changed.length ? `changed: ${changed.join(', ')}` : 'no file changed'})`);
}

async function applyCommand(c: Context): Promise<void> {
  const { folder, changes } = await folderAndChanges(c);
  if (changes.length === 0) {
    if (c.json) c.io.out(JSON.stringify({ applied: false, changes: 0 }, null, 2) + '\n');
    else c.say('Metadata is already up to date (nothing to apply)');
    return;
  }
  try {
    await c.client.query({ type: 'replace_metadata', args: folder });
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    const file = fileOfPath(e.path);
    throw new Error(`metadata apply failed${file ? ` (${file})` : ''}: ${failureText(e)}`);
  }
  if (c.json) c.io.out(JSON.stringify({ applied: true, changes: changes.length }, null, 2) + '\n');
  else c.say(`Metadata applied (${changes.length} change(s))`);
}

async function diffCommand(c: Context): Promise<void> {
  const { changes } = await folderAndChanges(c);
  if (c.json) c.io.out(JSON.stringify({ changes }, null, 2) + '\n');
  else c.say([`diff server → folder: ${changes.length} change(s)`, ...changeLines(changes)].join('\n'));
}

interface Inconsistent {
  type?: string;
  reason?: string;
  definition?: unknown;
  name?: string;
}

function objectName(o: Inconsistent): string {
  const d = o.definition as Obj | string | undefined;
  if (typeof d === 'string') return d;
  if (d && typeof d === 'object') return String(d.name ?? (d as { table?: { name?: string } }).table?.name ?? '');
  return '';
}

async function inconsistencyCommand(c: Context, sub: string | undefined): Promise<void> {
  if (sub === 'list') {
    const r = await c.client.query<{ is_consistent: boolean; inconsistent_objects: Inconsistent[] }>({ type: 'get_inconsistent_metadata', args: {} });
    if (c.json) return void c.io.out(JSON.stringify(r, null, 2) + '\n');
    if (r.is_consistent) return c.say('metadata is consistent');
    const rows = r.inconsistent_objects.map((o) => [objectName(o), o.type ?? '', JSON.stringify(o.definition ?? null), o.reason ?? '']);
    return c.say(table(['NAME', 'TYPE', 'DESCRIPTION', 'REASON'], rows));
  }
  if (sub === 'drop') {
    await c.client.query({ type: 'drop_inconsistent_metadata', args: {} });
    if (c.json) return void c.io.out(JSON.stringify({ dropped: true }, null, 2) + '\n');
    return c.say('all inconsistent objects removed from metadata');
  }
  throw new UsageError('usage: engine metadata inconsistency list|drop');
}

async function simple(c: Context, type: string, done: string): Promise<void> {
  await c.client.query({ type, args: {} });
  if (c.json) c.io.out(JSON.stringify({ message: done }, null, 2) + '\n');
  else c.say(done);
}

export const METADATA_USAGE = `  engine metadata export                        write the engine's metadata to the metadata folder (YAML, as the original CLI)
  engine metadata apply                         replace the engine's metadata with the folder's (one history version)
  engine metadata diff                          what apply would change, as history paths (server → folder)
  engine metadata reload | clear                reload_metadata / clear_metadata
  engine metadata inconsistency list | drop     the inconsistent objects / drop them`;

export async function metadataCommand(c: Context): Promise<void> {
  const [, sub, ...rest] = c.args.words;
  if (rest.length > 0 && sub !== 'inconsistency' && sub !== 'ic') throw new UsageError(`unexpected argument ${rest[0]}`);
  switch (sub) {
    case 'export':
      return exportCommand(c);
    case 'apply':
      return applyCommand(c);
    case 'diff':
      return diffCommand(c);
    case 'reload':
      return simple(c, 'reload_metadata', 'Metadata reloaded');
    case 'clear':
    case 'reset':
      return simple(c, 'clear_metadata', 'Metadata cleared');
    case 'inconsistency':
    case 'ic':
      return inconsistencyCommand(c, rest[0]);
    default:
      throw new UsageError(`usage:\n${METADATA_USAGE}`);
  }
}
