// Event triggers as metadata: decide for create_event_trigger / delete_event_trigger (the stored shape is in
// events/event-triggers.ts), and the args and pure checks of redeliver_event / invoke_event_trigger, which act on
// engine_catalog.event_log rather than on metadata (src/triggers/manual-events.ts runs them).
import { z } from 'zod';
import { EngineError } from '../../src/core/errors.js';
import { qualifiedKey, quote as q, quoteName as qt, type QualifiedName } from '../../src/core/names.js';
import { decode, nonEmptyText } from '../argument-shapes.js';
import type { EventTriggerConf } from '../event-triggers.js';
import { ev, eventTriggers, type Event, type Metadata } from '../types.js';
import { trackedTable, type DecideContext } from './context.js';
import type { Env } from '../../src/core/env.js';

// redeliver_event's and invoke_event_trigger's args
const redeliverArgs = z.object({ event_id: z.string() });
const invokeArgs = z.object({ name: nonEmptyText, payload: z.unknown() }).superRefine((a, ctx) => {
  if (a.payload === undefined) ctx.addIssue({ code: z.ZodIssueCode.invalid_type, expected: 'object', received: 'undefined', path: ['payload'] });
});

export type EventTriggerCommand =
  | { op: 'create_event_trigger'; table: QualifiedName; replace: boolean; trigger: EventTriggerConf }
  | { op: 'delete_event_trigger'; name: string };

/** redeliver_event's args. */
export const parseRedeliverArgs = (raw: unknown): { event_id: string } => decode(redeliverArgs, raw);
/** invoke_event_trigger's args (payload is required, any JSON). */
export const parseInvokeArgs = (raw: unknown): { name: string; payload: unknown } => decode(invokeArgs, raw) as { name: string; payload: unknown };

// ---------------------------------------------------------------------------------------------------------------
// decide

const findTrigger = (m: Metadata, name: string) => eventTriggers(m).find((x) => x.trigger.name === name);

export function decideEventTrigger(cmd: EventTriggerCommand, ctx: DecideContext): Event[] {
  const m = ctx.metadata;
  switch (cmd.op) {
    case 'create_event_trigger': {
      trackedTable(m, cmd.table);
      const existing = findTrigger(m, cmd.trigger.name);
      if (cmd.replace) {
        if (!existing) throw new EngineError('not-exists', `event trigger ${q(cmd.trigger.name)} does not exist`, { path: '$.args' });
        if (qualifiedKey(existing.table) !== qualifiedKey(cmd.table)) {
          throw new EngineError('not-supported', 'cannot replace table or schema for trigger', { path: '$.args' });
        }
      } else if (existing) {
        // The original's catalog insert hits the primary key.
        throw new EngineError('unexpected', 'database query error', { status: 500, path: '$.args' });
      }
      const pg = ctx.catalog.tables[qualifiedKey(cmd.table)];
      for (const k of ['insert', 'update', 'delete'] as const) {
        const cols = cmd.trigger.definition[k]?.columns;
        if (!Array.isArray(cols)) continue;
        for (const c of cols) {
          if (!pg?.columns.some((x) => x.name === c)) throw new EngineError('not-exists', `column ${q(c)} does not exist`, { path: '$.args' });
        }
      }
      return [ev('event_trigger_created', { table: cmd.table, trigger: cmd.trigger })];
    }
    case 'delete_event_trigger':
      // The original does not check that the trigger exists.
      return findTrigger(m, cmd.name) ? [ev('event_trigger_deleted', { name: cmd.name })] : [];
  }
}

/** invoke_event_trigger's checks: the trigger exists and allows manual invocation. */
export function manualTrigger(m: Metadata, name: string): { table: QualifiedName; trigger: EventTriggerConf } {
  const found = findTrigger(m, name);
  if (!found) throw new EngineError('not-exists', `event trigger ${q(name)} does not exist`, { path: '$.args' });
  if (!found.trigger.definition.enable_manual) {
    throw new EngineError('not-supported', 'manual mode is not enabled for event trigger', { path: '$.args' });
  }
  return found;
}

/**
 * The rebuild-time check of a trigger's environment (webhook_from_env and header value_from_env must be set): the
 * original reports it as an inconsistency of the new trigger, so it is a constraint-violation. `env` is passed in
 * to keep this pure.
 */
export function eventTriggerEnvError(table: QualifiedName, trigger: EventTriggerConf, env: Env): EngineError | null {
  const vars = [
    ...(trigger.webhook_from_env !== undefined ? [trigger.webhook_from_env] : []),
    ...(trigger.headers ?? []).flatMap((h) => ('value_from_env' in h ? [h.value_from_env] : [])),
  ];
  const missing = vars.find((v) => env[v] === undefined);
  if (missing === undefined) return null;
  const reason = `in table ${qt(table)}: in event trigger ${q(trigger.name)}: environment variable '${missing}' not set`;
  return new EngineError('constraint-violation', reason, {
    path: '$.args',
    internal: [{ definition: { ...trigger, table: { schema: table.schema, name: table.name } }, reason, type: 'event_trigger' }],
  });
}
