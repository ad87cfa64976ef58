// Websocket transports on the HTTP server (src/subscriptions): the handshake's Origin checked against CORS, and the
// session resolved exactly as for an HTTP request (sessionFor) from the handshake's headers plus `connection_init`'s
// (for a POST auth hook, with their names as the client sent them, as an HTTP request's).
import type http from 'node:http';
import { websocketHeaders } from '../auth/session.js';
import { isApiEnabled } from '../config/config.js';
import { EngineError } from '../core/errors.js';
import { LiveQueries } from '../subscriptions/poller.js';
import { attachWebsockets, type Handshake, type WebsocketTransport } from '../subscriptions/server.js';
import { corsPolicy } from './cors.js';
import type { Runtime } from './runtime.js';
import { headersAsSent, sessionForHeaders } from './session.js';

export interface WebsocketTimings {
  kaIntervalMs?: number;
  pingIntervalMs?: number;
  /** Open sockets past which upgrades are refused (the engine gives what the open-files limit leaves: websocketCapacity); default: no bound. */
  maxConnections?: number;
}

/** The handshake's own headers, which the original leaves out of a websocket's headers (lower-cased names). */
const HANDSHAKE_ONLY = new Set(['sec-websocket-key', 'sec-websocket-version', 'upgrade', 'connection']);

/**
 * The handshake's headers for auth, without the handshake's own: for a POST auth hook with their names as sent (as
 * an HTTP request's, see sessionFor); the cookie dropped when CORS is disabled, unless --ws-read-cookie (as the original).
 */
function handshakeHeaders(req: Handshake, rt: Runtime, keepNames: boolean): Record<string, string | string[] | undefined> {
  const dropCookie = req.headers.cookie !== undefined && rt.config.disableCors && !rt.config.wsReadCookie && req.headers.origin !== undefined;
  const sent = keepNames ? headersAsSent(req.rawHeaders) : req.headers;
  const out: Record<string, string | string[] | undefined> = {};
  for (const name in sent) {
    const lower = name.toLowerCase();
    if (!HANDSHAKE_ONLY.has(lower) && !(dropCookie && lower === 'cookie')) out[name] = sent[name];
  }
  return out;
}

export function attachWebsocketTransport(server: http.Server, rt: Runtime, timings: WebsocketTimings = {}): WebsocketTransport {
  const allowed = corsPolicy(rt.config);
  const live = new LiveQueries({
    pool: rt.pool, reads: rt.reads, preparedStatements: rt.config.usePreparedStatements, batchSize: rt.config.liveQueries.batchSize,
    intervalMs: rt.config.liveQueries.refetchInterval, connectionRetries: rt.config.connectionRetries,
  });
  return attachWebsockets(server, { pool: rt.pool, reads: rt.reads, store: rt.store, features: rt.features, config: rt.config, live, subscriptions: new Set() }, {
    enabled: isApiEnabled(rt.config, 'graphql'),
    ...timings,
    checkHandshake: (req) => {
      const origin = req.headers.origin;
      if (origin === undefined || rt.config.disableCors || allowed(origin) !== null) return null;
      return new EngineError('access-denied', 'received origin header does not match configured CORS domains');
    },
    authenticate: (req, payload) => {
      const keepNames = rt.authConfig.authHook?.mode === 'POST';
      return sessionForHeaders(websocketHeaders(handshakeHeaders(req, rt, keepNames), payload, keepNames), rt);
    },
  });
}
