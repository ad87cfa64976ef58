// Calling an action handler as the original does (SPEC-NOTES-runtime §3.2, §3.3): the request body and headers,
// then the answer checked against the output type. Every failure is an EngineError with the original's code,
// message and `internal` ({error, request, response}); a 4xx `{message, code}` becomes that error as it is.
import { EngineError, type ErrorCode } from '../core/errors.js';
import type { HeaderConf } from '../../events/argument-shapes.js';
import type { ActionCallIR, OutputFieldSpec } from '../ir/action.js';
import type { ClientHeaders } from '../execute/features.js';
import { ENGINE_VERSION } from '../version.js';
import { logHandlerCall, wantsHandlerLog } from './handler-log.js';
import { HttpFailure, postJson, type HttpAnswer } from '../core/http-client.js';
import { jsonKind } from '../core/json-kind.js';

/** Client headers never forwarded (the original's list), besides every x-engine-* header. */
const NOT_FORWARDED = new Set([
  'content-length', 'content-md5', 'user-agent', 'host', 'origin', 'referer', 'accept', 'accept-encoding',
  'accept-language', 'accept-datetime', 'cache-control', 'connection', 'dnt', 'content-type',
  // hop-by-hop headers node:http would reject or mishandle
  'keep-alive', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'expect', 'proxy-connection',
]);

const USER_AGENT = `engine-graphql-engine/${ENGINE_VERSION}`;

export interface CallResult {
  /** The handler's object, or array of objects (validated). */
  value: unknown;
  /** Set-Cookie values of the answer (a synchronous mutation passes them on to the client). */
  setCookie: string[];
}

export interface OutputShape {
  list: boolean;
  spec: OutputFieldSpec[];
}

interface RequestInfo {
  url: string;
  body: unknown;
  headers: Array<Record<string, string>>;
}

function configuredHeaders(hs: HeaderConf[]): Array<[string, string]> {
  return hs.map((h) => {
    if ('value' in h) return [h.name, h.value];
    const v = process.env[h.value_from_env];
    if (v === undefined) throw new EngineError('not-found', `environment variable '${h.value_from_env}' not set`);
    return [h.name, v];
  });
}

function forwarded(client: ClientHeaders): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(client)) {
    const name = k.toLowerCase();
    if (v === undefined || NOT_FORWARDED.has(name) || name.startsWith('x-engine-')) continue;
    out.push([k, Array.isArray(v) ? v.join(', ') : v]);
  }
  const host = client.host;
  const ua = client['user-agent'];
  if (typeof host === 'string') out.push(['X-Forwarded-Host', host]);
  if (typeof ua === 'string') out.push(['X-Forwarded-User-Agent', ua]);
  return out;
}

const internal = (error: unknown, request: RequestInfo, response?: HttpAnswer, body?: unknown) => ({
  error,
  request,
  ...(response ? { response: { status: response.status, body, headers: response.headers } } : {}),
});

// Module-level helpers rather than closures in callHandler: under tsx every named closure costs a defineProperty
// per call, and these are needed only for errors.
/** What `internal` reports of the request. */
function requestInfo(call: ActionCallIR, body: unknown, fwd: Array<[string, string]>): RequestInfo {
  return { url: call.handler, body, headers: [...call.headers.map((h) => ({ ...h })), ...fwd.map(([name, value]) => ({ name, value }))] };
}

function withInternal(err: EngineError, request: RequestInfo, answer: HttpAnswer, json: unknown): EngineError {
  return new EngineError(err.code, err.message, { status: err.status, path: err.path, internal: internal('unexpected response', request, answer, json) });
}

// The headers of a call with no configured headers and none forwarded (most calls): one object for them all
// (postJson only reads it).
const BASE_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json', 'user-agent': USER_AGENT };

/** The request's headers: the configured ones win over forwarded ones of the same name. */
function requestHeaders(conf: Array<[string, string]>, fwd: Array<[string, string]>): Record<string, string> {
  if (!conf.length && !fwd.length) return BASE_HEADERS;
  const headers: Record<string, string> = { ...BASE_HEADERS };
  if (fwd.length) {
    const confNames = new Set(conf.map(([n]) => n.toLowerCase()));
    // On duplicate names the configured header wins.
    for (const [n, v] of fwd) if (!confNames.has(n.toLowerCase())) headers[n.toLowerCase()] = v;
  }
  for (const [n, v] of conf) headers[n.toLowerCase()] = v;
  return headers;
}

// `{"action":{"name":...},"input":` per action name: the body's text is that, the input's and the session's JSON
// (what JSON.stringify of the body object writes, without making the object on every call).
const bodyPrefixes = new Map<string, string>();
function bodyPrefix(name: string): string {
  let p = bodyPrefixes.get(name);
  if (p === undefined) {
    p = `{"action":${JSON.stringify({ name })},"input":`;
    if (bodyPrefixes.size >= 1000) bodyPrefixes.clear();
    bodyPrefixes.set(name, p);
  }
  return p;
}

/** The body as `internal` reports it (only on errors). */
const bodyObject = (call: ActionCallIR, input: Record<string, unknown>, session: Record<string, string>) =>
  ({ action: { name: call.name }, input, session_variables: session });

/** One call in flight: what its answer is checked and reported with. A class: no closures per call. */
class Call {
  constructor(
    readonly call: ActionCallIR,
    readonly input: Record<string, unknown>,
    readonly session: Record<string, string>,
    readonly fwd: Array<[string, string]>,
    readonly shape: OutputShape | null,
    readonly text: string,
    readonly started: bigint,
  ) {}

