// The single place where a request becomes a Session (switch to src/auth's resolveSession here when it lands).
// Until then: no-auth mode, or admin-secret mode with the optional unauthorized role.
import type { IncomingHttpHeaders } from 'node:http';
import { EngineError } from '../core/errors.js';
import { sessionFromHeaders, type Session } from '../auth/session.js';
import type { ServerConfig } from '../config.js';

export async function sessionFor(headers: IncomingHttpHeaders, config: ServerConfig): Promise<Session> {
  const session = sessionFromHeaders(headers);
  if (config.adminSecret === undefined) return session;
  const sent = headers['x-engine-admin-secret'] ?? headers['x-engine-access-key'];
  if (sent === undefined) {
    if (config.unauthorizedRole !== undefined) return { role: config.unauthorizedRole, variables: { ...session.variables, 'x-engine-role': config.unauthorizedRole } };
    throw new EngineError('access-denied', 'x-engine-admin-secret/x-engine-access-key required, but not found', { status: 401 });
  }
  if (sent !== config.adminSecret)
    throw new EngineError('access-denied', 'invalid x-engine-admin-secret/x-engine-access-key', { status: 401 });
  return session;
}

/** Whether error bodies for this session may carry `internal`. */
export const showInternal = (session: Session | null, config: ServerConfig): boolean =>
  config.devMode || (session?.role === 'admin' && config.adminInternalErrors);
