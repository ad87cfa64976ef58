// Websocket transports on the HTTP server (src/subscriptions): the handshake's Origin checked against CORS, and the
// session resolved exactly as for an HTTP request (sessionFor) from the handshake's headers plus `connection_init`'s.
import type http from 'node:http';
import { websocketHeaders } from '../auth/session.js';
import { isApiEnabled } from '../config.js';
import { EngineError } from '../core/errors.js';
import { LiveQueries } from '../subscriptions/poller.js';
import { attachWebsockets, type WebsocketTransport } from '../subscriptions/server.js';
import { corsPolicy } from './cors.js';
import type { Runtime } from './runtime.js';
import { sessionForHeaders } from './session.js';

export interface WebsocketTimings {
  kaIntervalMs?: number;
  pingIntervalMs?: number;
}

/** The handshake's headers for auth: its cookie is dropped when CORS is disabled, unless --ws-read-cookie (as the original). */
function handshakeHeaders(req: http.IncomingMessage, rt: Runtime): http.IncomingHttpHeaders {
  if (req.headers.cookie === undefined || !rt.config.disableCors || rt.config.wsReadCookie || req.headers.origin === undefined) return req.headers;
  const { cookie: _dropped, ...rest } = req.headers;
  return rest;
}

export function attachWebsocketTransport(server: http.Server, rt: Runtime, timings: WebsocketTimings = {}): WebsocketTransport {
  const allowed = corsPolicy(rt.config);
  const live = new LiveQueries({
    pool: rt.pool, batchSize: rt.config.liveQueries.batchSize, intervalMs: rt.config.liveQueries.refetchInterval, connectionRetries: rt.config.connectionRetries,
  });
  return attachWebsockets(server, { pool: rt.pool, store: rt.store, extensions: rt.extensions, config: rt.config, live, subscriptions: new Set() }, {
    enabled: isApiEnabled(rt.config, 'graphql'),
    ...timings,
    checkHandshake: (req) => {
      const origin = req.headers.origin;
      if (origin === undefined || rt.config.disableCors || allowed(origin) !== null) return null;
      return new EngineError('access-denied', 'received origin header does not match configured CORS domains');
    },
    authenticate: (req, payload) => sessionForHeaders(websocketHeaders(handshakeHeaders(req, rt), payload), rt),
  });
}
