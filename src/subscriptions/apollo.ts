// Apollo's subscriptions-transport-ws (subprotocol `graphql-ws`), the original's protocol (SPEC-NOTES-runtime §2.2):
// connection_init → connection_ack + ka (or connection_error), ka every few seconds, start → data…/error + complete,
// stop, connection_terminate. Framing is the `ws` library's; this file is only the message layer.
import type { WebSocket } from 'ws';
import { websocketHeaders, type Session } from '../auth/session.js';
import { EngineError } from '../core/errors.js';
import { log } from '../core/log.js';
import { flatUuid } from '../core/uuid.js';
import { parseRequest, type GraphQLRequest } from '../graphql/request-body.js';
import { errorObject, startOperation, type Endpoint, type Stoppable, type WsServerContext } from './operations.js';
import type { WsConnectionLog } from './ws-log.js';

export interface ConnectionOptions {
  /** Authenticates the `connection_init` payload (with the handshake's own headers); throws EngineError. */
  authenticate(initPayload: unknown): Promise<Session>;
  /** Interval of `ka` messages, ms. */
  kaIntervalMs: number;
  /** The socket's websocket-log. */
  log: WsConnectionLog;
}

type ClientMessage =
  | { type: 'connection_init'; payload: unknown }
  | { type: 'start'; id: string; payload: GraphQLRequest; raw: unknown }
  | { type: 'stop'; id: string }
  | { type: 'connection_terminate' };

/** A client frame → message, or the reason it is not one (sent as `connection_error`). */
export function parseClientMessage(raw: string): ClientMessage | string {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch (e) {
    return `Error in $: ${(e as Error).message}`;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return 'Error in $: expected Object';
  const m = v as Record<string, unknown>;
  const id = (): string | null => (typeof m.id === 'string' ? m.id : null);
  switch (m.type) {
    case 'connection_init':
      return { type: 'connection_init', payload: m.payload };
    case 'connection_terminate':
      return { type: 'connection_terminate' };
    case 'stop': {
      const i = id();
      return i === null ? 'Error in $: key "id" not found' : { type: 'stop', id: i };
    }
    case 'start': {
      const i = id();
      if (i === null) return 'Error in $: key "id" not found';
      try {
        return { type: 'start', id: i, payload: parseRequest(m.payload, ['payload']), raw: m.payload };
      } catch (e) {
        return `Error in ${(e as EngineError).path}: ${(e as Error).message}`;
      }
    }
    default:
      return `Error in $: unknown message type: ${JSON.stringify(m.type ?? null)}`;
  }
}

interface Op {
  stopped: boolean;
  handle: Stoppable | null;
  /** Its log (the `stopped` event). */
  log: { stopped(): void };
}

/** Serves one socket until it closes. */
export function serveApollo(socket: WebSocket, ws: WsServerContext, endpoint: Endpoint, options: ConnectionOptions): void {
  let session: Session | null = null;
  let initHeaders: Record<string, string> = {};
  let initError: string | null = null;
  let expiry: NodeJS.Timeout | null = null;
  const ops = new Map<string, Op>();
  const send = (text: string): void => {
    if (socket.readyState === socket.OPEN) socket.send(text);
  };
  const sendMsg = (m: Record<string, unknown>): void => send(JSON.stringify(m));
  const ka = (): void => sendMsg({ type: 'ka' });
  ka();
  const kaTimer = setInterval(ka, options.kaIntervalMs);

  const startFailed = (id: string, message: string, complete: boolean): void => {
    const err = new EngineError('start-failed', message);
    options.log.operation(id, null, null, { type: 'proto_err', detail: message });
    sendMsg({ type: 'error', id, payload: errorObject(ws, endpoint, session, err) });
    if (complete) sendMsg({ type: 'complete', id });
  };

  const init = async (payload: unknown): Promise<void> => {
    try {
      const s = await options.authenticate(payload);
      session = s;
      initHeaders = websocketHeaders({}, payload);
      options.log.session = s;
      initError = null;
      if (expiry !== null) clearTimeout(expiry);
      // The credentials' expiry (JWT exp, auth hook Expires / max-age) ends the connection, as the original.
      if (s.expiresAt !== undefined) {
        expiry = setTimeout(() => socket.close(1000, 'session expired'), Math.min(Math.max(0, s.expiresAt - Date.now()), 2 ** 31 - 1));
      }
      sendMsg({ type: 'connection_ack' });
      ka();
    } catch (e) {
      initError = e instanceof Error ? e.message : String(e);
      if (!(e instanceof EngineError)) log.error('websocket-auth', { error: e });
      options.log.write({ type: 'conn_err', detail: initError });
      sendMsg({ type: 'connection_error', payload: initError });
    }
  };

  const start = (id: string, request: GraphQLRequest, raw: unknown): void => {
    if (session === null) {
      const why = initError === null ? 'start received before the connection is initialised' : `cannot start as connection_init failed with : ${initError}`;
      return startFailed(id, why, true);
    }
    if (ops.has(id)) return startFailed(id, `an operation already exists with this id: ${id}`, false);
    const requestId = flatUuid();
    const s = session;
    const client = { raw, headers: initHeaders };
    const idJson = JSON.stringify(id);
    const done = (): void => {
      if (ops.get(id) === op) ops.delete(id);
    };
    const sink = options.log.sink(id, requestId, request, {
      data: (text) => {
        if (!op.stopped) send(`{"type":"data","id":${idJson},"payload":${text}}`);
      },
      error: (err) => {
        if (op.stopped) return;
        const obj = errorObject(ws, endpoint, s, err);
        sendMsg({ type: 'error', id, payload: endpoint.legacy ? obj : { errors: [obj] } });
        sendMsg({ type: 'complete', id });
        done();
      },
      complete: () => {
        if (!op.stopped) sendMsg({ type: 'complete', id });
        done();
      },
    });
    const op: Op = { stopped: false, handle: null, log: sink };
    ops.set(id, op);
    void startOperation(ws, endpoint, s, request, sink, client, requestId).then((handle) => {
      if (handle === null) return;
      if (op.stopped) handle.stop();
      else {
        op.handle = handle;
        sink.started();
      }
    }, (e: unknown) => log.error('websocket-operation', { error: e }));
  };

  const stop = (id: string): void => {
    const op = ops.get(id);
    if (op === undefined) return;
    op.log.stopped();
    op.stopped = true;
    op.handle?.stop();
    ops.delete(id);
  };

  const handle = (raw: string): Promise<void> | void => {
    const m = parseClientMessage(raw);
    if (typeof m === 'string') {
      const message = `parsing ClientMessage failed: ${m}`;
      options.log.write({ type: 'conn_err', detail: message });
      return sendMsg({ type: 'connection_error', payload: message });
    }
    switch (m.type) {
      case 'connection_init':
        return init(m.payload);
      case 'start':
        return start(m.id, m.payload, m.raw);
      case 'stop':
        return stop(m.id);
      case 'connection_terminate':
        return socket.close(1000, 'client requested termination');
    }
  };

  // Messages are handled in order: a `start` sent right after `connection_init` (as clients do) waits for the
  // authentication to finish. Only init is awaited; operations run concurrently once started.
  let queue: Promise<void> = Promise.resolve();
  socket.on('message', (data, isBinary) => {
    const raw = isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString();
    queue = queue.then(() => handle(raw)).catch((e: unknown) => log.error('websocket-message', { error: e }));
  });

  socket.on('close', () => {
    clearInterval(kaTimer);
    if (expiry !== null) clearTimeout(expiry);
    for (const id of [...ops.keys()]) stop(id);
  });
}
