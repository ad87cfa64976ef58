// Event triggers as metadata: create_event_trigger / delete_event_trigger (stored per table in the export's
// EventTriggerConf shape), and the args and pure checks of redeliver_event / invoke_event_trigger, which act on
// engine_catalog.event_log rather than on metadata (src/triggers/ops.ts runs them).
import { z } from 'zod';
import { EngineError } from '../../src/core/errors.js';
import { qualifiedKey, type QualifiedName } from '../../src/core/names.js';
import { decode, headerConf, nonEmptyText, tableName, type HeaderConf } from '../commands.js';
import { ev, type Event, type Metadata } from '../types.js';
import { q, qt, trackedTable, type DecideContext } from './common.js';

// ---------------------------------------------------------------------------------------------------------------
// Args (the original's CreateEventTriggerQuery parser and its messages)

const NAME_RE = /^[A-Za-z]+[A-Za-z0-9_-]*$/;
export const MAX_TRIGGER_NAME_LENGTH = 42;

const subColumns = z.union([z.literal('*'), z.array(z.string())]);
const opSpec = z.object({ columns: subColumns, payload: subColumns.nullable().optional() });

const retryConf = z.object({
  num_retries: z.number().int(),
  interval_sec: z.number().int(),
  timeout_sec: z.number().int().nullable().optional(),
});

const createArgs = z
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
  });

const nameArgs = z.object({ name: nonEmptyText });
const redeliverArgs = z.object({ event_id: z.string() });
const invokeArgs = z.object({ name: nonEmptyText, payload: z.unknown() }).superRefine((a, ctx) => {
  if (a.payload === undefined) ctx.addIssue({ code: z.ZodIssueCode.invalid_type, expected: 'object', received: 'undefined', path: ['payload'] });
});

// ---------------------------------------------------------------------------------------------------------------
// Stored shape: the export's EventTriggerConf

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

export type EventTriggerCommand =
  | { op: 'create_event_trigger'; table: QualifiedName; replace: boolean; trigger: EventTriggerConf }
  | { op: 'delete_event_trigger'; name: string };

/** redeliver_event's args. */
export const parseRedeliverArgs = (raw: unknown): { event_id: string } => decode(redeliverArgs, raw);
/** invoke_event_trigger's args (payload is required, any JSON). */
export const parseInvokeArgs = (raw: unknown): { name: string; payload: unknown } => decode(invokeArgs, raw) as { name: string; payload: unknown };

const spec = (s: { columns: '*' | string[]; payload?: '*' | string[] | null } | null | undefined): OpSpec | undefined =>
  s == null ? undefined : { columns: s.columns, ...(s.payload != null ? { payload: s.payload } : {}) };

/** Parses one of the event-trigger operations; null for other types. */
export function parseEventTriggerCommand(type: string, raw: unknown): EventTriggerCommand | null {
  switch (type) {
    case 'create_event_trigger': {
      const a = decode(createArgs, raw);
      const definition: EventTriggerConf['definition'] = { enable_manual: a.enable_manual ?? false };
      for (const k of ['insert', 'update', 'delete'] as const) {
        const s = spec(a[k]);
        if (s) definition[k] = s;
      }
      const rc = a.retry_conf;
      const trigger: EventTriggerConf = {
        name: a.name,
        definition: { ...(definition.insert ? { insert: definition.insert } : {}), ...(definition.update ? { update: definition.update } : {}), ...(definition.delete ? { delete: definition.delete } : {}), enable_manual: definition.enable_manual },
        retry_conf: rc ? { num_retries: rc.num_retries, interval_sec: rc.interval_sec, ...(rc.timeout_sec != null ? { timeout_sec: rc.timeout_sec } : {}) } : { ...DEFAULT_RETRY_CONF },
        ...(a.webhook != null ? { webhook: a.webhook } : { webhook_from_env: a.webhook_from_env! }),
        ...(a.headers != null ? { headers: a.headers } : {}),
      };
      return { op: 'create_event_trigger', table: a.table, replace: a.replace ?? false, trigger };
    }
    case 'delete_event_trigger':
      return { op: 'delete_event_trigger', name: decode(nameArgs, raw).name };
    default:
      return null;
  }
}

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
    const d = t.definition;
    return {
      name: t.name,
      definition: {
        ...(d.insert ? { insert: spec(d.insert) } : {}),
        ...(d.update ? { update: spec(d.update) } : {}),
        ...(d.delete ? { delete: spec(d.delete) } : {}),
        enable_manual: d.enable_manual ?? false,
      },
      retry_conf: {
        num_retries: t.retry_conf.num_retries,
        interval_sec: t.retry_conf.interval_sec,
        ...(t.retry_conf.timeout_sec != null ? { timeout_sec: t.retry_conf.timeout_sec } : {}),
      },
      ...(t.webhook != null ? { webhook: t.webhook } : {}),
      ...(t.webhook_from_env != null ? { webhook_from_env: t.webhook_from_env } : {}),
      ...(t.headers != null ? { headers: t.headers } : {}),
    };
  });

// ---------------------------------------------------------------------------------------------------------------
// decide

/** Every stored trigger with its table. */
export function eventTriggers(m: Metadata): Array<{ table: QualifiedName; trigger: EventTriggerConf }> {
  return Object.values(m.tables).flatMap((t) => (t.event_triggers as EventTriggerConf[]).map((trigger) => ({ table: t.table, trigger })));
}

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
export function eventTriggerEnvError(table: QualifiedName, trigger: EventTriggerConf, env: Record<string, string | undefined>): EngineError | null {
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
