// Pure parts of delivery: the webhook body (SPEC-NOTES-runtime §4.3), the webhook URL and headers resolved from
// the environment, the retry decision (the original's retryOrSetError) and the invocation log's JSON.
import type { EventTriggerConf } from '../../events/event-triggers.js';
import { DEFAULT_RETRY_CONF } from '../../events/event-triggers.js';
import type { QualifiedName } from '../core/names.js';
import type { Env } from '../core/env.js';

/** An event as claimed from event_log. */
export interface ClaimedEvent {
  id: string;
  schema_name: string;
  table_name: string;
  trigger_name: string;
  payload: { op: string; data: unknown; session_variables: unknown };
  tries: number;
  created_at: Date;
}

export interface WebhookBody {
  id: string;
  created_at: string;
  trigger: { name: string };
  table: { schema: string; name: string };
  event: { op: string; data: unknown; session_variables: unknown };
  delivery_info: { max_retries: number; current_retry: number };
}

export function webhookBody(e: ClaimedEvent, conf: EventTriggerConf): WebhookBody {
  return {
    id: e.id,
    created_at: e.created_at.toISOString(),
    trigger: { name: e.trigger_name },
    table: { schema: e.schema_name, name: e.table_name },
    event: { op: e.payload.op, data: e.payload.data, session_variables: e.payload.session_variables ?? null },
    delivery_info: { max_retries: conf.retry_conf.num_retries, current_retry: e.tries },
  };
}


/** The webhook URL: `webhook` with `{{VAR}}` templates filled from the environment, or `webhook_from_env`. */
export function webhookUrl(conf: EventTriggerConf, env: Env): string {
  if (conf.webhook_from_env !== undefined) {
    const v = env[conf.webhook_from_env];
    if (v === undefined) throw new Error(`environment variable '${conf.webhook_from_env}' not set`);
    return v;
  }
  return (conf.webhook ?? '').replace(/\{\{\s*([^}\s]+)\s*\}\}/g, (_, name: string) => {
    const v = env[name];
    if (v === undefined) throw new Error(`environment variable '${name}' not set`);
    return v;
  });
}

/** The configured headers (value or value_from_env), in order. */
export function configuredHeaders(conf: EventTriggerConf, env: Env): Array<{ name: string; value: string }> {
  return (conf.headers ?? []).map((h) => {
    if ('value' in h) return { name: h.name, value: h.value };
    const v = env[h.value_from_env];
    if (v === undefined) throw new Error(`environment variable '${h.value_from_env}' not set`);
    return { name: h.name, value: v };
  });
}

/** How one attempt ended: an HTTP response, or no response (connection error, timeout: status 1000). */
export type Outcome =
  | { kind: 'response'; status: number; body: string; headers: Array<{ name: string; value: string }> }
  | { kind: 'client_error'; message: string };

export const outcomeStatus = (o: Outcome): number => (o.kind === 'response' ? o.status : 1000);

export type Decision = { kind: 'delivered' } | { kind: 'retry'; delaySec: number } | { kind: 'error' };

/** `Retry-After: <seconds>` (a positive integer) on a failed response. */
export function retryAfter(o: Outcome): number | null {
  if (o.kind !== 'response') return null;
  const h = o.headers.find((x) => x.name.toLowerCase() === 'retry-after');
  if (!h || !/^\s*\d+\s*$/.test(h.value)) return null;
  const n = Number(h.value);
  return n > 0 ? n : null;
}

/**
 * The original's rule: any 2xx delivers; otherwise retry after interval_sec while tries (before this attempt) <
 * num_retries, else error; a Retry-After header schedules a retry after its seconds even when tries are used up.
 */
export function decide(o: Outcome, tries: number, retry: EventTriggerConf['retry_conf']): Decision {
  if (o.kind === 'response' && o.status >= 200 && o.status < 300) return { kind: 'delivered' };
  const after = retryAfter(o);
  if (after !== null) return { kind: 'retry', delaySec: after };
  if (tries < retry.num_retries) return { kind: 'retry', delaySec: retry.interval_sec };
  return { kind: 'error' };
}

export const timeoutMs = (conf: EventTriggerConf): number => 1000 * (conf.retry_conf.timeout_sec ?? DEFAULT_RETRY_CONF.timeout_sec);

type LoggedHeader = { name: string; value: string } | { name: string; value_from_env: string };

/**
 * The headers sent, as the invocation log records them: one whose value came from an environment variable shows
 * the variable (`value_from_env`), not its value, unless --log-headers-from-env (as the original).
 */
export function loggedHeaders(conf: EventTriggerConf, sent: Array<{ name: string; value: string }>, valuesFromEnv: boolean): LoggedHeader[] {
  if (valuesFromEnv) return sent;
  const fromEnv = new Map((conf.headers ?? []).flatMap((h) => ('value_from_env' in h ? [[h.name, h.value_from_env] as const] : [])));
  return sent.map((h) => {
    const variable = fromEnv.get(h.name);
    return variable === undefined ? h : { name: h.name, value_from_env: variable };
  });
}

/** event_invocation_logs.request / response, in the original's shape (version "2"). */
export function invocationRequest(body: WebhookBody, headers: LoggedHeader[]): unknown {
  return { payload: body, headers, version: '2' };
}

export function invocationResponse(o: Outcome): unknown {
  return o.kind === 'response'
    ? { type: 'webhook_response', data: { status: o.status, body: o.body, headers: o.headers }, version: '2' }
    : { type: 'client_error', data: { message: o.message }, version: '2' };
}

/** Triggers by name, from the metadata the instance serves. */
export type TriggerIndex = Map<string, { table: QualifiedName; conf: EventTriggerConf }>;
