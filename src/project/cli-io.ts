// What the project commands share: their arguments (words, value flags, switches), the settings they run with,
// and how they answer: text for a person or `--format json` for a script on stdout, errors as one line on
// stderr, exit code 0 or 1 as the original CLI.
import { engineClient, type EngineClient } from './client.js';
import { projectSettings, type ProjectSettings } from './project-config.js';

export class UsageError extends Error {}

/** Value flags every project command takes. */
const COMMON = ['endpoint', 'admin-secret', 'project', 'format', 'metadata-dir', 'migrations-dir'];

export interface Args {
  words: string[];
  flags: Map<string, string>;
  switches: Set<string>;
}

/** Splits argv by a command's flags (`--name value`, `--name=value`) and switches (`--name`). */
export function parseArgs(argv: readonly string[], valueFlags: readonly string[], switchFlags: readonly string[] = []): Args {
  const values = new Set([...COMMON, ...valueFlags]);
  const switches = new Set(switchFlags);
  const out: Args = { words: [], flags: new Map(), switches: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--') || a === '--') {
      out.words.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    if (switches.has(name)) {
      const v = eq > 0 ? a.slice(eq + 1) : 'true';
      if (v !== 'true' && v !== 'false') throw new UsageError(`--${name} takes no value (or true/false)`);
      if (v === 'true') out.switches.add(name);
      continue;
    }
    if (!values.has(name)) throw new UsageError(`unknown flag --${name}`);
    const value = eq > 0 ? a.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new UsageError(`missing value for --${name}`);
    out.flags.set(name, value);
  }
  const format = out.flags.get('format');
  if (format !== undefined && format !== 'json' && format !== 'text') throw new UsageError('--format is json or text');
  return out;
}

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: Io = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

export interface Context {
  args: Args;
  json: boolean;
  settings: ProjectSettings;
  client: EngineClient;
  io: Io;
  /** Progress and results for a person (nothing in json mode). */
  say(line: string): void;
}

export function contextOf(args: Args, env: Record<string, string | undefined>, io: Io): Context {
  const settings = projectSettings(
    {
      project: args.flags.get('project'),
      endpoint: args.flags.get('endpoint'),
      adminSecret: args.flags.get('admin-secret'),
      metadataDir: args.flags.get('metadata-dir'),
      migrationsDir: args.flags.get('migrations-dir'),
    },
    env,
  );
  const json = args.flags.get('format') === 'json';
  return { args, json, settings, client: engineClient(settings.endpoint, settings.adminSecret), io, say: (l) => json || io.out(l + '\n') };
}

/** Left-aligned columns two spaces apart, as Go's tabwriter prints the original's tables. */
export function table(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  return all.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] + 2))).join('')).join('\n');
}
