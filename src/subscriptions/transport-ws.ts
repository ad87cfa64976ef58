// The `graphql-transport-ws` protocol (the graphql-ws library's), served by that library's own server (makeServer):
// we only plug our session, validation and execution in. Pre-execution errors become the protocol's `error`
// message; results (live ones too) are `next` messages whose payload is our response JSON as it is.
import { GraphQLError, GraphQLSchema, parse, type ExecutionArgs } from 'graphql';
import { makeServer, type Context } from 'graphql-ws';
import type { WebSocket } from 'ws';
import { websocketHeaders, type Session } from '../auth/session.js';
import { EngineError } from '../core/errors.js';
import { log } from '../core/log.js';
import { flatUuid } from '../core/uuid.js';
import { parseRequest } from '../graphql/request-body.js';
import { errorObject, startOperation, type Endpoint, type Handshake, type Stoppable, type WsServerContext } from './operations.js';
import { errorDetail, type WsConnectionLog } from './ws-log.js';

export interface TransportWsOptions {
  /** Authenticates the `connection_init` payload (with the handshake's own headers); throws EngineError. */
  authenticate(handshake: Handshake, initPayload: unknown): Promise<Session>;
  endpointOf(handshake: Handshake): Endpoint;
}

interface Extra {
  socket: WebSocket;
  request: Handshake;
  /** The socket's websocket-log. */
  log: WsConnectionLog;
  session?: Session;
  expiry?: NodeJS.Timeout;
}

type Result = Record<string, unknown>;

/** Results pushed by the engine, pulled by graphql-ws (`for await`); `return()` (client `complete`) stops the operation. */
class ResultQueue implements AsyncGenerator<Result> {
  private items: Result[] = [];
  private waiting: ((r: IteratorResult<Result>) => void) | null = null;
  private ended = false;
  handle: Stoppable | null = null;
  /** Called when the client ends the operation (`complete`) or the socket closes. */
  onReturn: (() => void) | null = null;

  push(r: Result): void {
    if (this.ended) return;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w({ value: r, done: false });
    } else this.items.push(r);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.waiting && this.items.length === 0) {
      const w = this.waiting;
      this.waiting = null;
      w({ value: undefined, done: true });
    }
  }

  next(): Promise<IteratorResult<Result>> {
    const item = this.items.shift();
    if (item !== undefined) return Promise.resolve({ value: item, done: false });
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<Result>> {
    this.onReturn?.();
    this.onReturn = null;
    this.handle?.stop();
    this.items = [];
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(e: unknown): Promise<IteratorResult<Result>> {
    void this.return();
    return Promise.reject(e);
  }

  [Symbol.asyncIterator](): AsyncGenerator<Result> {
    return this;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.return();
  }
}

// graphql-ws only looks at the operation type of the document we hand it (to call `execute` or `subscribe`), and
// at nothing else: validation and execution are ours.
const EMPTY_SCHEMA = new GraphQLSchema({});
const QUERY_DOC = parse('query { __typename }');
const SUBSCRIPTION_DOC = parse('subscription { __typename }');

/** A graphql-ws server for our engine; `opened` per accepted socket. */
export function transportWsServer(ws: WsServerContext, options: TransportWsOptions): ReturnType<typeof makeServer<Record<string, unknown> | undefined, Extra>> {
  const run = (args: ExecutionArgs): ResultQueue => args.contextValue as ResultQueue;
  return makeServer<Record<string, unknown> | undefined, Extra>({
    onConnect: async (ctx: Context<Record<string, unknown> | undefined, Extra>) => {
      const extra = ctx.extra;
      try {
        const session = await options.authenticate(extra.request, ctx.connectionParams);
        extra.session = session;
        extra.log.session = session;
        if (session.expiresAt !== undefined) {
          const ms = Math.min(Math.max(0, session.expiresAt - Date.now()), 2 ** 31 - 1);
          extra.expiry = setTimeout(() => extra.socket.close(4403, 'Forbidden'), ms);
        }
        return true;
      } catch (e) {
        if (!(e instanceof EngineError)) log.error('websocket-auth', { error: e });
        extra.log.write({ type: 'conn_err', detail: e instanceof Error ? e.message : String(e) });
        return false;
      }
    },
    onClose: (ctx) => {
      if (ctx.extra.expiry) clearTimeout(ctx.extra.expiry);
    },
    onSubscribe: async (ctx, id, payload) => {
      const session = ctx.extra.session!;
      const endpoint = options.endpointOf(ctx.extra.request);
      const queue = new ResultQueue();
      let early: EngineError | null = null;
      let started = false;
      const toError = (err: EngineError): GraphQLError => {
        const o = errorObject(ws, endpoint, session, err);
        return new GraphQLError(String(o.message ?? o.error), { extensions: (o.extensions as Record<string, unknown>) ?? { path: o.path, code: o.code } });
      };
      try {
        const request = parseRequest(payload);
        const requestId = flatUuid();
        let live = false;
        const sink = ctx.extra.log.sink(id, requestId, request, {
          data: (text) => {
            live = true;
            queue.push(JSON.parse(text) as Result);
          },
          error: (err) => {
            if (!started && !live) early = err;
            else {
              // A live query that no longer validates after a metadata change: a last result with the error.
              queue.push({ errors: [toError(err).toJSON()] });
              queue.end();
            }
          },
          complete: () => queue.end(),
        });
        queue.handle = await startOperation(ws, endpoint, session, request, sink, { raw: payload, headers: websocketHeaders({}, ctx.connectionParams) }, requestId);
        if (queue.handle !== null) {
          sink.started();
          queue.onReturn = () => sink.stopped();
        }
      } catch (e) {
        early = e instanceof EngineError ? e : new EngineError('unexpected', 'an unexpected error occurred', { status: 500 });
        ctx.extra.log.operation(id, null, null, { type: 'query_err', detail: errorDetail(early) });
      }
      started = true;
      if (early !== null) {
        queue.return();
        return [toError(early)];
      }
      return { schema: EMPTY_SCHEMA, document: queue.handle !== null ? SUBSCRIPTION_DOC : QUERY_DOC, contextValue: queue };
    },
    execute: run,
    subscribe: run,
    // Our results are already formatted GraphQL responses (errors as plain objects): send them as they are.
    onNext: (_ctx, _id, _payload, _args, result) => result as never,
  });
}
