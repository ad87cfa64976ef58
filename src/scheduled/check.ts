// The cache check of cron triggers (wired in by src/features.ts): a trigger whose webhook template or header names
// an environment variable that is not set is an inconsistent object, with the original's `in cron trigger <n>: `
// prefix. create_cron_trigger refuses such a trigger (constraint-violation), replace_metadata too (strict), and
// drop_inconsistent_metadata removes it.
import type { CacheCheck } from '../cache/build.js';
import type { InconsistentObject } from '../cache/types.js';
import type { CronTriggerMeta } from '../../events/cron-triggers.js';
import { cronTriggers } from '../../events/types.js';
import { exportCronTrigger } from '../../projections/export.js';
import { headerValues, webhookUrl, type Env } from './payload.js';

export const cronTriggerId = (name: string): string => JSON.stringify(['cron_trigger', name]);

/** What is wrong with a trigger's environment, if anything (the webhook first, then the headers). */
export function cronTriggerEnvProblem(c: CronTriggerMeta, env: Env): string | null {
  try {
    webhookUrl(c.webhook, env);
    headerValues(c.headers, env);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

export const cronTriggerCheck: CacheCheck = (metadata) =>
  cronTriggers(metadata).flatMap((c): InconsistentObject[] => {
    const problem = cronTriggerEnvProblem(c, process.env);
    return problem === null ? [] : [{ type: 'cron_trigger', definition: exportCronTrigger(c), reason: `in cron trigger ${c.name}: ${problem}`, id: cronTriggerId(c.name) }];
  });
