// create_scheduled_event's args (the original's CreateScheduledEvent). A one-off event is not metadata: it is a row
// of engine_catalog.hdb_scheduled_events, written by src/scheduled/ops.ts in the request's transaction.
import { z } from 'zod';
import { comment, decode, headerConf, type HeaderConf } from '../argument-shapes.js';
import { DEFAULT_ST_RETRY_CONF, stRetryConf, type STRetryConf } from '../cron-triggers.js';

// ISO 8601 as the original's UTCTime parser takes it: a date, `T` or a space, hours and minutes, optional seconds
// and fraction, and an optional zone (none: UTC).
const TIMESTAMP_RE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** The timestamp with an explicit zone (Postgres would read a bare one in the session's zone), or null when invalid. */
export function utcTimestamp(text: string): string | null {
  const m = TIMESTAMP_RE.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0'] = m;
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  const valid = date.getUTCFullYear() === Number(y) && date.getUTCMonth() === Number(mo) - 1 && date.getUTCDate() === Number(d)
    && Number(h) < 24 && Number(mi) < 60 && Number(s) < 60;
  if (!valid) return null;
  return m[8] === undefined ? `${text.trim()}Z` : text.trim();
}

const scheduleAt = z.string().transform((s, ctx) => {
  const ts = utcTimestamp(s);
  if (ts === null) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `could not parse timestamp: "${s}" (expected ISO 8601, e.g. 2020-01-01T00:00:00Z)` });
    return z.NEVER;
  }
  return ts;
});

export interface ScheduledEventArgs {
  webhook: string;
  schedule_at: string;
  payload: unknown;
  headers: HeaderConf[];
  retry_conf: STRetryConf;
  comment: string | null;
}

const args = z
  .object({
    webhook: z.string(),
    schedule_at: scheduleAt,
    payload: z.unknown().optional(),
    headers: z.array(headerConf).nullable().optional(),
    retry_conf: stRetryConf.nullable().optional(),
    comment,
  })
  .transform((a): ScheduledEventArgs => ({
    webhook: a.webhook,
    schedule_at: a.schedule_at,
    payload: a.payload ?? null,
    headers: a.headers ?? [],
    retry_conf: a.retry_conf ?? { ...DEFAULT_ST_RETRY_CONF },
    comment: a.comment ?? null,
  }));

export const parseScheduledEventArgs = (raw: unknown): ScheduledEventArgs => decode(args, raw);
