// Event triggers as metadata stores them (the export's EventTriggerConf) and the shapes that build them, shared by
// create_event_trigger's args (src/metadata/operations/event-triggers.ts), replace_metadata and the export.
import { z } from 'zod';
import { headerConf, nonEmptyText, pickedUnion, stringFirst, type HeaderConf } from './argument-shapes.js';

export const MAX_TRIGGER_NAME_LENGTH = 42;

const subColumns = pickedUnion([z.literal('*'), z.array(z.string())], stringFirst);
export const opSpec = z.object({ columns: subColumns, payload: subColumns.nullable().optional() });

export const retryConf = z.object({
  num_retries: z.number().int(),
  interval_sec: z.number().int(),
  timeout_sec: z.number().int().nullable().optional(),
});

export interface OpSpec {
  columns: '*' | string[];
  payload?: '*' | string[];
}

export interface EventTriggerConf {
  name: string;
  definition: { insert?: OpSpec; update?: OpSpec; delete?: OpSpec; enable_manual: boolean };
  retry_conf: { num_retries: number; interval_sec: number; timeout_sec?: number };
  webhook?: string;
  webhook_from_env?: string;
  headers?: HeaderConf[];
}

export const DEFAULT_RETRY_CONF = { num_retries: 0, interval_sec: 10, timeout_sec: 60 };

/** An operation's spec as stored: a null payload left out. */
const opSpecOf = (s: z.output<typeof opSpec> | null | undefined): OpSpec | undefined =>
  s == null ? undefined : { columns: s.columns, ...(s.payload != null ? { payload: s.payload } : {}) };

type ParsedDefinition = { [K in 'insert' | 'update' | 'delete']?: z.output<typeof opSpec> | null } & { enable_manual?: boolean | null };

/** A definition as stored and exported: the operations given (insert, update, delete, in that order), enable_manual. */
export const storedDefinition = (d: ParsedDefinition): EventTriggerConf['definition'] => ({
  ...(d.insert ? { insert: opSpecOf(d.insert) } : {}),
  ...(d.update ? { update: opSpecOf(d.update) } : {}),
  ...(d.delete ? { delete: opSpecOf(d.delete) } : {}),
  enable_manual: d.enable_manual ?? false,
});

/** retry_conf as stored and exported: a null timeout left out. */
export const storedRetryConf = (rc: z.output<typeof retryConf>): EventTriggerConf['retry_conf'] =>
  ({ num_retries: rc.num_retries, interval_sec: rc.interval_sec, ...(rc.timeout_sec != null ? { timeout_sec: rc.timeout_sec } : {}) });

/** A trigger as replace_metadata reads it (the export's EventTriggerConf; retry_conf is required there). */
export const storedEventTrigger = z
  .object({
    name: nonEmptyText,
    definition: z.object({
      insert: opSpec.nullable().optional(),
      update: opSpec.nullable().optional(),
      delete: opSpec.nullable().optional(),
      enable_manual: z.boolean().nullable().optional(),
    }),
    retry_conf: retryConf,
    webhook: z.string().nullable().optional(),
    webhook_from_env: z.string().nullable().optional(),
    headers: z.array(headerConf).nullable().optional(),
  })
  .transform((t): EventTriggerConf => {
    return {
      name: t.name,
      definition: storedDefinition(t.definition),
      retry_conf: storedRetryConf(t.retry_conf),
      ...(t.webhook != null ? { webhook: t.webhook } : {}),
      ...(t.webhook_from_env != null ? { webhook_from_env: t.webhook_from_env } : {}),
      ...(t.headers != null ? { headers: t.headers } : {}),
    };
  });
