// Request bodies: read as text (bounded), then parsed as JSON; invalid JSON is reported by the route.
import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import { EngineError } from '../core/errors.js';

const LIMIT = 100 * 1024 * 1024;

/**
 * The body as UTF-8 text. Plain 'data'/'end' listeners with inline callbacks: an async iterator over the stream cost
 * several promises and listeners per request (and named closures cost a defineProperty each under tsx). Too large a
 * body destroys the request, as leaving a `for await` over it did; so does a request closed before its end.
 */
export function readBodyText(req: IncomingMessage): Promise<string> {
  if (req.readableEnded) return Promise.resolve('');
  return new Promise((resolve, reject) => {
    let first: Buffer | null = null;
    let chunks: Buffer[] | null = null;
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > LIMIT) {
        done = true;
        req.destroy();
        reject(new EngineError('bad-request', 'request body too large', { status: 413 }));
      } else if (first === null) first = chunk;
      else (chunks ??= [first]).push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      resolve(chunks !== null ? Buffer.concat(chunks).toString('utf8') : first !== null ? first.toString('utf8') : '');
    });
    req.on('error', (e: Error) => {
      if (done) return;
      done = true;
      reject(e);
    });
    req.on('close', () => {
      if (done) return;
      done = true;
      reject(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    });
  });
}

/**
 * The body as UTF-8 text, at once when it has all arrived: after a session that waited on I/O (an auth webhook, a
 * JWK fetch), the buffered bytes are read as they are, without listeners, a promise and the stream's ticks.
 * Otherwise (a session resolved from the headers alone) the body is not there yet, even when it came in the packet
 * of its headers: node's parser calls into JavaScript once for the headers and again for the body, and the
 * route's microtasks all run in between (measured: 0 of 46,392 autocannon requests complete after one await).
 */
export function bodyText(req: IncomingMessage): string | Promise<string> {
  if (req.complete && !req.readableEnded && req.readableFlowing !== true && req.readableLength <= LIMIT) {
    const bytes = req.read() as Buffer | null;
    return bytes === null ? '' : bytes.toString('utf8');
  }
  return readBodyText(req);
}

/** The body text parsed as JSON, or EngineError invalid-json (400, path $). */
export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new EngineError('invalid-json', 'invalid json', { status: 400 });
  }
}

/** Parsed JSON body, or EngineError invalid-json (400, path $). */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const text = bodyText(req);
  return parseJsonBody(typeof text === 'string' ? text : await text);
}

export const readJson = (ctx: Koa.Context): Promise<unknown> => readJsonBody(ctx.req);
