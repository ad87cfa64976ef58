// POSTs a GraphQL body to a remote schema's URL (keep-alive agents: a remote answers every forwarded request).
// A failure is the original's 500 `unexpected` named after the HTTP client's exception (ResponseTimeout when
// timeout_seconds pass without an answer).
import http from 'node:http';
import https from 'node:https';
import { EngineError } from '../core/errors.js';

export interface RemoteReply {
  status: number;
  body: string;
  /** Set-Cookie values, passed on to HTTP clients. */
  setCookie: string[];
}

// noDelay: the head and the body are separate writes; Nagle would hold the body back for a delayed ACK (~40 ms).
const agents = { http: new http.Agent({ keepAlive: true, noDelay: true }), https: new https.Agent({ keepAlive: true, noDelay: true }) };

const failure = (message: string) => new EngineError('unexpected', message, { status: 500 });

export function postRemote(url: string, headers: Record<string, string>, body: string, timeoutSeconds: number): Promise<RemoteReply> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const secure = u.protocol === 'https:';
    const req = (secure ? https : http).request(u, {
      method: 'POST',
      agent: secure ? agents.https : agents.http,
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(failure('ResponseTimeout'));
    }, timeoutSeconds * 1000);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        const sc = res.headers['set-cookie'];
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), setCookie: sc ?? [] });
      });
      res.on('error', (e) => {
        clearTimeout(timer);
        reject(failure(`ConnectionFailure ${e.message}`));
      });
    });
    req.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(failure(`ConnectionFailure ${e.code ?? e.message}`));
    });
    req.end(body);
  });
}
