// Server settings: one table of flags and ENGINE_GRAPHQL_* env vars (flag wins, src/config/settings.ts), parsed and
// validated with zod. A bad value stops start-up with a one-line ConfigError naming the setting.
import { checkAuthConfig, jwtConfigFromJson, type AuthConfig } from '../auth/config.js';
import { databaseUrlFrom } from './database-url.js';
import type { Env } from '../core/env.js';
import { ConfigError, type Api, type ServerConfig } from './server-config.js';
import { SETTINGS, type SettingDef } from './settings.js';

export * from './server-config.js';
export { SETTINGS, type SettingDef } from './settings.js';

const BOOL_TRUE = new Set(['true', 't', 'yes', 'y', '1', 'on']);
const BOOL_FALSE = new Set(['false', 'f', 'no', 'n', '0', 'off']);

/** Raw string → value of the setting's kind; the zod schema then checks the value. */
function convert(def: SettingDef, raw: string): unknown {
  switch (def.kind) {
    case 'string':
      return raw;
    case 'int':
      return /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
    case 'bool': {
      const v = raw.trim().toLowerCase();
      return BOOL_TRUE.has(v) ? true : BOOL_FALSE.has(v) ? false : raw;
    }
    case 'enum':
      return def.key === 'authHookMode' ? raw.trim().toUpperCase() : raw.trim().toLowerCase();
    case 'list':
      return raw.split(',').map((s) => s.trim().toLowerCase()).filter((s) => s !== '');
    case 'urls':
      // Repeated flags arrive joined with commas, like the variable's list (a comma inside a URL must be %2C).
      return raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
    case 'json':
      try {
        return JSON.parse(raw);
      } catch {
        return raw;
      }
  }
}

function describe(def: SettingDef, source: string): string {
  return source.startsWith('--') ? `${source} (${def.env[0]})` : `${source} (--${def.flag})`;
}

function parseValue(def: SettingDef, raw: string, source: string): unknown {
  const value = convert(def, raw);
  const r = def.schema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    const what = def.kind === 'int' && Number.isNaN(value) ? 'expected an integer' : def.kind === 'bool' ? 'expected true or false'
      : def.kind === 'json' && typeof value === 'string' ? 'expected a JSON object' : issue?.message ?? 'invalid';
    throw new ConfigError(`invalid value for ${describe(def, source)}: ${JSON.stringify(raw)}: ${what}`);
  }
  return r.data;
}

const BY_FLAG = new Map(SETTINGS.map((s) => [s.flag, s]));
BY_FLAG.set('access-key', SETTINGS.find((s) => s.key === 'adminSecret')!);

export interface ParsedArgs {
  /** Values by setting key, from flags. */
  flags: Map<SettingDef, string>;
  /** Non-flag words (sub-command and its arguments). */
  positional: string[];
  /** Flags this parser does not know (left to the sub-command). */
  unknown: Map<string, string | true>;
  help: boolean;
}

/** Splits argv into known setting flags, positional words and other flags. Boolean flags may stand alone. */
export function splitArgs(argv: readonly string[], extraFlags: readonly string[] = []): ParsedArgs {
  const out: ParsedArgs = { flags: new Map(), positional: [], unknown: new Map(), help: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') {
      out.help = true;
      continue;
    }
    if (!a.startsWith('--')) {
      out.positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    const def = BY_FLAG.get(name);
    let value: string | undefined = eq > 0 ? a.slice(eq + 1) : undefined;
    if (def === undefined && !extraFlags.includes(name)) throw new ConfigError(`unknown flag --${name} (see --help)`);
    if (value === undefined) {
      const next = argv[i + 1];
      const isBool = def?.kind === 'bool';
      if (isBool && (next === undefined || !(BOOL_TRUE.has(next.toLowerCase()) || BOOL_FALSE.has(next.toLowerCase())))) value = 'true';
      else if (next === undefined || (next.startsWith('--') && next.length > 2)) throw new ConfigError(`missing value for --${name}`);
      else value = argv[++i];
    }
    const before = def ? out.flags.get(def) : undefined;
    if (def) out.flags.set(def, def.repeatable && before !== undefined ? `${before},${value}` : value);
    else out.unknown.set(name, value);
  }
  return out;
}

