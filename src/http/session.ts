// The single place where a request becomes a Session: src/auth's resolveSession with this server's auth settings.
import type { IncomingHttpHeaders } from 'node:http';
import { resolveSession } from '../auth/resolve.js';
import type { Session } from '../auth/session.js';
import type { ServerConfig } from '../config.js';
import type { Runtime } from './runtime.js';
import { awaitMinVersion } from './request-common.js';

/**
 * Also where `x-engine-min-metadata-version` is waited for: only once the request is authenticated, so bad
 * credentials never make the engine read the metadata log (nor hold the request).
 */
export function sessionFor(headers: IncomingHttpHeaders, rt: Runtime): Promise<Session> {
  const session = resolveSession(headers, rt.authConfig, rt.auth.deps);
  const minVersion = headers['x-engine-min-metadata-version'];
  if (minVersion === undefined) return session;
  return session.then(async (s) => {
    await awaitMinVersion(rt, typeof minVersion === 'string' ? minVersion : (minVersion[0] ?? ''));
    return s;
  });
}

/** Whether error bodies for this session may carry `internal`. */
export const showInternal = (session: Session | null, config: ServerConfig): boolean =>
  config.devMode || (session?.role === 'admin' && config.adminInternalErrors);
