// The engine's one HTTP client: a JSON body POSTed over undici's dispatcher (keep-alive connection pools per origin,
// http and https alike), for action handlers, remote schemas and event deliveries (and scheduled ones). undici
// rather than node:http's client: the same bare proxy spends 15-24 µs less CPU per call through it (bench/actions.ts,
// its two floors). An answer is the raw status, headers (in the order received, as the original reports them in
// `internal`) and body text; HTTP/1.0 servers that answer without a Content-Length and close the connection are
// read to the end. The whole exchange must finish within the timeout. A failure rejects with an HttpFailure: what
// went wrong (kind, the network error's code and message) and, as its message, the original's http-client
// exception name (ResponseTimeout, ConnectionFailure...); each caller words it as its own interface does.
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, type Dispatcher } from 'undici';
import { headerMapOf } from './header-map.js';

export interface HttpAnswer {
  status: number;
  headers: Array<{ name: string; value: string }>;
  /** The same headers as received: name, value, name, value... (no object per header). */
  readonly rawHeaders: readonly string[];
  /** The Set-Cookie values, in order. */
  readonly setCookie: string[];
  body: string;
  /** The headers as node:http reads them (lower-case names, repeated ones joined; set-cookie a list). */
  readonly headerMap: IncomingHttpHeaders;
}

export type FailureKind = 'invalid-url' | 'timeout' | 'network' | 'aborted';

export class HttpFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    /** The underlying error's message (the URL parser's, the socket's), or the exception name again. */
    readonly detail: string,
    /** The network error's code (ECONNREFUSED...), when it has one. */
    readonly code?: string,
    /** Set when the connection failed while the answer was being read: what had arrived. */
    readonly partial?: HttpAnswer,
  ) {
    super(message);
  }
}

/** A set of keep-alive connection pools (one per origin, at most `maxSockets` connections each). */
export type Agents = Agent;

// No connect, headers or body timeouts of undici's own: the caller's timeout covers the whole exchange.
export const makeAgents = (maxSockets: number): Agents =>
  new Agent({ connections: maxSockets, headersTimeout: 0, bodyTimeout: 0, connect: { timeout: 0 } }); // undici sets noDelay itself

/** The process's agents for callers that bring none (action handlers, remote schemas). */
const sharedAgents = makeAgents(256);

export interface PostOptions {
  timeoutMs: number;
  /** Keep-alive agents (a delivery worker's own, closed with it); the process's shared ones by default. */
  agents?: Agents;
  /** Aborts the exchange (an HttpFailure of kind 'aborted'). */
  signal?: AbortSignal;
  /** Keeps at most this many bytes of the body (the rest is read and dropped). */
  maxBody?: number;
}

interface Target {
  /** scheme://host[:port], without credentials. */
  origin: string;
  path: string;
  /**
   * The Authorization header the URL's credentials make (`Basic`, as the original's http-client), or null; sent as
   * a header, which a configured Authorization header replaces.
   */
  authorization: string | null;
}

// URLs are few and fixed per metadata version: parse each once (URL parsing is a visible share of a sync action's
// cost).
const targets = new Map<string, Target | HttpFailure>();
const MAX_TARGETS = 1000;

function targetOf(url: string): Target | HttpFailure {
  let t = targets.get(url);
  if (t !== undefined) return t;
  try {
    const u = new URL(url);
    t = u.protocol !== 'https:' && u.protocol !== 'http:'
      ? new HttpFailure('invalid-url', `InvalidUrlException "${url}" "Invalid scheme"`, `unsupported protocol ${u.protocol}`)
      : {
        origin: `${u.protocol}//${u.host}`,
        path: `${u.pathname}${u.search}`,
        authorization: u.username || u.password
          ? `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}`
          : null,
      };
  } catch (e) {
    t = new HttpFailure('invalid-url', `InvalidUrlException "${url}" "Invalid URL"`, (e as Error).message);
  }
  if (targets.size >= MAX_TARGETS) targets.clear();
  targets.set(url, t);
  return t;
}

/**
 * The answer as received; the header strings, the list of header objects and node's header map are made only if a
 * caller asks for them (a sync action reads only its Set-Cookie values on success).
 */
class Answer implements HttpAnswer {
  private raw: string[] | null = null;
  private list: HttpAnswer['headers'] | null = null;
  private map: IncomingHttpHeaders | null = null;

  constructor(
    readonly status: number,
    private readonly rawBuffers: readonly Buffer[],
    readonly body: string,
  ) {}

  // Latin-1, as node:http decodes header bytes.
  get rawHeaders(): readonly string[] {
    return (this.raw ??= this.rawBuffers.map((b) => b.toString('latin1')));
  }

  get setCookie(): string[] {
    const out: string[] = [];
    const b = this.rawBuffers;
    for (let i = 0; i + 1 < b.length; i += 2) {
      if (b[i].length === 10 && b[i].toString('latin1').toLowerCase() === 'set-cookie') out.push(b[i + 1].toString('latin1'));
    }
    return out;
  }

