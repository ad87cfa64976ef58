// The engine's one HTTP client: a JSON body POSTed over node:http(s) with keep-alive agents, for action handlers,
// remote schemas and event deliveries (and scheduled ones). An answer is the raw status, headers (in the order
// received, as the original reports them in `internal`) and body text; HTTP/1.0 servers that answer without a
// Content-Length and close the connection are read to the end. The whole exchange must finish within the timeout.
// A failure rejects with an HttpFailure: what went wrong (kind, the network error's code and message) and, as its
// message, the original's http-client exception name (ResponseTimeout, ConnectionFailure...); each caller words it
// as its own interface does.
import http from 'node:http';
import https from 'node:https';

export interface HttpAnswer {
  status: number;
  headers: Array<{ name: string; value: string }>;
  /** The same headers as node received them: name, value, name, value... (no object per header). */
  readonly rawHeaders: readonly string[];
  body: string;
  /** The headers as node:http reads them (lower-case names, repeated ones joined; set-cookie a list). */
  readonly headerMap: http.IncomingHttpHeaders;
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

export interface Agents {
  http: http.Agent;
  https: https.Agent;
}

// noDelay: a request is one write (head and body together), its answer must not wait for a delayed ACK (Nagle).
export const makeAgents = (maxSockets: number): Agents => ({
  http: new http.Agent({ keepAlive: true, maxSockets, noDelay: true }),
  https: new https.Agent({ keepAlive: true, maxSockets, noDelay: true }),
});

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
  secure: boolean;
  /** The Host header (node adds none when the headers come as a list). */
  host: string;
  /**
   * The Authorization header the URL's credentials make (`Basic`, as the original's http-client), or null. Node
   * ignores the `auth` option when the headers come as a list, so it is sent as a header.
   */
  authorization: string | null;
  options: TargetOptions;
}

/** The request options a URL gives (every key always present: one object shape for every request's options). */
interface TargetOptions {
  method: 'POST';
  protocol: string;
  hostname: string;
  port: string | undefined;
  path: string;
}

// URLs are few and fixed per metadata version: parse each once (URL parsing and node's URL-to-options conversion
// are a visible share of a sync action's cost). The agents are chosen per call.
const targets = new Map<string, Target | HttpFailure>();
const MAX_TARGETS = 1000;

function targetOf(url: string): Target | HttpFailure {
  let t = targets.get(url);
  if (t !== undefined) return t;
  try {
    const u = new URL(url);
    const secure = u.protocol === 'https:';
    t = !secure && u.protocol !== 'http:'
      ? new HttpFailure('invalid-url', `InvalidUrlException "${url}" "Invalid scheme"`, `unsupported protocol ${u.protocol}`)
      : {
        secure,
        host: u.host,
        authorization: u.username || u.password
          ? `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}`
          : null,
        options: {
          method: 'POST', protocol: u.protocol, hostname: u.hostname.replace(/^\[(.*)\]$/, '$1'), port: u.port || undefined,
          path: `${u.pathname}${u.search}`,
        },
      };
  } catch (e) {
    t = new HttpFailure('invalid-url', `InvalidUrlException "${url}" "Invalid URL"`, (e as Error).message);
  }
  if (targets.size >= MAX_TARGETS) targets.clear();
  targets.set(url, t);
  return t;
}

/**
 * The answer as received; the list of header objects and node's header map are made only if a caller asks for them
 * (a sync action reads neither on success).
 */
class Answer implements HttpAnswer {
  private list: HttpAnswer['headers'] | null = null;

  constructor(
    readonly status: number,
    readonly rawHeaders: readonly string[],
    readonly body: string,
    private readonly res: http.IncomingMessage,
  ) {}

  get headers(): HttpAnswer['headers'] {
    if (this.list === null) {
      const raw = this.rawHeaders;
      const hs: HttpAnswer['headers'] = [];
      for (let i = 0; i + 1 < raw.length; i += 2) hs.push({ name: raw[i], value: raw[i + 1] });
      this.list = hs;
    }
    return this.list;
  }

  get headerMap(): http.IncomingHttpHeaders {
    return this.res.headers;
  }
}

