// The project's config.yaml (the original CLI's config v2: version, endpoint, admin_secret, metadata_directory,
// migrations_directory, actions) and the settings a command runs with: a flag wins over ENGINE_GRAPHQL_ENDPOINT /
// ENGINE_GRAPHQL_ADMIN_SECRET, which win over config.yaml, which wins over the defaults.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { DEFAULT_ACTIONS, filesFromExport, type ActionDefaults } from './metadata-files.js';
import { writeMetadataFolder } from './folder.js';
import { readYaml, toYamlV2 } from './yaml-v2.js';

export const DEFAULT_ENDPOINT = 'http://localhost:8080';

export interface ProjectSettings {
  endpoint: string;
  adminSecret: string | undefined;
  metadataDir: string;
  migrationsDir: string;
  actions: ActionDefaults;
}

export interface SettingSources {
  /** --project (default: the current directory). */
  project?: string;
  endpoint?: string;
  adminSecret?: string;
  metadataDir?: string;
  migrationsDir?: string;
}

type Obj = Record<string, unknown>;
const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function readConfig(dir: string): Obj {
  const path = join(dir, 'config.yaml');
  if (!existsSync(path)) return {};
  let doc: unknown;
  try {
    doc = readYaml(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`${path}: ${(e as Error).message.split('\n')[0]}`);
  }
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new Error(`${path}: expected a mapping`);
  const c = doc as Obj;
  if (c.version !== undefined && c.version !== 2) throw new Error(`${path}: config version ${String(c.version)} is not supported (version: 2)`);
  return c;
}

export function projectSettings(s: SettingSources, env: Record<string, string | undefined>, cwd = process.cwd()): ProjectSettings {
  const dir = resolve(cwd, s.project ?? '.');
  const c = readConfig(dir);
  const inProject = (p: string): string => (isAbsolute(p) ? p : join(dir, p));
  const actions = (typeof c.actions === 'object' && c.actions !== null ? c.actions : {}) as Obj;
  return {
    endpoint: s.endpoint ?? text(env.ENGINE_GRAPHQL_ENDPOINT) ?? text(c.endpoint) ?? DEFAULT_ENDPOINT,
    adminSecret: s.adminSecret ?? text(env.ENGINE_GRAPHQL_ADMIN_SECRET) ?? text(c.admin_secret),
    metadataDir: s.metadataDir ? resolve(cwd, s.metadataDir) : inProject(text(c.metadata_directory) ?? 'metadata'),
    migrationsDir: s.migrationsDir ? resolve(cwd, s.migrationsDir) : inProject(text(c.migrations_directory) ?? 'migrations'),
    actions: {
      kind: text(actions.kind) ?? DEFAULT_ACTIONS.kind,
      handler_webhook_baseurl: text(actions.handler_webhook_baseurl) ?? DEFAULT_ACTIONS.handler_webhook_baseurl,
    },
  };
}

/** `engine init DIR`: config.yaml, an empty metadata folder (the files of an empty export) and migrations/. */
export function initProject(dir: string, endpoint = DEFAULT_ENDPOINT, adminSecret = ''): string[] {
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new Error(`${dir} already exists and is not empty`);
  mkdirSync(join(dir, 'migrations'), { recursive: true });
  const config = {
    version: 2,
    endpoint,
    admin_secret: adminSecret,
    metadata_directory: 'metadata',
    migrations_directory: 'migrations',
    actions: { ...DEFAULT_ACTIONS },
  };
  writeFileSync(join(dir, 'config.yaml'), toYamlV2(config));
  const files = writeMetadataFolder(join(dir, 'metadata'), filesFromExport({ version: 2, tables: [] }));
  return ['config.yaml', ...files.map((f) => `metadata/${f}`), 'migrations/'];
}
