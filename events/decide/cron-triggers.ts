// decide for create_cron_trigger / delete_cron_trigger (the stored shapes: events/cron-triggers.ts).
import { EngineError } from '../../src/core/errors.js';
import type { CronTriggerMeta } from '../cron-triggers.js';
import { cronTriggers, ev, type Event, type Metadata } from '../types.js';
import type { DecideContext } from './context.js';

export type CronTriggerCommand =
  | { op: 'create_cron_trigger'; trigger: CronTriggerMeta; replace: boolean }
  | { op: 'delete_cron_trigger'; name: string };

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