  get headers(): HttpAnswer['headers'] {
    if (this.list === null) {
      const raw = this.rawHeaders;
      const hs: HttpAnswer['headers'] = [];
      for (let i = 0; i + 1 < raw.length; i += 2) hs.push({ name: raw[i], value: raw[i + 1] });
      this.list = hs;
    }
    return this.list;
  }

  get headerMap(): IncomingHttpHeaders {
    return (this.map ??= headerMapOf(this.rawHeaders));
  }
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET']);
/** undici's error for a connection the server closed (node:http's "socket hang up", or "aborted" mid-answer). */
const CLOSED = 'UND_ERR_SOCKET';

/**
 * One exchange, as undici's dispatch handler: settles once, with the answer or an HttpFailure. A class rather than
 * closures: under tsx every named closure costs a defineProperty per call.
 */
class Exchange implements Dispatcher.DispatchHandlers {
  done = false;
  timer: NodeJS.Timeout | undefined;
  /** undici's abort of the request, once it is on a connection. */
  abortRequest: ((err?: Error) => void) | null = null;
  status = 0;
  /** The answer's raw headers once they arrived (null before: the failure is the connection's, not the answer's). */
  raw: Buffer[] | null = null;
  chunks: Buffer[] = [];
  size = 0;
  signal: AbortSignal | undefined;

  constructor(readonly resolve: (a: HttpAnswer) => void, readonly reject: (e: Error) => void, readonly maxBody: number) {}

  readonly onAbort = (): void => this.fail(new HttpFailure('aborted', 'RequestAborted', 'aborted'));

  onConnect(abort: (err?: Error) => void): void {
    // Settled while it waited for a connection (a timeout, an abort): it goes no further.
    if (this.done) abort();
    else this.abortRequest = abort;
  }

  onHeaders(status: number, raw: Buffer[]): boolean {
    this.status = status;
    this.raw = raw;
    return true;
  }

  onData(c: Buffer): boolean {
    if (this.size < this.maxBody) this.chunks.push(c);
    this.size += c.length;
    return true;
  }

  onComplete(): void {
    if (this.settle()) this.resolve(this.answer());
  }

  onError(e: Error): void {
    if (this.done) return;
    const code = (e as NodeJS.ErrnoException).code;
    if (this.raw !== null) {
      // The connection failed after the answer's head arrived: a failure that carries what was read.
      const closed = code === CLOSED;
      this.fail(new HttpFailure('network', 'ConnectionFailure', closed ? 'aborted' : e.message, closed ? undefined : code, this.answer()));
    } else if (code === CLOSED) {
      this.fail(new HttpFailure('network', 'ConnectionFailure ECONNRESET', 'socket hang up', 'ECONNRESET'));
    } else {
      const message = code !== undefined && CONNECTION_CODES.has(code) ? `ConnectionFailure ${code}` : e.message;
      this.fail(new HttpFailure('network', message, e.message, code));
    }
  }

  answer(): HttpAnswer {
    const c = this.chunks;
    const text = c.length === 1 ? c[0].toString('utf8') : Buffer.concat(c).toString('utf8');
    return new Answer(this.status, this.raw ?? [], this.size > this.maxBody ? text.slice(0, this.maxBody) : text);
  }

  settle(): boolean {
    if (this.done) return false;
    this.done = true;
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onAbort);
    return true;
  }

  fail(f: HttpFailure): void {
    if (!this.settle()) return;
    this.abortRequest?.();
    this.reject(f);
  }
}

/**
 * Request headers undici refuses (node:http sent them as given): hop-by-hop headers, which are not the caller's to
 * send, and Content-Length, which undici writes from the body.
 */
const NOT_SENT = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'expect', 'content-length']);

/** `headers`: one entry per name, any case (Host and Content-Length are added unless given); `body`: the JSON text. */
export function postJson(url: string, headers: Record<string, string>, body: string, options: PostOptions): Promise<HttpAnswer> {
  const target = targetOf(url);
  if (target instanceof HttpFailure) return Promise.reject(target);
  // Headers as a flat [name, value, ...] list: undici takes it as it is.
  const flat: string[] = [];
  let authorization = false;
  for (const k in headers) {
    const lower = k.toLowerCase();
    if (NOT_SENT.has(lower)) continue;
    flat.push(k, headers[k]);
    if (lower === 'authorization') authorization = true;
  }
  // A configured Authorization header wins over the URL's credentials.
  if (!authorization && target.authorization !== null) flat.push('authorization', target.authorization);
  const dispatcher = options.agents ?? sharedAgents;
  return new Promise((resolve, reject) => {
    const x = new Exchange(resolve, reject, options.maxBody ?? Infinity);
    if (options.signal?.aborted) return x.onAbort();
    x.timer = setTimeout(() => x.fail(new HttpFailure('timeout', 'ResponseTimeout', 'ResponseTimeout')), options.timeoutMs);
    if (options.signal) {
      x.signal = options.signal;
      options.signal.addEventListener('abort', x.onAbort);
    }
    // undici reports its own failures (a bad header, a destroyed agent) through onError too.
    dispatcher.dispatch({ origin: target.origin, path: target.path, method: 'POST', headers: flat, body }, x);
  });
}
