// evolve for cron triggers (called from evolve.ts's switch, inside its immer draft): the list keeps creation order;
// replacing a trigger keeps its place.
import type { Draft } from 'immer';
import type { EventOf, Metadata } from '../events/types.js';
import type { CronTriggerMeta } from '../events/cron-triggers.js';

export type CronTriggerEvent = EventOf<'cron_trigger_created' | 'cron_trigger_updated' | 'cron_trigger_deleted'>;

const list = (draft: Draft<Metadata>) => draft.cron_triggers as Draft<CronTriggerMeta>[];

export function applyCronTriggerEvent(draft: Draft<Metadata>, event: CronTriggerEvent): void {
  switch (event.type) {
    case 'cron_trigger_created':
    case 'cron_trigger_updated': {
      const trigger = structuredClone(event.data.trigger);
      const i = list(draft).findIndex((c) => c.name === trigger.name);
      if (i >= 0) list(draft)[i] = trigger;
      else list(draft).push(trigger);
      return;
    }
    case 'cron_trigger_deleted':
      draft.cron_triggers = list(draft).filter((c) => c.name !== event.data.name);
      return;
  }
}

/** The cron triggers clear_metadata leaves: those not included in the metadata (as the original's clear). */
export const keptCronTriggers = (draft: Draft<Metadata>): Draft<CronTriggerMeta>[] => list(draft).filter((c) => !c.include_in_metadata);
