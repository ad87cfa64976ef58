// A real webhook server on loopback for delivery tests: records every request (path, headers, JSON body, time)
// and answers per path through a handler the test sets.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  at: number;
}

export type Answer = { status: number; headers?: Record<string, string>; delayMs?: number };

export interface Webhook {
  url: string;
  received: Received[];
  /** Decides the answer for each request (default 200). */
  answer: (r: Received) => Answer;
  /** Resolves once `n` requests matched `pred` (rejects after timeoutMs). */
  waitFor(pred: (r: Received) => boolean, n?: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startWebhook(): Promise<Webhook> {
  const received: Received[] = [];
  let waiters: Array<() => void> = [];
  const hook: Webhook = {
    url: '',
    received,
    answer: () => ({ status: 200 }),
    waitFor(pred, n = 1, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const got = received.filter(pred);
          if (got.length >= n) {
            clearTimeout(timer);
            waiters = waiters.filter((w) => w !== check);
            resolve(got);
            return true;
          }
          return false;
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== check);
          reject(new Error(`webhook: ${received.filter(pred).length} of ${n} requests after ${timeoutMs} ms`));
        }, timeoutMs);
        if (!check()) waiters.push(check);
      });
    },
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      const r: Received = { path: req.url ?? '', headers: req.headers, body, at: Date.now() };
      const a = hook.answer(r);
      received.push(r);
      for (const w of [...waiters]) w();
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(a.status, a.headers ?? {});
        res.end('{"ok":true}');
      };
      if (a.delayMs) setTimeout(send, a.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  hook.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return hook;
}
