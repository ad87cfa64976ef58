// Websocket test helpers shared by the subscription, action and remote-schema suites: a raw client (every frame
// received is queued; `next(pred)` waits for the first matching one), graphql-ws library clients, an engine with
// fast live queries and its tables, and a wait for the live-query counters.
import WebSocket from 'ws';
import { createClient, type Client, type ClientOptions } from 'graphql-ws';
import { queryOk, startTestEngine, type TestEngine, type TestEngineOptions } from './engine.js';

/** The ws:// address of `path` on the engine at `url` (http://...). */
export const wsUrl = (url: string, path = '/v1/graphql'): string => url.replace(/^http/, 'ws') + path;

/** A graphql-ws (graphql-transport-ws) library client on `path`, sending `headers` in connectionParams. */
export const graphqlWsClient = (
  url: string, headers: Record<string, string>, options: Omit<ClientOptions, 'url'> & { path?: string } = {},
): Client => {
  const { path, ...rest } = options;
  return createClient({ url: wsUrl(url, path), webSocketImpl: WebSocket, connectionParams: { headers }, ...rest });
};

/**
 * An engine for subscription tests: an admin secret, live queries polled every 100 ms (unless `options` says
 * otherwise), and `setup` (a bulk's args: tables, tracking, permissions) run as admin before any test.
 */
export async function startLiveEngine(secret: string, setup: unknown[], options: TestEngineOptions = {}): Promise<TestEngine> {
  const e = await startTestEngine({ adminSecret: secret, liveQueries: { batchSize: 100, refetchInterval: 100 }, ...options });
  try {
    await queryOk(e, { type: 'bulk', args: setup }, { 'x-engine-admin-secret': secret });
  } catch (err) {
    await e.close();
    throw err;
  }
  return e;
}

/** Waits until `cond` holds (polling every 20 ms), false after `ms` (generous: a loaded machine is slow, not wrong). */
export async function until(cond: () => boolean, ms = 30_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return cond();
}

export type Msg = { type: string; id?: string; payload?: any };

export class WsClient {
  readonly messages: Msg[] = [];
  private waiters: Array<{ pred: (m: Msg) => boolean; resolve: (m: Msg) => void }> = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const m = JSON.parse(String(data)) as Msg;
      const w = this.waiters.find((x) => x.pred(m));
      if (w) {
        this.waiters = this.waiters.filter((x) => x !== w);
        w.resolve(m);
      } else this.messages.push(m);
    });
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  }

  /** Opens a socket on `path` of the engine at `url` (http://...), asking for `protocol` (none by default). */
  static open(url: string, path = '/v1/graphql', protocol?: string, headers: Record<string, string> = {}): Promise<WsClient> {
    const socket = new WebSocket(wsUrl(url, path), protocol ? [protocol] : [], { headers });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new WsClient(socket)));
      socket.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => reject(Object.assign(new Error(`upgrade refused: ${res.statusCode} ${body}`), { status: res.statusCode, body })));
      });
      socket.once('error', reject);
    });
  }

  /** Opens a socket (see open) and sends connection_init with `headers`, waiting for the ack. */
  static async connect(url: string, headers: Record<string, string> = {}, path = '/v1/graphql', protocol?: string): Promise<WsClient> {
    const c = await WsClient.open(url, path, protocol);
    try {
      await c.init(headers);
    } catch (e) {
      c.close();
      throw e;
    }
    return c;
  }

  send(m: unknown): void {
    this.socket.send(typeof m === 'string' ? m : JSON.stringify(m));
  }

  /**
   * The first queued or future message matching `pred` (ka messages are skipped unless asked for). The deadline only
   * catches a hang: a loaded machine is slow, not wrong (absence is checked with `quiet`).
   */
  next(pred: (m: Msg) => boolean = (m) => m.type !== 'ka', timeoutMs = 30_000): Promise<Msg> {
    const i = this.messages.findIndex(pred);
    if (i >= 0) return Promise.resolve(this.messages.splice(i, 1)[0]);
    return new Promise((resolve, reject) => {
      const entry = { pred, resolve: (m: Msg) => (clearTimeout(timer), resolve(m)) };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== entry);
        reject(new Error(`no matching message within ${timeoutMs} ms; queued: ${JSON.stringify(this.messages.filter((m) => m.type !== 'ka'))}`));
      }, timeoutMs);
      this.waiters.push(entry);
    });
  }

  /** The next message for operation `id`. */
  nextFor(id: string, timeoutMs = 30_000): Promise<Msg> {
    return this.next((m) => m.id === id, timeoutMs);
  }

  /** Messages for `id` (or any non-ka message) that arrive within `ms`. */
  async quiet(ms: number, id?: string): Promise<Msg[]> {
    await new Promise((r) => setTimeout(r, ms));
    const got = this.messages.filter((m) => m.type !== 'ka' && (id === undefined || m.id === id));
    for (const m of got) this.messages.splice(this.messages.indexOf(m), 1);
    return got;
  }

  /** connection_init with these headers, then the ack. */
  async init(headers: Record<string, string> = {}): Promise<void> {
    this.send({ type: 'connection_init', payload: { headers } });
    const m = await this.next((x) => x.type === 'connection_ack' || x.type === 'connection_error');
    if (m.type !== 'connection_ack') throw new Error(`init failed: ${JSON.stringify(m)}`);
  }

  close(): void {
    this.socket.close();
  }
}
