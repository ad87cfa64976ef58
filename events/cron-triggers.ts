// Cron triggers as metadata stores them (the export's CronTriggerMetadata) and the shapes that build them, shared by
// create_cron_trigger (src/metadata/operations/scheduled-triggers.ts), replace_metadata and the export. Their events
// (engine_catalog.hdb_cron_events) are written by src/scheduled, which keeps the catalog equal to these definitions.
import { z } from 'zod';
import { cronScheduleError } from '../src/core/cron-schedule.js';
import { comment, headerConf, nonEmptyText, type HeaderConf } from './argument-shapes.js';

/** retry_conf of cron triggers and one-off scheduled events (the original's STRetryConf), seconds throughout. */
export interface STRetryConf {
  num_retries: number;
  retry_interval_seconds: number;
  timeout_seconds: number;
  tolerance_seconds: number;
}

export const DEFAULT_ST_RETRY_CONF: Readonly<STRetryConf> = { num_retries: 0, retry_interval_seconds: 10, timeout_seconds: 60, tolerance_seconds: 21600 };

const nonNegativeSeconds = z.number().refine((n) => n >= 0, { message: 'negative value not allowed' });

/** The original's STRetryConf parser: every key optional (its default), num_retries not negative. */
export const stRetryConf = z
  .object({
    num_retries: z.number().int().nullable().optional(),
    retry_interval_seconds: nonNegativeSeconds.nullable().optional(),
    timeout_seconds: nonNegativeSeconds.nullable().optional(),
    tolerance_seconds: nonNegativeSeconds.nullable().optional(),
  })
  .superRefine((r, ctx) => {
    if (r.num_retries != null && r.num_retries < 0) ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'num_retries cannot be a negative value' });
  })
  .transform((r): STRetryConf => ({
    num_retries: r.num_retries ?? DEFAULT_ST_RETRY_CONF.num_retries,
    retry_interval_seconds: r.retry_interval_seconds ?? DEFAULT_ST_RETRY_CONF.retry_interval_seconds,
    timeout_seconds: r.timeout_seconds ?? DEFAULT_ST_RETRY_CONF.timeout_seconds,
    tolerance_seconds: r.tolerance_seconds ?? DEFAULT_ST_RETRY_CONF.tolerance_seconds,
  }));

export const sameRetryConf = (a: STRetryConf, b: STRetryConf): boolean =>
  a.num_retries === b.num_retries && a.retry_interval_seconds === b.retry_interval_seconds
  && a.timeout_seconds === b.timeout_seconds && a.tolerance_seconds === b.tolerance_seconds;

/** A cron expression (src/core/cron-schedule.ts says which the original accepts). */
export const cronSchedule = z.string().superRefine((s, ctx) => {
  const error = cronScheduleError(s);
  if (error) ctx.addIssue({ code: z.ZodIssueCode.custom, message: error });
});

/** A cron trigger as stored and exported; payload and comment are left out when absent. */
export interface CronTriggerMeta {
  name: string;
  webhook: string;
  schedule: string;
  payload?: unknown;
  retry_conf: STRetryConf;
  headers: HeaderConf[];
  include_in_metadata: boolean;
  comment?: string;
}

/** The fields of create_cron_trigger's args and of an export's cron trigger (the original's CronTriggerMetadata). */
export const cronTriggerFields = {
  name: nonEmptyText,
  webhook: z.string(),
  schedule: cronSchedule,
  payload: z.unknown().optional(),
  retry_conf: stRetryConf.nullable().optional(),
  headers: z.array(headerConf).nullable().optional(),
  include_in_metadata: z.boolean(),
  comment,
};

type ParsedCronTrigger = z.output<z.ZodObject<typeof cronTriggerFields>>;

/** Parsed fields as stored: defaults filled in, a null payload or comment left out. */
export const cronTriggerMeta = (a: ParsedCronTrigger): CronTriggerMeta => ({
  name: a.name,
  webhook: a.webhook,
  schedule: a.schedule,
  ...(a.payload != null ? { payload: a.payload } : {}),
  retry_conf: a.retry_conf ?? { ...DEFAULT_ST_RETRY_CONF },
  headers: a.headers ?? [],
  include_in_metadata: a.include_in_metadata,
  ...(a.comment != null ? { comment: a.comment } : {}),
});

/** A cron trigger as replace_metadata reads it. */
export const storedCronTrigger = z.object(cronTriggerFields).transform(cronTriggerMeta);

