// The database URL from the settings: the one given, or the one the original's separate settings make (--host
// --port --user --password --dbname), with --pg-connection-options as libpq `options` on either.

/** The separate settings, as given (flags only). */
export interface DatabaseParts {
  host?: string;
  port?: number;
  user?: string;
  password?: string;
  dbname?: string;
  options?: string;
}

const NEEDED = ['host', 'port', 'user', 'dbname'] as const;

/**
 * The database URL, and the settings given that it leaves unused. As the original: a URL wins over separate
 * settings, and without a URL the separate settings need host, port, user and dbname (else an Error saying which
 * are missing). Neither: undefined (the embedded Postgres).
 */
export function databaseUrlFrom(url: string | undefined, p: DatabaseParts): { url: string | undefined; unused: Array<{ setting: string; reason: string }> } {
  const given = ([...NEEDED, 'password'] as const).filter((k) => p[k] !== undefined).map((k) => `--${k}`);
  if (url !== undefined) {
    return { url: withOptions(url, p.options), unused: given.map((setting) => ({ setting, reason: 'a database URL is set, which wins' })) };
  }
  if (given.length === 0) {
    const unused = p.options === undefined ? [] : [{ setting: '--pg-connection-options', reason: 'no database URL or --host: the embedded Postgres is used' }];
    return { url: undefined, unused };
  }
  const missing = NEEDED.filter((k) => p[k] === undefined).map((k) => `--${k}`);
  if (missing.length > 0) {
    throw new Error(`invalid database settings: expecting all of --host, --port, --user, --dbname (and --password) or a database URL (--database-url, ENGINE_GRAPHQL_DATABASE_URL); missing ${missing.join(', ')}`);
  }
  const made = new URL('postgres://localhost');
  // An IPv6 address goes in brackets; a socket folder (/var/run/postgresql) percent-encoded, as node-postgres reads it.
  const host = p.host!.includes(':') ? `[${p.host!}]` : encodeURIComponent(p.host!);
  made.hostname = host;
  if (made.hostname !== host) throw new Error(`invalid value for --host: ${JSON.stringify(p.host)}: not a host name, address or socket folder`);
  made.port = String(p.port);
  made.username = p.user!;
  if (p.password !== undefined) made.password = p.password;
  made.pathname = `/${encodeURIComponent(p.dbname!)}`;
  return { url: withOptions(made.toString(), p.options), unused: [] };
}

/** The URL with libpq `options` set (replacing any it had). */
function withOptions(databaseUrl: string, options: string | undefined): string {
  if (options === undefined) return databaseUrl;
  const url = new URL(databaseUrl);
  url.searchParams.set('options', options);
  return url.toString();
}
