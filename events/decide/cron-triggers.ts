// Cron triggers as metadata: the stored shape (the export's CronTriggerMetadata), the argument shapes shared by
// create_cron_trigger (src/metadata/operations/scheduled-triggers.ts) and replace_metadata, and decide for
// create_cron_trigger / delete_cron_trigger. Their events (engine_catalog.hdb_cron_events) are written by
// src/scheduled, which keeps the catalog equal to these definitions.
import { z } from 'zod';
import { EngineError } from '../../src/core/errors.js';
import { cronScheduleError } from '../../src/core/cron-schedule.js';
import { comment, headerConf, nonEmptyText, type HeaderConf } from '../commands.js';
import { ev, type Event, type Metadata } from '../types.js';
import type { DecideContext } from './common.js';

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

export type CronTriggerCommand =
  | { op: 'create_cron_trigger'; trigger: CronTriggerMeta; replace: boolean }
  | { op: 'delete_cron_trigger'; name: string };

export const cronTriggers = (m: Metadata): CronTriggerMeta[] => m.cron_triggers as CronTriggerMeta[];

const findCronTrigger = (m: Metadata, name: string): CronTriggerMeta | undefined => cronTriggers(m).find((c) => c.name === name);

const notExists = (name: string) => new EngineError('not-exists', `cron trigger with name: ${name} does not exist`, { path: '$.args' });

export function decideCronTrigger(cmd: CronTriggerCommand, ctx: DecideContext): Event[] {
  const m = ctx.metadata;
  switch (cmd.op) {
    case 'create_cron_trigger': {
      const existing = findCronTrigger(m, cmd.trigger.name);
      if (cmd.replace) {
        if (!existing) throw notExists(cmd.trigger.name);
        return [ev('cron_trigger_updated', { trigger: cmd.trigger })];
      }
      if (existing) throw new EngineError('already-exists', `cron trigger with name: ${cmd.trigger.name} already exists`, { path: '$.args' });
      return [ev('cron_trigger_created', { trigger: cmd.trigger })];
    }
    case 'delete_cron_trigger':
      if (!findCronTrigger(m, cmd.name)) throw notExists(cmd.name);
      return [ev('cron_trigger_deleted', { name: cmd.name })];
  }
}
