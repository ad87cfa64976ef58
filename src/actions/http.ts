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

/** `headers`: lower-case names; content-length is added here. */
export function postJson(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const target = targetOf(url);
    if (target instanceof HttpFailure) {
      reject(target);
      return;
    }
    // Headers as a flat [name, value, ...] list: node stores it as it is (no per-header setHeader).
    const flat: string[] = [];
    if (headers.host === undefined) flat.push('host', target.host);
    for (const k in headers) flat.push(k, headers[k]);
    flat.push('content-length', String(Buffer.byteLength(body)));
    let done = false;
    const fail = (message: string) => {
      if (done) return;
      done = true;
      req.destroy();
      reject(new HttpFailure(message));
    };
    const req = (target.secure ? https : http).request({ ...target.options, headers: flat as unknown as http.OutgoingHttpHeaders }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', () => fail('ConnectionFailure'));
      res.on('end', () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        const raw = res.rawHeaders;
        const hs: HttpAnswer['headers'] = [];
        for (let i = 0; i + 1 < raw.length; i += 2) hs.push({ name: raw[i], value: raw[i + 1] });
        resolve({ status: res.statusCode ?? 0, headers: hs, body: chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8') });
      });
    });
    // The whole exchange must finish within the action's timeout (the original's response timeout).
    const timer = setTimeout(() => fail('ResponseTimeout'), timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      fail(e.code === 'ECONNREFUSED' || e.code === 'ENOTFOUND' || e.code === 'ECONNRESET' ? `ConnectionFailure ${e.code}` : e.message);
    });
    // A string body goes out in the same write as the head.
    req.end(body);
  });
}
