// Node's IncomingMessage.headers, made from raw headers: the answer's headers as node:http reads them (event
// invocation logs record them so). Names lower-case; a repeated header joined with ", " (a cookie with "; ",
// set-cookie kept as a list), except the headers node keeps the first of.
import type { IncomingHttpHeaders } from 'node:http';

/** Headers of which node:http keeps only the first (_http_incoming.js's matchKnownFields). */
const FIRST_ONLY = new Set([
  'content-type', 'content-length', 'user-agent', 'referer', 'host', 'authorization', 'proxy-authorization',
  'if-modified-since', 'if-unmodified-since', 'from', 'location', 'max-forwards', 'retry-after', 'etag',
  'last-modified', 'server', 'age', 'expires',
]);

/** `raw`: name, value, name, value... in the order received. */
export function headerMapOf(raw: readonly string[]): IncomingHttpHeaders {
  const out: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    const value = raw[i + 1];
    const had = out[name];
    if (name === 'set-cookie') {
      if (had === undefined) out[name] = [value];
      else (had as string[]).push(value);
    } else if (had === undefined) out[name] = value;
    else if (!FIRST_ONLY.has(name)) out[name] = `${had as string}${name === 'cookie' ? '; ' : ', '}${value}`;
  }
  return out as IncomingHttpHeaders;
}
