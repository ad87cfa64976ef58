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

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
};

export function postJson(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      reject(new HttpFailure(`InvalidUrlException "${url}" "Invalid URL"`));
      return;
    }
    const secure = u.protocol === 'https:';
    if (!secure && u.protocol !== 'http:') {
      reject(new HttpFailure(`InvalidUrlException "${url}" "Invalid scheme"`));
      return;
    }
    const payload = Buffer.from(body);
    let done = false;
    const fail = (message: string) => {
      if (done) return;
      done = true;
      req.destroy();
      reject(new HttpFailure(message));
    };
    const req = (secure ? https : http).request(u, {
      method: 'POST',
      agent: secure ? agents.https : agents.http,
      headers: { ...headers, 'content-length': String(payload.length) },
    }, (res) => {
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
        resolve({ status: res.statusCode ?? 0, headers: hs, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    // The whole exchange must finish within the action's timeout (the original's response timeout).
    const timer = setTimeout(() => fail('ResponseTimeout'), timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      fail(e.code === 'ECONNREFUSED' || e.code === 'ENOTFOUND' || e.code === 'ECONNRESET' ? `ConnectionFailure ${e.code}` : e.message);
    });
    req.end(payload);
  });
}
