// The single place where a request becomes a Session: src/auth's resolveSession with this server's auth settings.
import type { IncomingMessage } from 'node:http';
import { resolveSessionNow } from '../auth/resolve.js';
import { headerValue, type Session } from '../auth/session.js';
import type { Runtime } from './runtime.js';
import { awaitMinVersion } from './request-common.js';

/**
 * Also where `x-engine-min-metadata-version` is waited for: only once the request is authenticated, so bad
 * credentials never make the engine read the metadata log (nor hold the request).
 */
export async function sessionFor(req: IncomingMessage, rt: Runtime): Promise<Session> {
  return sessionNow(req, rt);
}

/**
 * sessionFor, answered at once when no I/O is needed (no auth, the admin secret, the unauthorized role, no metadata
 * version to wait for): the GraphQL endpoints' hot path. Throws what sessionFor rejects with when it needed no I/O.
 */
export function sessionNow(req: IncomingMessage, rt: Runtime): Session | Promise<Session> {
  // A POST auth hook gets the header names as the client sent them (node lower-cases req.headers).
  return sessionNowForHeaders(rt.authConfig.authHook?.mode === 'POST' ? headersAsSent(req.rawHeaders) : req.headers, rt);
}

/** sessionFor given the headers themselves (a websocket's: its handshake's plus connection_init's). */
export async function sessionForHeaders(headers: Record<string, string | string[] | undefined>, rt: Runtime): Promise<Session> {
  return sessionNowForHeaders(headers, rt);
}

function sessionNowForHeaders(headers: Record<string, string | string[] | undefined>, rt: Runtime): Session | Promise<Session> {
  const session = resolveSessionNow(headers, rt.authConfig, rt.auth.deps);
  // Looked up case-insensitively: a POST hook's headers keep the names as sent.
  const minVersion = headerValue(headers, 'x-engine-min-metadata-version');
  if (minVersion === undefined) return session;
  return Promise.resolve(session).then(async (s) => {
    await awaitMinVersion(rt, minVersion);
    return s;
  });
}

/** rawHeaders (name, value, name, value, ...) as an object keyed by the names as sent; the last of repeated names wins, as the original. */
export function headersAsSent(raw: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) out[raw[i]] = raw[i + 1];
  return out;
}
