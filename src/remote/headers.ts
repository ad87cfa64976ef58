// The headers a request to a remote schema carries, as the original builds them: the configured headers, the
// resolved session variables as x-engine-* headers and, with forward_client_headers, the client's headers minus
// the usual hop/transport ones and minus x-engine-* (those arrive as session variables), plus X-Forwarded-Host and
// X-Forwarded-User-Agent. On duplicates (case-insensitive) configured > session variables > client.
import { isSessionVariable, type RequestHeaders } from '../auth/session.js';

/** The original's commonClientHeadersIgnored. */
const IGNORED = new Set([
  'content-length', 'content-md5', 'user-agent', 'host', 'origin', 'referer', 'accept', 'accept-encoding', 'accept-language',
  'accept-datetime', 'cache-control', 'connection', 'dnt', 'content-type',
]);

function clientHeaders(headers: RequestHeaders): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const forwarded: Array<[string, string]> = [];
  for (const [k, raw] of Object.entries(headers)) {
    const values = Array.isArray(raw) ? raw : [raw];
    for (const v of values) {
      if (typeof v !== 'string') continue;
      const lower = k.toLowerCase();
      if (lower === 'host') forwarded.push(['X-Forwarded-Host', v]);
      else if (lower === 'user-agent') forwarded.push(['X-Forwarded-User-Agent', v]);
      if (IGNORED.has(lower) || isSessionVariable(lower)) continue;
      out.push([k, v]);
    }
  }
  return [...forwarded, ...out];
}

export interface HeaderSources {
  configured: Record<string, string>;
  session: Record<string, string>;
  /** The client's request headers, when forward_client_headers is set. */
  client: RequestHeaders | null;
}

/** One value per header name (case-insensitively), highest precedence first; Content-Type application/json unless configured. */
export function remoteHeaders(src: HeaderSources): Record<string, string> {
  const out = new Map<string, [string, string]>();
  const add = (pairs: Iterable<[string, string]>) => {
    for (const [k, v] of pairs) if (!out.has(k.toLowerCase())) out.set(k.toLowerCase(), [k, v]);
  };
  add(Object.entries(src.configured));
  add(Object.entries(src.session));
  if (src.client) add(clientHeaders(src.client));
  add([['Content-Type', 'application/json']]);
  return Object.fromEntries(out.values());
}
