// One POST to an action handler over node:http(s) with keep-alive agents: the raw status, headers (in the order
// received, as the original reports them in `internal`) and body text. HTTP/1.0 handlers that answer without a
// Content-Length and close the connection are read to the end. A time-out or a network failure rejects with an
// HttpFailure whose message is the original's http-client exception name (ResponseTimeout, ConnectionFailure...).
import http from 'node:http';
import https from 'node:https';

export interface HttpAnswer {
  status: number;
  headers: Array<{ name: string; value: string }>;
  body: string;
}

export class HttpFailure extends Error {}

// noDelay: a request is one write (head and body together), its answer must not wait for a delayed ACK (Nagle).
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 256, noDelay: true }),
  https: new https.Agent({ keepAlive: true, maxSockets: 256, noDelay: true }),
};

interface Target {
  secure: boolean;
  /** The Host header (node adds none when the headers come as a list). */
  host: string;
  options: http.RequestOptions;
}

// Handler URLs are few and fixed per metadata version: parse each once (URL parsing and node's URL-to-options
// conversion are a visible share of a sync action's cost).
const targets = new Map<string, Target | HttpFailure>();
const MAX_TARGETS = 1000;

function targetOf(url: string): Target | HttpFailure {
  let t = targets.get(url);
  if (t !== undefined) return t;
  try {
    const u = new URL(url);
    const secure = u.protocol === 'https:';
    t = !secure && u.protocol !== 'http:'
      ? new HttpFailure(`InvalidUrlException "${url}" "Invalid scheme"`)
      : {
        secure,
        host: u.host,
        options: {
          method: 'POST', protocol: u.protocol, hostname: u.hostname.replace(/^\[(.*)\]$/, '$1'), port: u.port || undefined,
          path: `${u.pathname}${u.search}`, agent: secure ? agents.https : agents.http,
          ...(u.username || u.password ? { auth: `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}` } : {}),
        },
      };
  } catch {
    t = new HttpFailure(`InvalidUrlException "${url}" "Invalid URL"`);
  }
  if (targets.size >= MAX_TARGETS) targets.clear();
  targets.set(url, t);
  return t;
}

/**
 * One exchange: settles once, with the answer or an HttpFailure. A class rather than closures: under tsx every named
 * closure costs a defineProperty per call.
 */
class Exchange {
  done = false;
  timer: NodeJS.Timeout | undefined;
  req: http.ClientRequest | undefined;
  chunks: Buffer[] = [];

  constructor(readonly resolve: (a: HttpAnswer) => void, readonly reject: (e: Error) => void) {}

  fail(message: string): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    this.req?.destroy();
    this.reject(new HttpFailure(message));
  }

  end(res: http.IncomingMessage): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    const raw = res.rawHeaders;
    const hs: HttpAnswer['headers'] = [];
    for (let i = 0; i + 1 < raw.length; i += 2) hs.push({ name: raw[i], value: raw[i + 1] });
    const c = this.chunks;
    this.resolve({ status: res.statusCode ?? 0, headers: hs, body: c.length === 1 ? c[0].toString('utf8') : Buffer.concat(c).toString('utf8') });
  }
}

/** `headers`: lower-case names; content-length is added here. */
export function postJson(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<HttpAnswer> {
  const target = targetOf(url);
  if (target instanceof HttpFailure) return Promise.reject(target);
  // Headers as a flat [name, value, ...] list: node stores it as it is (no per-header setHeader).
  const flat: string[] = [];
  if (headers.host === undefined) flat.push('host', target.host);
  for (const k in headers) flat.push(k, headers[k]);
  flat.push('content-length', String(Buffer.byteLength(body)));
  return new Promise((resolve, reject) => {
    const x = new Exchange(resolve, reject);
    const req = (target.secure ? https : http).request({ ...target.options, headers: flat as unknown as http.OutgoingHttpHeaders }, (res) => {
      res.on('data', (c: Buffer) => x.chunks.push(c));
      res.on('error', () => x.fail('ConnectionFailure'));
      res.on('end', () => x.end(res));
    });
    x.req = req;
    // The whole exchange must finish within the action's timeout (the original's response timeout).
    x.timer = setTimeout(() => x.fail('ResponseTimeout'), timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => {
      x.fail(e.code === 'ECONNREFUSED' || e.code === 'ENOTFOUND' || e.code === 'ECONNRESET' ? `ConnectionFailure ${e.code}` : e.message);
    });
    // A string body goes out in the same write as the head.
    req.end(body);
  });
}
