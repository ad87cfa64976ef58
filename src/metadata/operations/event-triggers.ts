// Event triggers: create / delete (metadata commands), and redeliver_event / invoke_event_trigger, which act on
// engine_catalog.event_log rather than on metadata (src/triggers/manual-events.ts runs them).
import { z } from 'zod';
import { headerConf, nonEmptyText, tableName } from '../../../events/argument-shapes.js';
import { decideEventTrigger, parseInvokeArgs, parseRedeliverArgs, type EventTriggerCommand } from '../../../events/decide/event-triggers.js';
import { DEFAULT_RETRY_CONF, MAX_TRIGGER_NAME_LENGTH, opSpec, retryConf, storedDefinition, storedRetryConf, type EventTriggerConf } from '../../../events/event-triggers.js';
import { invokeEventTrigger, redeliverEvent } from '../../triggers/manual-events.js';
import { checkEventTriggerEnv } from '../io-checks.js';
import { command, type Cmd, type Operations } from './entry.js';

const NAME_RE = /^[A-Za-z]+[A-Za-z0-9_-]*$/;

/** The original's CreateEventTriggerQuery parser and its messages. */
const createEventTrigger = z
  .object({
    name: nonEmptyText,
    table: tableName,
    insert: opSpec.nullable().optional(),
    update: opSpec.nullable().optional(),
    delete: opSpec.nullable().optional(),
    enable_manual: z.boolean().nullable().optional(),
    retry_conf: retryConf.nullable().optional(),
    webhook: z.string().nullable().optional(),
    webhook_from_env: z.string().nullable().optional(),
    headers: z.array(headerConf).nullable().optional(),
    replace: z.boolean().nullable().optional(),
  })
  .superRefine((a, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, message });
    if (!NAME_RE.test(a.name)) return fail('only alphanumeric and underscore and hyphens allowed for name');
    if (a.name.length > MAX_TRIGGER_NAME_LENGTH) return fail(`event trigger name can be at most ${MAX_TRIGGER_NAME_LENGTH} characters`);
    if (a.insert == null && a.update == null && a.delete == null && a.enable_manual !== true) {
      return fail('atleast one amongst insert/update/delete/enable_manual spec must be provided');
    }
    const hooks = Number(a.webhook != null) + Number(a.webhook_from_env != null);
    if (hooks === 0) return fail('must provide webhook or webhook_from_env');
    if (hooks === 2) return fail('only one of webhook or webhook_from_env should be given');
    for (const spec of [a.insert, a.update, a.delete]) {
      if (spec && Array.isArray(spec.columns) && spec.columns.length === 0) return fail('found empty column specification');
      if (spec && Array.isArray(spec.payload) && spec.payload.length === 0) return fail('found empty payload specification');
    }
  })
  .transform((a): Cmd<EventTriggerCommand, 'create_event_trigger'> => {
    const trigger: EventTriggerConf = {
      name: a.name,
      definition: storedDefinition(a),
      retry_conf: a.retry_conf ? storedRetryConf(a.retry_conf) : { ...DEFAULT_RETRY_CONF },
      ...(a.webhook != null ? { webhook: a.webhook } : { webhook_from_env: a.webhook_from_env! }),
      ...(a.headers != null ? { headers: a.headers } : {}),
    };
    return { op: 'create_event_trigger', table: a.table, replace: a.replace ?? false, trigger };
  });

export const EVENT_TRIGGER_OPERATIONS: Operations = {
  create_event_trigger: command({
    versions: { 1: createEventTrigger },
    decide: decideEventTrigger,
    io: async (c, env) => checkEventTriggerEnv(c.table, c.trigger, env),
  }),
  delete_event_trigger: command({
    versions: {
      1: z
        .object({ name: nonEmptyText })
        .transform((a): Cmd<EventTriggerCommand, 'delete_event_trigger'> => ({ op: 'delete_event_trigger', name: a.name })),
    },
    decide: decideEventTrigger,
  }),
  redeliver_event: { kind: 'event_log', caller: 'admin', access: 'write', versions: { 1: parseRedeliverArgs }, run: (ctx, a) => redeliverEvent(ctx, a as { event_id: string }) },
  invoke_event_trigger: { kind: 'event_log', caller: 'admin', access: 'write', versions: { 1: parseInvokeArgs }, run: (ctx, a) => invokeEventTrigger(ctx, a as { name: string; payload: unknown }) },
};