function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  const dot = key.indexOf('.');
  if (dot < 0) {
    target[key] = value;
    return;
  }
  const head = key.slice(0, dot);
  const inner = (target[head] ??= {}) as Record<string, unknown>;
  inner[key.slice(dot + 1)] = value;
}

/** The whole configuration from flags (already split) and env. Throws ConfigError. */
export function configFrom(flags: Map<SettingDef, string>, env: Env): ServerConfig {
  const raw: Record<string, unknown> = {};
  const unused: ServerConfig['unused'] = [];
  for (const def of SETTINGS) {
    const flag = flags.get(def);
    let value: unknown = def.default;
    let source: string | null = null;
    if (flag !== undefined) value = parseValue(def, flag, (source = `--${def.flag}`));
    else {
      const envName = def.env.find((n) => env[n] !== undefined && env[n] !== '');
      if (envName !== undefined) value = parseValue(def, env[envName]!, (source = envName));
    }
    if (source !== null && def.noEffect !== undefined) unused.push({ setting: describe(def, source), reason: def.noEffect });
    if (value !== undefined) setKey(raw, def.key, value);
  }
  const config = raw as unknown as ServerConfig;
  config.unused = unused;
  try {
    const db = databaseUrlFrom(config.databaseUrl, {
      host: config.pgHost, port: config.pgPort, user: config.pgUser, password: config.pgPassword, dbname: config.pgDatabase,
      options: config.pgConnectionOptions,
    });
    config.databaseUrl = db.url;
    unused.push(...db.unused);
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  checkAuthModes(config);
  return config;
}

/** The auth settings as src/auth wants them; their combination rules (SPEC-NOTES-runtime 6.1) are fatal at start-up. */
export function authConfigOf(c: ServerConfig): AuthConfig {
  try {
    const auth: AuthConfig = {
      adminSecret: c.adminSecret,
      jwt: c.jwtSecret === undefined ? undefined : jwtConfigFromJson(c.jwtSecret),
      authHook: c.authHook === undefined ? undefined : { url: c.authHook, mode: c.authHookMode },
      unauthorizedRole: c.unauthorizedRole,
    };
    checkAuthConfig(auth);
    return auth;
  } catch (e) {
    throw new ConfigError((e as Error).message.replace(/\s*\n\s*/g, ' '));
  }
}

function checkAuthModes(c: ServerConfig): void {
  authConfigOf(c);
}

/** Parses argv + env in one go (argv holds only setting flags). */
export function parseConfig(argv: readonly string[], env: Env = process.env): ServerConfig {
  return configFrom(splitArgs(argv).flags, env);
}

/** Defaults merged with overrides, for tests and embedding (validated like flags). */
export function makeConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  const base = configFrom(new Map(), {});
  return { ...base, ...overrides, liveQueries: { ...base.liveQueries, ...(overrides.liveQueries ?? {}) } };
}

/** How long a pooled connection may stay idle, and live (--timeout, --conn-lifetime; 0: no limit, as pg-pool's 0). */
export const poolTimesOf = (c: ServerConfig): { idleTimeoutMillis: number; maxLifetimeSeconds: number } =>
  ({ idleTimeoutMillis: c.pgTimeout * 1000, maxLifetimeSeconds: c.connLifetime });

/** Postgres connections the pools may open: the primary's and every read replica's. */
export const poolConnections = (c: ServerConfig): number => c.pgConnections + c.readReplicaUrls.length * c.readReplicaPoolSize;

export const isApiEnabled = (c: ServerConfig, api: Api): boolean => c.enabledApis.includes(api);

/** The options table for --help. */
export function settingsHelp(): string {
  const rows = SETTINGS.map((s) => {
    const dflt = s.default === undefined || (Array.isArray(s.default) && s.default.length === 0) ? '' : ` [default: ${Array.isArray(s.default) ? s.default.join(',') : String(s.default)}]`;
    return `  --${s.flag}${s.kind === 'bool' ? '' : ' VALUE'}\n      ${s.env.length ? s.env.join(', ') : '(flag only)'}\n      ${s.help}${dflt}`;
  });
  return rows.join('\n');
}
