// Auth-hook mode: ask the configured webhook who is asking (GET with the client's headers, or POST {headers}).
// 200 + JSON object of strings gives the session; 401 denies; anything else is an internal error, as the original.
import { EngineError } from '../core/errors.js';
import type { AuthHookMode } from './config.js';
import { maxAgeSeconds } from './jwk.js';
import { readCapped } from './read-capped.js';
import { makeSession, ROLE_HEADER, type RequestHeaders, type Session } from './session.js';

/** Client headers the original does not forward to a GET hook, plus hop-by-hop headers fetch refuses to send. */
const NOT_FORWARDED = new Set([
  'content-length', 'content-md5', 'content-type', 'user-agent', 'host', 'origin', 'referer', 'accept',
  'accept-encoding', 'accept-language', 'accept-datetime', 'cache-control', 'connection', 'dnt',
  'keep-alive', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'expect', 'proxy-connection',
  'http2-settings', 'sec-websocket-key', 'sec-websocket-version', 'sec-websocket-extensions', 'sec-websocket-protocol',
]);

export interface HookDeps {
  fetch?: typeof fetch;
  /** Milliseconds since the epoch (for the session expiry the hook may give). */
  now?: () => number;
  /** The original sets no time-out; we stop waiting after this long (default 60 s) and answer as for a failed request. */
  timeoutMs?: number;
  /** Server version for the User-Agent header. */
  version?: string;
}

/** Header values as strings: repeated values joined, non-strings dropped. */
function stringHeaders(headers: RequestHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (typeof v === 'string') out[k] = v;
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) out[k] = v.join(', ');
  }
  return out;
}

/** The JSON type name used in the original's decode errors. */
function jsonTypeName(v: unknown): string {
  if (v === null) return 'Null';
  if (Array.isArray(v)) return 'Array';
  return typeof v === 'string' ? 'String' : typeof v === 'number' ? 'Number' : typeof v === 'boolean' ? 'Boolean' : 'Object';
}

const invalidResponse = (detail?: string): EngineError =>
  new EngineError('unexpected', detail === undefined ? 'Invalid response from authorization hook' : `Invalid response from authorization hook: ${detail}`, {
    status: 500,
  });

/** Parses a 200 body: a JSON object whose values are all strings. */
function parseHookBody(text: string): Record<string, string> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalidResponse('Error in $: Failed reading: not a valid json value');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalidResponse(`Error in $: parsing HashMap ~Text failed, expected Object, but encountered ${jsonTypeName(body)}`);
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (typeof v !== 'string') {
      throw invalidResponse(`Error in $['${k}']: parsing Text failed, expected String, but encountered ${jsonTypeName(v)}`);
    }
    out[k] = v;
  }
  return out;
}

/** Session expiry from the body's Cache-Control (max-age) or Expires keys, ms since epoch. */
function expiryOf(values: Record<string, string>, nowMs: number): number | undefined {
  const lower = new Map(Object.entries(values).map(([k, v]) => [k.toLowerCase(), v]));
  const cc = lower.get('cache-control');
  const maxAge = cc === undefined ? null : maxAgeSeconds(cc);
  if (maxAge !== null) return nowMs + maxAge * 1000;
  const expires = lower.get('expires');
  const at = expires === undefined ? NaN : Date.parse(expires);
  return Number.isNaN(at) ? undefined : at;
}

export async function sessionFromHook(headers: RequestHeaders, hook: { url: string; mode: AuthHookMode }, deps: HookDeps = {}): Promise<Session> {
  const doFetch = deps.fetch ?? fetch;
  const client = stringHeaders(headers);
  const common = { 'content-type': 'application/json', 'user-agent': `engine-graphql-engine/${deps.version ?? 'dev'}` };
  let res: Response;
  try {
    const signal = AbortSignal.timeout(deps.timeoutMs ?? 60_000);
    if (hook.mode === 'GET') {
      const forwarded: Record<string, string> = {};
      for (const [k, v] of Object.entries(client)) if (!NOT_FORWARDED.has(k.toLowerCase())) forwarded[k] = v;
      res = await doFetch(hook.url, { method: 'GET', headers: { ...forwarded, ...common }, signal, redirect: 'manual' });
    } else {
      res = await doFetch(hook.url, { method: 'POST', headers: common, body: JSON.stringify({ headers: client }), signal, redirect: 'manual' });
    }
  } catch {
    throw new EngineError('unexpected', 'webhook authentication request failed', { status: 500 });
  }
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => undefined);
    if (res.status === 401) throw new EngineError('access-denied', 'Authentication hook unauthorized this request', { status: 401 });
    throw invalidResponse();
  }
  let text: string;
  try {
    text = await readCapped(res);
  } catch (e) {
    throw invalidResponse((e as Error).message);
  }
  const values = parseHookBody(text);
  const variables: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) {
    const name = k.toLowerCase();
    if (name.startsWith('x-engine-')) variables[name] = v;
  }
  const role = variables[ROLE_HEADER];
  if (!role) throw new EngineError('invalid-params', `${ROLE_HEADER} not found in session variables`);
  const expiresAt = expiryOf(values, (deps.now ?? Date.now)());
  return makeSession(role, variables, expiresAt !== undefined ? { expiresAt } : {});
}
