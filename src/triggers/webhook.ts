// One webhook POST with a deadline: the response (status, body capped, headers), or a client error (connection
// refused, timeout, abort) that the invocation log records with status 1000.
import http from 'node:http';
import https from 'node:https';
import type { Outcome } from './payload.js';

const MAX_BODY = 64 * 1024;

export interface Agents {
  http: http.Agent;
  https: https.Agent;
}

export const makeAgents = (maxSockets: number): Agents => ({
  http: new http.Agent({ keepAlive: true, maxSockets }),
  https: new https.Agent({ keepAlive: true, maxSockets }),
});

export function postJson(
  url: string,
  body: string,
  headers: Array<{ name: string; value: string }>,
  timeoutMs: number,
  agents: Agents,
  signal?: AbortSignal,
): Promise<Outcome> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (o: Outcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(o);
    };
    let target: URL;
    try {
      target = new URL(url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`unsupported protocol ${target.protocol}`);
    } catch (e) {
      resolve({ kind: 'client_error', message: `invalid webhook url: ${(e as Error).message}` });
      return;
    }
    const h: Record<string, string> = { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) };
    for (const x of headers) h[x.name] = x.value;
    const lib = target.protocol === 'https:' ? https : http;
    const req = lib.request(target, { method: 'POST', headers: h, agent: target.protocol === 'https:' ? agents.https : agents.http }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size < MAX_BODY) chunks.push(c);
        size += c.length;
      });
      const respond = () =>
        finish({
          kind: 'response',
          status: res.statusCode ?? 500,
          body: Buffer.concat(chunks).toString('utf8').slice(0, MAX_BODY),
          headers: Object.entries(res.headers).flatMap(([name, v]) => (Array.isArray(v) ? v.map((value) => ({ name, value })) : v === undefined ? [] : [{ name, value: v }])),
        });
      res.on('end', respond);
      // A webhook that answers and then drops the connection still answered.
      res.on('aborted', respond);
      res.on('error', respond);
    });
    const timer = setTimeout(() => {
      req.destroy();
      finish({ kind: 'client_error', message: `ResponseTimeout: no response within ${timeoutMs} ms` });
    }, timeoutMs);
    const onAbort = () => {
      req.destroy();
      finish({ kind: 'client_error', message: 'delivery aborted: the engine is shutting down' });
    };
    signal?.addEventListener('abort', onAbort);
    req.on('error', (e) => finish({ kind: 'client_error', message: e.message }));
    req.end(body);
  });
}
