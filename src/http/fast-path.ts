// POST /v1/graphql without koa: what the koa app does for that route (request id and log line, CORS, min-metadata-
// version wait, the route, gzip, the stray-error body), on node:http directly, through the same helpers.
import type http from 'node:http';
import { gzipSync } from 'node:zlib';
import { metadataErrorBody } from '../core/errors.js';
import { log } from '../core/log.js';
import type { Runtime } from './runtime.js';
import { serveGraphQL, type GraphQLReply } from './routes/graphql.js';
import type { EngineError } from '../core/errors.js';
import { GZIP_MIN_LENGTH, acceptsGzip, requestIdOf, strayError } from './request-common.js';
import { corsHeaders, corsPolicy } from './cors.js';
import { logRequest } from './request-log.js';

const JSON_TYPE = 'application/json; charset=utf-8';

export function graphqlFastPath(rt: Runtime): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  const allowed = corsPolicy(rt.config);
  return (req, res) => {
    // What koa's own error handler does with an error its middleware let through (none is expected here).
    answer(rt, allowed, req, res).catch((e: unknown) => {
      log.error('http-error', { error: e });
      if (res.headersSent) return void res.destroy();
      res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': '21' });
      res.end('Internal Server Error');
    });
  };
}

async function answer(rt: Runtime, allowed: (origin: string) => string | null, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const started = process.hrtime.bigint();
  const h = req.headers;
  const requestId = requestIdOf(h['x-request-id']);
  // Header order as the koa app sets them.
  const headers: [string, string][] = [['x-request-id', requestId]];
  const origin = allowed(h.origin ?? '');
  if (origin !== null) headers.push(...corsHeaders(origin));
  let status: number;
  let body: string;
  let reply: GraphQLReply | null = null;
  let stray: EngineError | undefined;
  try {
    reply = await serveGraphQL(req, rt, requestId, false);
    headers.push(['Content-Type', JSON_TYPE], ...reply.headers);
    ({ status, body } = reply);
  } catch (e) {
    stray = strayError(e, requestId);
    status = stray.status;
    body = JSON.stringify(metadataErrorBody(stray, false));
    headers.push(['Content-Type', JSON_TYPE]);
  }
  let payload: string | Buffer = body;
  const zip = body.length >= GZIP_MIN_LENGTH && acceptsGzip(h['accept-encoding'] ?? '');
  if (zip) payload = gzipSync(Buffer.from(body, 'utf8'));
  const size = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
  headers.push(['Content-Length', String(size)]);
  if (zip) headers.push(['Content-Encoding', 'gzip']);
  logRequest({
    metrics: rt.metrics, endpoint: '/v1/graphql', operationType: reply?.operationType,
    req, method: 'POST', url: '/v1/graphql', status, started, requestId, responseSize: size, contentEncoding: zip ? 'gzip' : null,
    userVars: reply?.userVars, error: reply?.error ?? stray, query: reply?.query,
  });
  // One writeHead with a header object (no earlier setHeader: node takes it as it is), then one end.
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of headers) {
    const had = out[k];
    out[k] = had === undefined ? v : [...(Array.isArray(had) ? had : [had]), v]; // Set-Cookie may repeat
  }
  res.writeHead(status, out);
  res.end(payload);
}
