// What both websocket protocols do with one operation: a query or mutation runs once (as over HTTP); a subscription
// becomes a live query in the multiplexed pollers and is re-validated when the metadata changes.
// A request selecting remote-schema fields takes the same path as over HTTP (src/remote through the executor's
// remote hook): its answer is one `data` result (a remote failure included, as the original), without Set-Cookie.
// Errors found before execution (parse, validation, permissions, variables) end the operation with `sink.error`;
// a query's or mutation's execution error is a result with HTTP's body (`{"errors":[...]}`; on /v1alpha1
// `{"data":null,"errors":[...]}`), a live query's is `{"data":null,"errors":[...]}` (SPEC-NOTES-runtime §2.2).
import type http from 'node:http';
import type pg from 'pg';
import type { Session } from '../auth/session.js';
import type { EngineState } from '../cache/state.js';
import type { ServerConfig } from '../config/config.js';
import { showInternal } from '../config/internal-errors.js';
import { EngineError, graphqlErrorObject, isEngineError, metadataErrorBody } from '../core/errors.js';
import { log } from '../core/log.js';
import { flatUuid } from '../core/uuid.js';
import { graphqlExecuteContext } from '../execute/graphql.js';
import { relayExecuteContext } from '../execute/relay.js';
import type { GraphQLRequest } from '../graphql/request-body.js';
import { planRequest } from '../execute/run.js';
import { remoteRequest } from '../execute/answer.js';
import type { ExecuteContext } from '../execute/context.js';
import type { StateStore } from '../sync/state-store.js';
import type { ExecutorFeatures, ReadRouting } from '../execute/features.js';
import { MIN_LSN_HEADER } from '../execute/graphql.js';
import { prepareLive, type PreparedLive } from './live-plan.js';
import type { LiveHandle, LiveQueries, LiveSink } from './poller.js';

/** The engine as the websocket transports see it. */
export interface WsServerContext {
  pool: pg.Pool;
  store: StateStore;
  /** What actions and remote schemas add to the role schemas and the executor (src/features.ts). */
  features: ExecutorFeatures;
  /** Read replicas (src/replicas): where queries and live-query polls run. */
  reads?: ReadRouting;
  config: ServerConfig;
  live: LiveQueries;
  /** Live subscriptions of every connection (re-validated on a metadata change). */
  subscriptions: Set<LiveSubscription>;
}

/**
 * What an open socket keeps of its handshake request (for `connection_init`'s authentication and the endpoint):
 * not the IncomingMessage itself, a stream with its own state that 20,000 sockets would keep alive for nothing.
 */
export type Handshake = Pick<http.IncomingMessage, 'url' | 'headers' | 'rawHeaders'>;

/** Which endpoint the socket was opened on: `/v1alpha1/graphql` (legacy error encoding) or `/v1beta1/relay`. */
export interface Endpoint {
  legacy: boolean;
  relay: boolean;
}

export interface OperationSink {
  /** A result: response JSON text. */
  data(text: string): void;
  /** A pre-execution error (or a live query that no longer validates): the operation is over. */
  error(err: EngineError): void;
  /** A query or mutation has sent its result. */
  complete(): void;
}

/** What the client sent besides the parsed request. */
export interface ClientInput {
  /** The operation's payload as sent (forwarded to a remote schema as it is). */
  raw: unknown;
  /**
   * `connection_init`'s `payload.headers`: the client headers of the socket's operations (actions' and remote
   * schemas' forward_client_headers), as the original's websocket transport keeps them.
   */
  headers: Record<string, string>;
}

export interface Stoppable {
  stop(): void;
}

/** An error object as the endpoint encodes it: `{message, extensions}`, or `{path, error, code}` on /v1alpha1. */
export function errorObject(ws: WsServerContext, endpoint: Endpoint, session: Session | null, err: EngineError): Record<string, unknown> {
  const internal = session !== null && showInternal(session, ws.config);
  return endpoint.legacy ? metadataErrorBody(err, internal) : graphqlErrorObject(err, internal);
}

const asEngineError = (e: unknown): EngineError => {
  if (isEngineError(e)) return e;
  log.error('websocket-internal-error', { error: e });
  return new EngineError('unexpected', 'an unexpected error occurred', { status: 500, internal: { message: e instanceof Error ? e.message : String(e) } });
};

function executeContext(
  ws: WsServerContext, endpoint: Endpoint, session: Session, state: EngineState, requestId: string, clientHeaders?: Record<string, string>, minLsn = 0,
): ExecuteContext {
  const ctx = { pool: ws.pool, reads: ws.reads, minLsn, state, features: ws.features, session, config: ws.config, requestId, clientHeaders };
  return endpoint.relay ? relayExecuteContext(ctx) : graphqlExecuteContext(ctx);
}

/**
 * A remote's answer goes into a websocket frame as it is, so it must be a JSON object (over HTTP any body is passed
 * on as received); anything else is an execution error.
 */
function jsonObjectAnswer(text: string): string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    v = undefined;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new EngineError('unexpected', 'invalid JSON from a remote schema', { status: 500 });
  return text;
}

