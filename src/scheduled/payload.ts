// Pure parts of scheduled deliveries: a claimed event with its delivery settings (a cron event takes its trigger's
// from the metadata, a one-off event carries its own), the webhook body as the original sends it, the URL and
// headers resolved from the environment, the outcome of an attempt (the event triggers' rule) and the invocation
// log's JSON (the original's version "1" for scheduled events).
import { resolveUrlTemplate } from '../cache/build.js';
import type { HeaderConf } from '../../events/argument-shapes.js';
import { DEFAULT_ST_RETRY_CONF, type CronTriggerMeta, type STRetryConf } from '../../events/cron-triggers.js';
import { decide as retryDecision, outcomeStatus, type Outcome } from '../triggers/payload.js';

export type ScheduledKind = 'cron' | 'one_off';

/** An event row as claimed (store.ts): times already formatted as the original writes them. */
export interface ClaimedRow {
  kind: ScheduledKind;
  id: string;
  /** The cron trigger's name (null for one-off events). */
  trigger_name: string | null;
  scheduled_time: string;
  /** One-off events only. */
  created_at: string | null;
  /** Epoch ms of the time the attempt was due (scheduled_time, or next_retry_at for a retry). */
  due_ms: number;
  /** Seconds from scheduled_time to the claim, on the database's clock. */
  age_s: number;
  tries: number;
  /** One-off events: their own settings. */
  webhook_conf: string | null;
  header_conf: HeaderConf[] | null;
  retry_conf: Partial<STRetryConf> | null;
  payload: unknown;
  comment: string | null;
}

/** What one delivery needs. */
export interface ScheduledDelivery {
  row: ClaimedRow;
  webhook: string;
  headers: HeaderConf[];
  retry: STRetryConf;
  body: ScheduledWebhookBody;
}

export interface ScheduledWebhookBody {
  id: string;
  name?: string;
  scheduled_time: string;
  payload: unknown;
  comment?: string;
  created_at?: string;
}

/** A Postgres `YYYY-MM-DDTHH24:MI:SS.US` text as the original's JSON writes UTC times (fraction trimmed, then Z). */
export const utcText = (pgText: string): string => `${pgText.replace(/\.?0+$/, '')}Z`;

/** The delivery of a claimed row; null for a cron event whose trigger this instance does not know (any more). */
export function deliveryOf(row: ClaimedRow, crons: ReadonlyMap<string, CronTriggerMeta>): ScheduledDelivery | null {
  if (row.kind === 'cron') {
    const t = crons.get(row.trigger_name ?? '');
    if (!t) return null;
    const body: ScheduledWebhookBody = { id: row.id, name: t.name, scheduled_time: row.scheduled_time, payload: t.payload ?? null };
    if (t.comment !== undefined) body.comment = t.comment;
    return { row, webhook: t.webhook, headers: t.headers, retry: t.retry_conf, body };
  }
  const body: ScheduledWebhookBody = { id: row.id, scheduled_time: row.scheduled_time, payload: row.payload ?? null };
  if (row.comment !== null) body.comment = row.comment;
  if (row.created_at !== null) body.created_at = row.created_at;
  return { row, webhook: row.webhook_conf ?? '', headers: row.header_conf ?? [], retry: { ...DEFAULT_ST_RETRY_CONF, ...(row.retry_conf ?? {}) }, body };
}

export type Env = Record<string, string | undefined>;

/** The webhook URL with its `{{VAR}}` templates filled in; throws naming the variables that are not set. */
export function webhookUrl(template: string, env: Env): string {
  const r = resolveUrlTemplate(template, env as NodeJS.ProcessEnv);
  if (typeof r !== 'string') throw new Error(`Value for environment variables not found: ${r.missing.join(', ')}`);
  return r;
}

/** The configured headers with their values (value_from_env read now); throws when a variable is not set. */
export function headerValues(headers: HeaderConf[], env: Env): Array<{ name: string; value: string }> {
  return headers.map((h) => {
    if ('value' in h) return { name: h.name, value: h.value };
    const v = env[h.value_from_env];
    if (v === undefined) throw new Error(`environment variable '${h.value_from_env}' not set`);
    return { name: h.name, value: v };
  });
}

/** The stored outcome of an attempt: delivered, error (no tries left), or scheduled again after `retryIn` seconds. */
export type Settled = { status: 'delivered' | 'error' } | { status: 'scheduled'; retryIn: number };

/** The original's rule (as for event triggers): 2xx delivers; Retry-After, then num_retries, decide a retry. */
export function settle(outcome: Outcome, tries: number, retry: STRetryConf): Settled {
  const d = retryDecision(outcome, tries, { num_retries: retry.num_retries, interval_sec: retry.retry_interval_seconds });
  return d.kind === 'retry' ? { status: 'scheduled', retryIn: d.delaySec } : { status: d.kind };
}

/** An event older than its tolerance when claimed is marked dead without a call (the original's processDead). */
export const isDead = (d: ScheduledDelivery): boolean => d.row.age_s > d.retry.tolerance_seconds;

/**
 * The invocation log's request: the body, and the headers sent as configured; a header from the environment is
 * logged by its variable's name, not its value (the original's decodeHeader), so no secret lands in the catalog.
 */
export function invocationRequest(d: ScheduledDelivery, userAgent: string): unknown {
  return { payload: d.body, headers: [{ name: 'User-Agent', value: userAgent }, ...d.headers], version: '1' };
}

export function invocationResponse(o: Outcome): unknown {
  return o.kind === 'response'
    ? { type: 'webhook_response', data: { status: o.status, body: o.body, headers: o.headers }, version: '1' }
    : { type: 'client_error', data: { message: o.message }, version: '1' };
}

export { outcomeStatus };