/**
 * One exchange: settles once, with the answer or an HttpFailure. A class rather than closures: under tsx every named
 * closure costs a defineProperty per call.
 */
class Exchange {
  done = false;
  timer: NodeJS.Timeout | undefined;
  req: http.ClientRequest | undefined;
  res: http.IncomingMessage | undefined;
  chunks: Buffer[] = [];
  size = 0;
  signal: AbortSignal | undefined;

  constructor(readonly resolve: (a: HttpAnswer) => void, readonly reject: (e: Error) => void, readonly maxBody: number) {}

  readonly onAbort = (): void => this.fail(new HttpFailure('aborted', 'RequestAborted', 'aborted'));

  data(c: Buffer): void {
    if (this.size < this.maxBody) this.chunks.push(c);
    this.size += c.length;
  }

  answer(): HttpAnswer {
    const res = this.res!;
    const c = this.chunks;
    const text = c.length === 1 ? c[0].toString('utf8') : Buffer.concat(c).toString('utf8');
    return new Answer(res.statusCode ?? 0, res.rawHeaders, this.size > this.maxBody ? text.slice(0, this.maxBody) : text, res);
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
    this.req?.destroy();
    this.reject(f);
  }

  /** The connection failed after the answer's head arrived: a failure that carries what was read. */
  failReading(e: NodeJS.ErrnoException | undefined): void {
    const detail = e?.message ?? 'aborted';
    this.fail(new HttpFailure('network', 'ConnectionFailure', detail, e?.code, this.answer()));
  }

  end(): void {
    if (this.settle()) this.resolve(this.answer());
  }
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET']);

/** `headers`: one entry per name, any case (a Host header is added unless given, and Content-Length); `body`: the JSON text. */
export function postJson(url: string, headers: Record<string, string>, body: string, options: PostOptions): Promise<HttpAnswer> {
  const target = targetOf(url);
  if (target instanceof HttpFailure) return Promise.reject(target);
  // Headers as a flat [name, value, ...] list: node stores it as it is (no per-header setHeader).
  const flat: string[] = [];
  let host = false;
  let authorization = false;
  for (const k in headers) {
    flat.push(k, headers[k]);
    if (k.length === 4 && k.toLowerCase() === 'host') host = true;
    else if (k.length === 13 && k.toLowerCase() === 'authorization') authorization = true;
  }
  if (!host) flat.push('host', target.host);
  // A configured Authorization header wins over the URL's credentials.
  if (!authorization && target.authorization !== null) flat.push('authorization', target.authorization);
  flat.push('content-length', String(Buffer.byteLength(body)));
  const agents = options.agents ?? sharedAgents;
  return new Promise((resolve, reject) => {
    const x = new Exchange(resolve, reject, options.maxBody ?? Infinity);
    if (options.signal?.aborted) return x.onAbort();
    // Written out rather than spread from target.options: one literal of a fixed shape (node copies it once more).
    const o = target.options;
    const requestOptions: http.RequestOptions = {
      method: o.method, protocol: o.protocol, hostname: o.hostname, port: o.port, path: o.path,
      agent: target.secure ? agents.https : agents.http, headers: flat,
    };
    const req = (target.secure ? https : http).request(requestOptions, (res) => {
      x.res = res;
      res.on('data', (c: Buffer) => x.data(c));
      res.on('error', (e: NodeJS.ErrnoException) => x.failReading(e));
      res.on('aborted', () => x.failReading(undefined));
      res.on('end', () => x.end());
    });
    x.req = req;
    x.timer = setTimeout(() => x.fail(new HttpFailure('timeout', 'ResponseTimeout', 'ResponseTimeout')), options.timeoutMs);
    if (options.signal) {
      x.signal = options.signal;
      options.signal.addEventListener('abort', x.onAbort);
    }
    req.on('error', (e: NodeJS.ErrnoException) => {
      const message = e.code !== undefined && CONNECTION_CODES.has(e.code) ? `ConnectionFailure ${e.code}` : e.message;
      x.fail(new HttpFailure('network', message, e.message, e.code));
    });
    // A string body goes out in the same write as the head.
    req.end(body);
  });
}
