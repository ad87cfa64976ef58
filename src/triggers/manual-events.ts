// invoke_event_trigger and redeliver_event: /v1/query operations that act on engine_catalog.event_log (not on
// metadata), in the request's transaction. Their entries are in the operation table (metadata/operations.ts).
import type pg from 'pg';
import { EngineError } from '../core/errors.js';
import type { EngineState } from '../cache/state.js';
import { manualTrigger } from '../../events/decide/event-triggers.js';
import { EVENTS_CHANNEL } from './capture.js';

export interface EventLogOpContext {
  client: pg.ClientBase;
  state: EngineState;
  role: string;
  session?: { role: string; variables: Record<string, string> };
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The caller's session variables as the event records them (role included, names lower-cased). */
function sessionVariables(ctx: EventLogOpContext): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [k, v] of Object.entries(ctx.session?.variables ?? {})) vars[k.toLowerCase()] = v;
  vars['x-engine-role'] = ctx.session?.role ?? ctx.role;
  return vars;
}

/** A MANUAL event whose `data` is the given payload exactly (the console sends {old: null, new: row}). */
export async function invokeEventTrigger(ctx: EventLogOpContext, a: { name: string; payload: unknown }): Promise<unknown> {
  const { table, trigger } = manualTrigger(ctx.state.metadata, a.name);
  const r = await ctx.client.query<{ id: string }>(
    `INSERT INTO engine_catalog.event_log_rows (schema_name, table_name, trigger_name, payload)
     VALUES ($1, $2, $3, jsonb_build_object('op', 'MANUAL', 'data', $4::jsonb, 'session_variables', $5::jsonb))
     RETURNING id`,
    [table.schema, table.name, trigger.name, JSON.stringify(a.payload ?? null), JSON.stringify(sessionVariables(ctx))],
  );
  await ctx.client.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, '']);
  return { event_id: r.rows[0].id };
}

/** Makes an event pending again with its tries reset, so the trigger's retry_conf applies afresh. */
export async function redeliverEvent(ctx: EventLogOpContext, a: { event_id: string }): Promise<unknown> {
  const notFound = () => new EngineError('not-exists', 'event not found', { path: '$.args' });
  if (!UUID_RE.test(a.event_id)) throw notFound();
  // An event still in its capture batch is expanded into its row first (Note [Event batches]).
  await ctx.client.query('SELECT engine_catalog.expand_event_batches(1, $1)', [a.event_id]);
  const r = await ctx.client.query<{ locked: Date | null }>('SELECT locked FROM engine_catalog.event_log_rows WHERE id = $1 FOR UPDATE', [a.event_id]);
  if (r.rows.length === 0) throw notFound();
  if (r.rows[0].locked !== null) throw new EngineError('busy', 'event is already being processed', { path: '$.args' });
  await ctx.client.query(
    `UPDATE engine_catalog.event_log_rows SET delivered = false, error = false, tries = 0, next_retry_at = NULL WHERE id = $1`,
    [a.event_id],
  );
  await ctx.client.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, '']);
  return { message: 'success' };
}