  request(): RequestInfo {
    return requestInfo(this.call, bodyObject(this.call, this.input, this.session), this.fwd);
  }

  /** No answer (or its log line failed, as inside the original's try): the http exception. */
  failed(e: unknown): never {
    const message = e instanceof HttpFailure ? e.message : String(e);
    if (wantsHandlerLog()) logHandlerCall({ action: this.call.name, started: this.started, requestSize: Buffer.byteLength(this.text), answer: { error: message } });
    throw new EngineError('unexpected', 'http exception when calling webhook', {
      status: 500, internal: internal({ type: 'http_exception', message }, this.request()),
    });
  }

  answered(answer: HttpAnswer): CallResult {
    try {
      if (wantsHandlerLog()) {
        logHandlerCall({ action: this.call.name, started: this.started, requestSize: Buffer.byteLength(this.text), answer: { status: answer.status, size: Buffer.byteLength(answer.body) } });
      }
    } catch (e) {
      this.failed(e);
    }
    return checkAnswer(this, answer);
  }
}

/**
 * Calls the handler; `input` is the arguments object, `session` the session variables (lower-case keys). A chain of
 * two callbacks rather than an async function: one promise fewer per call.
 */
export function callHandler(
  call: ActionCallIR, input: Record<string, unknown>, session: Record<string, string>, client: ClientHeaders | null, shape: OutputShape | null,
): Promise<CallResult> {
  let c: Call;
  let headers: Record<string, string>;
  try {
    const conf = call.headers.length ? configuredHeaders(call.headers) : [];
    const fwd = call.forwardClientHeaders && client ? forwarded(client) : [];
    headers = requestHeaders(conf, fwd);
    // (A stored async call's input or session could be missing: then the body object's own JSON, which leaves it out.)
    const text = input !== undefined && session !== undefined
      ? `${bodyPrefix(call.name)}${JSON.stringify(input)},"session_variables":${JSON.stringify(session)}}`
      : JSON.stringify(bodyObject(call, input, session));
    c = new Call(call, input, session, fwd, shape, text, process.hrtime.bigint());
  } catch (e) {
    return Promise.reject(e);
  }
  return postJson(call.handler, headers, c.text, { timeoutMs: call.timeout * 1000 }).then((a) => c.answered(a), (e: unknown) => c.failed(e));
}

/** The answer: its JSON checked against the output type (2xx), or the handler's error (4xx), or an internal error. */
function checkAnswer(c: Call, answer: HttpAnswer): CallResult {
  let json: unknown;
  try {
    json = JSON.parse(answer.body);
  } catch (e) {
    throw new EngineError('unexpected', 'not a valid json response from webhook', {
      status: 500, internal: internal(`invalid json: ${e instanceof Error ? e.message : String(e)}`, c.request(), answer, answer.body),
    });
  }
  const setCookie = answer.setCookie;
  if (answer.status >= 200 && answer.status < 300) {
    if (c.shape) {
      try {
        validateResponse(json, c.shape);
      } catch (e) {
        throw e instanceof EngineError ? withInternal(e, c.request(), answer, json) : e;
      }
    }
    return { value: json, setCookie };
  }
  if (answer.status >= 400 && answer.status < 500) {
    const o = json as Record<string, unknown> | null;
    if (o === null || typeof o !== 'object' || Array.isArray(o)) {
      throw withInternal(new EngineError('parse-failed', `parsing ActionWebhookErrorResponse failed, expected Object, but encountered ${jsonKind(o)}`), c.request(), answer, json);
    }
    if (typeof o.message !== 'string') throw withInternal(new EngineError('parse-failed', 'key "message" not found'), c.request(), answer, json);
    const code = typeof o.code === 'string' ? o.code : 'unexpected';
    throw new EngineError(code as ErrorCode, o.message, { status: answer.status });
  }
  throw new EngineError('unexpected', 'internal error', {
    status: 500, internal: internal(`expecting 2xx or 4xx status code, but found ${answer.status}`, c.request(), answer, json),
  });
}

const unexpected = (m: string) => new EngineError('unexpected', m);
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The original's checks of a 2xx answer against the output type. */
export function validateResponse(json: unknown, shape: OutputShape): void {
  if (Array.isArray(json)) {
    if (!json.every(isObject)) throw new EngineError('parse-failed', 'expecting object or array of objects for action webhook response');
    if (!shape.list) throw unexpected('expecting object for action webhook response but got array');
    for (const o of json) validateObject(o, shape.spec);
    return;
  }
  if (!isObject(json)) throw new EngineError('parse-failed', 'expecting object or array of objects for action webhook response');
  if (shape.list) throw unexpected('expecting array for action webhook response but got object');
  validateObject(json, shape.spec);
}

// The field names of an output type, per spec (the spec lives as long as the plan or the metadata that made it).
const knownNames = new WeakMap<OutputFieldSpec[], Set<string>>();

function validateObject(o: Record<string, unknown>, spec: OutputFieldSpec[]): void {
  let known = knownNames.get(spec);
  if (known === undefined) knownNames.set(spec, (known = new Set(spec.map((f) => f.name))));
  let extra: string[] | null = null;
  // for-in over a parsed object: its own keys, in Object.keys order.
  for (const k in o) if (!known.has(k)) (extra ??= []).push(k);
  if (extra !== null) throw unexpected(`unexpected fields in webhook response: ${extra.join(', ')}`);
  for (const f of spec) {
    if (f.nullable) continue;
    if (!(f.name in o)) throw unexpected(`field "${f.name}" expected in webhook response, but not found`);
    if (o[f.name] === null) throw unexpected(`expecting not null value for field "${f.name}"`);
  }
}
