// One webhook delivery (event triggers; scheduled triggers too): the JSON body POSTed with the configured headers and
// a deadline, through the engine's HTTP client (src/core/http-client.ts). The outcome is the response (status, body
// capped at 64 KiB, headers), or a client error (connection refused, timeout, abort) that the invocation log records
// with status 1000. Never rejects.
import { HttpFailure, postJson, type Agents, type HttpAnswer } from '../core/http-client.js';
import type { Outcome } from './payload.js';

const MAX_BODY = 64 * 1024;

const response = (a: HttpAnswer): Outcome => ({
  kind: 'response',
  status: a.status,
  body: a.body,
  headers: Object.entries(a.headerMap).flatMap(([name, v]) => (Array.isArray(v) ? v.map((value) => ({ name, value })) : v === undefined ? [] : [{ name, value: v }])),
});

function clientError(f: HttpFailure, timeoutMs: number): Outcome {
  // A webhook that answers and then drops the connection still answered.
  if (f.partial) return response(f.partial);
  switch (f.kind) {
    case 'timeout': return { kind: 'client_error', message: `ResponseTimeout: no response within ${timeoutMs} ms` };
    case 'aborted': return { kind: 'client_error', message: 'delivery aborted: the engine is shutting down' };
    case 'invalid-url': return { kind: 'client_error', message: `invalid webhook url: ${f.detail}` };
    case 'network': return { kind: 'client_error', message: f.detail };
  }
}

/**
 * POSTs `body` (JSON text) to `url` with `headers` (in order; a later one of the same name wins), within `timeoutMs`,
 * on the worker's `agents`; `signal` aborts it (shutdown).
 */
export async function deliverWebhook(
  url: string,
  body: string,
  headers: ReadonlyArray<{ name: string; value: string }>,
  timeoutMs: number,
  agents: Agents,
  signal?: AbortSignal,
): Promise<Outcome> {
  const byName = new Map<string, [string, string]>([['content-type', ['Content-Type', 'application/json']]]);
  for (const h of headers) byName.set(h.name.toLowerCase(), [h.name, h.value]);
  try {
    return response(await postJson(url, Object.fromEntries(byName.values()), body, { timeoutMs, agents, signal, maxBody: MAX_BODY }));
  } catch (e) {
    if (e instanceof HttpFailure) return clientError(e, timeoutMs);
    return { kind: 'client_error', message: (e as Error).message };
  }
}
