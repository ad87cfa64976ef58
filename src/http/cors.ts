// CORS as the original's middleware: which origins are allowed (--cors-domain, --disable-cors) and the headers
// each allowed response carries. Used by the koa app and the /v1/graphql fast path alike.

/** Methods every CORS response names (the original's default policy). */
const METHODS = 'GET,POST,PUT,PATCH,DELETE,OPTIONS';
const MAX_AGE = '1728000';

interface Wildcard {
  scheme: string;
  host: string;
  port: number | null;
}

/**
 * Scheme, host after the first label, port: how the original reads an Origin to compare it with `*.domain`
 * entries. `http://inst1.foo.bar.com` gives host `foo.bar.com`; a deeper `inst1.app.foo.bar.com` gives
 * `app.foo.bar.com`, so a wildcard stands for exactly one label.
 */
function parseOrigin(origin: string): Wildcard | null {
  const m = /^(https?:\/\/)[^.]*\.(.*)$/.exec(origin);
  if (!m) return null;
  return hostAndPort(m[1], m[2]);
}

function hostAndPort(scheme: string, rest: string): Wildcard | null {
  const colon = rest.indexOf(':');
  if (colon === -1) return { scheme, host: rest, port: null };
  if (colon === 0) return null;
  const digits = /^\d+/.exec(rest.slice(colon + 1));
  return { scheme, host: rest.slice(0, colon), port: digits ? Number(digits[0]) : null };
}

/** `http(s)://*.domain[:port]` entries; others are exact origins. */
function parseWildcard(domain: string): Wildcard | null {
  const m = /^(https?:\/\/)\*\.(.+)$/.exec(domain);
  return m ? hostAndPort(m[1], m[2]) : null;
}

/**
 * The CORS decision per --cors-domain (default: every origin), off with --disable-cors: the origin to allow, or
 * null (no CORS headers).
 */
export function corsPolicy(config: { corsDomain: string; disableCors: boolean }): (origin: string) => string | null {
  if (config.disableCors) return () => null;
  const domains = config.corsDomain.split(',').map((d) => d.trim()).filter(Boolean);
  if (domains.includes('*')) return (origin) => (origin === '' ? null : origin);
  const exact = new Set<string>();
  const wildcards: Wildcard[] = [];
  for (const d of domains) {
    const w = parseWildcard(d);
    if (w) wildcards.push(w);
    else exact.add(d);
  }
  return (origin) => {
    if (origin === '') return null;
    if (exact.has(origin)) return origin;
    const o = parseOrigin(origin);
    if (o && wildcards.some((w) => w.scheme === o.scheme && w.host === o.host && w.port === o.port)) return origin;
    return null;
  };
}

/** Headers of every response to an allowed origin, in the original's order. */
export const corsHeaders = (origin: string): [string, string][] => [
  ['Access-Control-Allow-Origin', origin],
  ['Access-Control-Allow-Credentials', 'true'],
  ['Access-Control-Allow-Methods', METHODS],
];

/** The extra headers of a preflight (OPTIONS) answer (204, empty body): the requested headers are allowed. */
export const preflightHeaders = (requestedHeaders: string): [string, string][] => [
  ['Access-Control-Max-Age', MAX_AGE],
  ['Access-Control-Allow-Headers', requestedHeaders],
];
