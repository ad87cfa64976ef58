// The single place where a request becomes a Session: src/auth's resolveSession with this server's auth settings.
import type { IncomingHttpHeaders } from 'node:http';
import { resolveSession } from '../auth/resolve.js';
import type { Session } from '../auth/session.js';
import type { ServerConfig } from '../config.js';
import type { Runtime } from './runtime.js';

export function sessionFor(headers: IncomingHttpHeaders, rt: Runtime): Promise<Session> {
  return resolveSession(headers, rt.authConfig, rt.auth.deps);
}

/** Whether error bodies for this session may carry `internal`. */
export const showInternal = (session: Session | null, config: ServerConfig): boolean =>
  config.devMode || (session?.role === 'admin' && config.adminInternalErrors);
