// Websockets on the HTTP server's port: the upgrade of /v1/graphql, /v1alpha1/graphql and /v1beta1/relay (any other
// path: 404), the protocol chosen by Sec-WebSocket-Protocol (`graphql-transport-ws`, else Apollo's `graphql-ws`,
// also when none is named, as the original), dead peers found by ping/pong, live queries re-validated on every
// metadata change, and every socket closed (1012) on shutdown.
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Session } from '../auth/session.js';
import { EngineError, metadataErrorBody } from '../core/errors.js';
import { log } from '../core/log.js';
import { serveApollo } from './apollo.js';
import { revalidateAll, type Endpoint, type Handshake, type WsServerContext } from './operations.js';
import { transportWsServer } from './transport-ws.js';
import { errorDetail, WsConnectionLog } from './ws-log.js';

export type { Handshake };

export const TRANSPORT_WS = 'graphql-transport-ws';
export const APOLLO_WS = 'graphql-ws';

const ENDPOINTS: Record<string, Endpoint> = {
  '/v1/graphql': { legacy: false, relay: false },
  '/v1alpha1/graphql': { legacy: true, relay: false },
  '/v1beta1/relay': { legacy: false, relay: true },
};

/** Frames larger than this close the socket with 1009 (the websocket protocol's "message too big"). */
const MAX_PAYLOAD = 16 * 1024 * 1024;

export interface WebsocketOptions {
  /** Checks the handshake (Origin against CORS): the error to refuse it with, or null. */
  checkHandshake(request: http.IncomingMessage): EngineError | null;
  /** Handshake headers + `connection_init` payload → session (the same code as HTTP); throws EngineError. */
  authenticate(handshake: Handshake, initPayload: unknown): Promise<Session>;
  /** Whether the GraphQL API is served at all (--enabled-apis). */
  enabled: boolean;
  /** Apollo `ka` interval (ms). */
  kaIntervalMs?: number;
  /** A peer that has not answered a ping within this long (ms) is dropped and its live queries released. */
  pingIntervalMs?: number;
  /**
   * Open sockets past which an upgrade is refused with a 503 (src/core/open-files.ts: what the open-files limit
   * leaves once the pools have their connections); default: no bound.
   */
  maxConnections?: number;
}

export interface WebsocketTransport {
  /** Open sockets. */
  readonly connections: number;
  /** The live-query pollers (their counters). */
  readonly live: WsServerContext['live'];
  close(): void;
}

const ignoreError = (): void => undefined;

const pathOf = (url: string | undefined): string => (url ?? '/').split('?')[0];

export const endpointOf = (request: Pick<Handshake, 'url'>): Endpoint => ENDPOINTS[pathOf(request.url)] ?? ENDPOINTS['/v1/graphql'];

function refuse(socket: Duplex, status: number, reason: string, body: unknown): void {
  const text = JSON.stringify(body);
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
}

/**
 * The error to refuse an upgrade with while `open` sockets fill the capacity, else null; a warning is logged once
 * each time the capacity is reached (the refusals themselves are websocket-log `rejected` lines).
 */
function capacityCheck(max: number): { check(open: number): EngineError | null } {
  let warned = false;
  return {
    check(open) {
      if (open < max) {
        warned = false;
        return null;
      }
      if (!warned) log.warn('websocket-capacity', { message: `${open} websockets open: new ones are refused until some close (the open-files limit leaves room for ${max})` });
      warned = true;
      return new EngineError('unexpected', `too many websocket connections (${max}): the server's open-files limit is reached`, { status: 503 });
    },
  };
}

