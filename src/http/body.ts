// Request bodies: read as text (bounded), then parsed as JSON; invalid JSON is reported by the route.
import type Koa from 'koa';
import { EngineError } from '../core/errors.js';

const LIMIT = 100 * 1024 * 1024;

export async function readText(ctx: Koa.Context): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > LIMIT) throw new EngineError('bad-request', 'request body too large', { status: 413 });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parsed JSON body, or EngineError invalid-json (400, path $). */
export async function readJson(ctx: Koa.Context): Promise<unknown> {
  const text = await readText(ctx);
  try {
    return JSON.parse(text);
  } catch {
    throw new EngineError('invalid-json', 'invalid json', { status: 400 });
  }
}
