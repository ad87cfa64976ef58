// Scheduled triggers: create / delete cron triggers (metadata commands; src/scheduled keeps their catalog rows and
// events in step) and create_scheduled_event, which writes a one-off event (not metadata) in the request's
// transaction.
import { z } from 'zod';
import { nonEmptyText, optionalBool } from '../../../events/argument-shapes.js';
import { cronTriggerFields, cronTriggerMeta } from '../../../events/cron-triggers.js';
import { decideCronTrigger, type CronTriggerCommand } from '../../../events/decide/cron-triggers.js';
import { parseScheduledEventArgs, type ScheduledEventArgs } from '../../../events/decide/scheduled-events.js';
import { cronTriggerId } from '../../scheduled/check.js';
import { createScheduledEvent } from '../../scheduled/ops.js';
import { command, object, type Cmd, type Operations } from './entry.js';

/** The original's CreateCronTrigger parser: a CronTriggerMetadata and `replace`. */
const createCronTrigger = z
  .object({ ...cronTriggerFields, replace: optionalBool })
  .transform((a): Cmd<CronTriggerCommand, 'create_cron_trigger'> => ({ op: 'create_cron_trigger', trigger: cronTriggerMeta(a), replace: a.replace ?? false }));

export const SCHEDULED_TRIGGER_OPERATIONS: Operations = {
  create_cron_trigger: command({
    versions: { 1: createCronTrigger },
    decide: decideCronTrigger,
    // A trigger whose webhook or headers name an unset environment variable is refused (src/scheduled/check.ts).
    check: (c) => object(cronTriggerId(c.trigger.name)),
  }),
  delete_cron_trigger: command({
    versions: {
      1: z.object({ name: nonEmptyText }).transform((a): Cmd<CronTriggerCommand, 'delete_cron_trigger'> => ({ op: 'delete_cron_trigger', name: a.name })),
    },
    decide: decideCronTrigger,
  }),
  create_scheduled_event: {
    kind: 'event_log',
    caller: 'admin',
    access: 'write',
    versions: { 1: parseScheduledEventArgs },
    run: (ctx, a) => createScheduledEvent(ctx.client, a as ScheduledEventArgs),
  },
};