export function attachWebsockets(server: http.Server, ws: WsServerContext, options: WebsocketOptions): WebsocketTransport {
  const kaIntervalMs = options.kaIntervalMs ?? 5000;
  const pingIntervalMs = options.pingIntervalMs ?? 10_000;
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_PAYLOAD,
    perMessageDeflate: false,
    handleProtocols: (protocols) => (protocols.has(APOLLO_WS) ? APOLLO_WS : protocols.has(TRANSPORT_WS) ? TRANSPORT_WS : false),
  });
  const modern = transportWsServer(ws, { authenticate: options.authenticate, endpointOf });

  wss.on('connection', (socket: WebSocket, request: http.IncomingMessage) => {
    socket.on('error', (e) => log.debug('websocket-error', { error: e }));
    const handshake: Handshake = { url: request.url, headers: request.headers, rawHeaders: request.rawHeaders };
    const connLog = new WsConnectionLog();
    connLog.write({ type: 'accepted' });
    // Dead peers: no pong since the last ping → terminated (its 'close' releases its live queries). A tick that
    // comes late means this process was held up (a long task, a starved CPU): timers run before pending socket
    // reads, so the peer's pong may be waiting unread; it gets another ping instead of being dropped.
    let alive = true;
    let pingedAt = 0;
    socket.on('pong', () => (alive = true));
    const pinger = setInterval(() => {
      const now = Date.now();
      if (!alive && now - pingedAt < pingIntervalMs * 1.5) return void socket.terminate();
      alive = false;
      pingedAt = now;
      socket.ping();
    }, pingIntervalMs);
    socket.once('close', () => {
      clearInterval(pinger);
      connLog.write({ type: 'closed' });
    });
    const endpoint = endpointOf(handshake);
    if (socket.protocol === TRANSPORT_WS) {
      const closed = modern.opened(
        {
          protocol: socket.protocol,
          send: (data) => {
            if (socket.readyState === socket.OPEN) socket.send(data);
          },
          close: (code, reason) => socket.close(code, reason),
          onMessage: (cb) =>
            socket.on('message', (data) => {
              cb(String(data)).catch((e: unknown) => {
                log.error('websocket-internal-error', { error: e });
                socket.close(4500, 'Internal server error');
              });
            }),
        },
        { socket, request: handshake, log: connLog },
      );
      socket.once('close', (code, reason) => void closed(code, String(reason)));
    } else {
      serveApollo(socket, ws, endpoint, { authenticate: (payload) => options.authenticate(handshake, payload), kaIntervalMs, log: connLog });
    }
  });

  const full = capacityCheck(options.maxConnections ?? Infinity);
  const onUpgrade = (request: http.IncomingMessage, socket: Duplex, head: Buffer): void => {
    // A function of its own, not a closure: one made here would share this call's context, and so keep `request`
    // alive as long as the socket.
    socket.on('error', ignoreError);
    if (!options.enabled || ENDPOINTS[pathOf(request.url)] === undefined) {
      const notFound = { path: '$', error: 'resource does not exist', code: 'not-found' };
      new WsConnectionLog().write({ type: 'rejected', detail: notFound });
      return refuse(socket, 404, 'Not Found', notFound);
    }
    const bad = options.checkHandshake(request) ?? full.check(wss.clients.size);
    if (bad !== null) {
      new WsConnectionLog().write({ type: 'rejected', detail: errorDetail(bad) });
      return refuse(socket, bad.status, bad.status === 503 ? 'Service Unavailable' : 'Bad Request', metadataErrorBody(bad, false));
    }
    wss.handleUpgrade(request, socket, head, (s) => wss.emit('connection', s, request));
  };
  server.on('upgrade', onUpgrade);

  // Metadata changes: live queries continue on the new schema, or end with the error (one pass at a time).
  let pass: Promise<void> = Promise.resolve();
  const unlisten = ws.store.onSwap(() => {
    pass = pass.then(() => revalidateAll(ws)).catch((e: unknown) => log.error('live-query-revalidate', { error: e }));
  });

  return {
    get connections() {
      return wss.clients.size;
    },
    live: ws.live,
    close() {
      unlisten();
      server.off('upgrade', onUpgrade);
      for (const s of wss.clients) s.close(1012, 'shutting server down');
      ws.live.close();
      wss.close();
    },
  };
}