/**
 * The WAL position an operation's reads must see (read replicas): `x-engine-min-lsn` in the operation's
 * `extensions`, else among connection_init's headers; 0 without replicas. Throws EngineError when malformed.
 */
function minLsnOf(ws: WsServerContext, client: ClientInput): number {
  if (ws.reads === undefined) return 0;
  const ext = (client.raw as { extensions?: Record<string, unknown> } | null)?.extensions;
  const own = ext !== null && typeof ext === 'object' ? ext[MIN_LSN_HEADER] : undefined;
  return ws.reads.minLsn(typeof own === 'string' ? own : client.headers[MIN_LSN_HEADER]);
}

/**
 * Starts one operation; resolves to a handle for a live subscription, null when it is already over. `requestId` is
 * the one its query-log and websocket-log lines carry.
 */
export async function startOperation(
  ws: WsServerContext, endpoint: Endpoint, session: Session, request: GraphQLRequest, sink: OperationSink, client: ClientInput,
  requestId: string = flatUuid(),
): Promise<Stoppable | null> {
  let state: EngineState;
  let planned;
  let minLsn: number;
  try {
    if (!ws.store.ready) throw new EngineError('unexpected', ws.store.problem ?? 'metadata not loaded yet', { status: 500 });
    state = ws.store.get();
    minLsn = minLsnOf(ws, client);
    const ec = executeContext(ws, endpoint, session, state, requestId, client.headers, minLsn);
    // A subscription to a remote field throws here (not-supported, before execution, as the original).
    const viaRemote = remoteRequest(ec, request, client.raw);
    planned = viaRemote ? { operation: 'query' as const, run: async () => jsonObjectAnswer(await viaRemote) } : await planRequest(ec, request);
  } catch (e) {
    sink.error(asEngineError(e));
    return null;
  }
  if (planned.operation === 'subscription') {
    const sub = new LiveSubscription(ws, endpoint, session, request, sink, requestId, minLsn);
    try {
      await sub.start(state);
    } catch (e) {
      sink.error(asEngineError(e));
      return null;
    }
    return sub;
  }
  let text: string;
  try {
    text = await planned.run();
  } catch (e) {
    // /v1/graphql: the same body as over HTTP (what the original's tests expect over websockets too); /v1alpha1:
    // with `"data": null`, as the original sends an execution error there.
    const errors = [errorObject(ws, endpoint, session, asEngineError(e))];
    text = JSON.stringify(endpoint.legacy ? { data: null, errors } : { errors });
  }
  sink.data(text);
  sink.complete();
  return null;
}

/**
 * One live query: its poller slot, and what it was prepared from (to re-prepare it on a new state). It is its own
 * LiveSink (no closures per subscriber): results go to the operation's sink as they are, an execution error as
 * `{"data":null,"errors":[...]}`.
 */
export class LiveSubscription implements Stoppable, LiveSink {
  private handle: LiveHandle | null = null;
  private prepared: PreparedLive | null = null;
  private stopped = false;

  constructor(
    private readonly ws: WsServerContext,
    private readonly endpoint: Endpoint,
    private readonly session: Session,
    private readonly request: GraphQLRequest,
    private readonly sink: OperationSink,
    private readonly requestId: string = flatUuid(),
    /** The WAL position its results must reflect (x-engine-min-lsn). */
    private readonly minLsn = 0,
  ) {}

  async start(state: EngineState): Promise<void> {
    const p = await prepareLive(executeContext(this.ws, this.endpoint, this.session, state, this.requestId), this.request);
    if (this.stopped) return;
    this.attach(p);
    this.ws.subscriptions.add(this);
  }

  data(text: string): void {
    this.sink.data(text);
  }

  error(err: EngineError): void {
    this.sink.data(JSON.stringify({ data: null, errors: [errorObject(this.ws, this.endpoint, this.session, err)] }));
  }

  private attach(p: PreparedLive): void {
    const old = this.handle;
    this.handle = this.ws.live.add(p.plan, p.params, this, old?.lastHash ?? null, this.minLsn);
    this.prepared = p;
    old?.stop();
  }

  stop(): void {
    this.stopped = true;
    this.handle?.stop();
    this.handle = null;
    this.ws.subscriptions.delete(this);
  }

  /** A new state: continue on it (moving to another poller if the statement changed), or end with the error. */
  async revalidate(state: EngineState): Promise<void> {
    if (this.stopped) return;
    let p: PreparedLive;
    try {
      p = await prepareLive(executeContext(this.ws, this.endpoint, this.session, state, this.requestId), this.request);
    } catch (e) {
      if (this.stopped) return;
      this.stop();
      this.sink.error(asEngineError(e));
      return;
    }
    if (this.stopped) return;
    if (this.prepared && p.plan.text === this.prepared.plan.text && p.params === this.prepared.params) return;
    this.attach(p);
  }
}

/** Re-validates every live subscription against the store's new state. */
export async function revalidateAll(ws: WsServerContext): Promise<void> {
  if (ws.subscriptions.size === 0 || !ws.store.ready) return;
  const state = ws.store.get();
  for (const s of [...ws.subscriptions]) await s.revalidate(state);
}
