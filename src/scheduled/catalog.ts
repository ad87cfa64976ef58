// Keeps engine_catalog.hdb_cron_triggers equal to the metadata's cron triggers, inside the caller's transaction,
// and their events generated: a new trigger gets its next 100 occurrences, a changed one (create_cron_trigger with
// replace, replace_metadata) loses its unstarted future events and gets 100 new ones, a removed one loses its
// events (ON DELETE CASCADE). Every path that changes metadata (metadata writes, history replay, start-up)
// converges by calling this, as event triggers do with their capture triggers. The generator tops every trigger up
// to 100 upcoming events as they are delivered.
import type pg from 'pg';
import { nextOccurrences } from '../core/cron-schedule.js';
import type { CronTriggerMeta } from '../../events/cron-triggers.js';
import { cronTriggers } from '../../events/types.js';
import type { Metadata } from '../../projections/metadata.js';
import { SCHEDULED_CHANNEL } from './store.js';

/** Upcoming events kept per cron trigger (the original's number). */
export const UPCOMING_EVENTS = 100;

const catalogRow = (c: CronTriggerMeta) => ({
  name: c.name,
  webhook_conf: c.webhook,
  cron_schedule: c.schedule,
  payload: c.payload ?? null,
  retry_conf: c.retry_conf,
  header_conf: c.headers,
  include_in_metadata: c.include_in_metadata,
  comment: c.comment ?? null,
});

/** Brings hdb_cron_triggers and the triggers' events in line with `metadata`. */
export async function reconcileCronTriggers(client: pg.ClientBase, metadata: Metadata): Promise<void> {
  const triggers = cronTriggers(metadata);
  const r = await client.query<{ name: string; inserted: boolean }>(
    `WITH w AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS w(name text, webhook_conf jsonb, cron_schedule text, payload jsonb,
         retry_conf jsonb, header_conf jsonb, include_in_metadata boolean, comment text)),
     gone AS (
       DELETE FROM engine_catalog.hdb_cron_triggers t WHERE NOT EXISTS (SELECT 1 FROM w WHERE w.name = t.name))
     INSERT INTO engine_catalog.hdb_cron_triggers AS t
       (name, webhook_conf, cron_schedule, payload, retry_conf, header_conf, include_in_metadata, comment)
     SELECT name, webhook_conf::json, cron_schedule, payload::json, retry_conf::json, header_conf::json, include_in_metadata, comment FROM w
     ON CONFLICT (name) DO UPDATE SET webhook_conf = excluded.webhook_conf, cron_schedule = excluded.cron_schedule,
       payload = excluded.payload, retry_conf = excluded.retry_conf, header_conf = excluded.header_conf,
       include_in_metadata = excluded.include_in_metadata, comment = excluded.comment
     WHERE (t.webhook_conf::jsonb, t.cron_schedule, t.payload::jsonb, t.retry_conf::jsonb, t.header_conf::jsonb, t.include_in_metadata, t.comment)
       IS DISTINCT FROM (excluded.webhook_conf::jsonb, excluded.cron_schedule, excluded.payload::jsonb, excluded.retry_conf::jsonb,
                         excluded.header_conf::jsonb, excluded.include_in_metadata, excluded.comment)
     RETURNING t.name, (t.xmax = 0) AS inserted`,
    [JSON.stringify(triggers.map(catalogRow))],
  );
  if (r.rows.length === 0) return;
  const changed = r.rows.filter((x) => !x.inserted).map((x) => x.name);
  // As the original's update: the future events not started yet go; retries and past events stay.
  if (changed.length) {
    await client.query(
      `DELETE FROM engine_catalog.hdb_cron_events WHERE trigger_name = ANY($1::text[]) AND scheduled_time > now() AND tries = 0 AND status = 'scheduled'`,
      [changed],
    );
  }
  const now = await dbNow(client);
  const byName = new Map(triggers.map((c) => [c.name, c]));
  const seeds = r.rows.flatMap((x) => {
    const c = byName.get(x.name);
    return c ? nextOccurrences(c.schedule, now, UPCOMING_EVENTS).map((at) => ({ name: c.name, at })) : [];
  });
  await insertCronEvents(client, seeds);
}

async function dbNow(client: pg.ClientBase): Promise<Date> {
  const r = await client.query<{ now: Date }>('SELECT now() AS now');
  return r.rows[0].now;
}

/** Inserts cron events (an existing trigger/time pair is left alone) and wakes the delivery workers. */
async function insertCronEvents(client: pg.ClientBase, seeds: Array<{ name: string; at: Date }>): Promise<number> {
  if (seeds.length === 0) return 0;
  const r = await client.query(
    `INSERT INTO engine_catalog.hdb_cron_events (trigger_name, scheduled_time)
     SELECT * FROM unnest($1::text[], $2::timestamptz[])
     ON CONFLICT (trigger_name, scheduled_time) DO NOTHING`,
    [seeds.map((s) => s.name), seeds.map((s) => s.at.toISOString())],
  );
  await client.query('SELECT pg_notify($1, $2)', [SCHEDULED_CHANNEL, '']);
  return r.rowCount ?? 0;
}

/**
 * The generator's round: every known trigger with fewer than 100 events not tried yet gets the occurrences that
 * follow its latest one (or now, when it has none). Several instances may run it at once: a trigger/time pair is
 * unique, so none is generated twice. Returns the number of events added.
 */
export async function topUpCronEvents(client: pg.ClientBase, metadata: Metadata): Promise<number> {
  const byName = new Map(cronTriggers(metadata).map((c) => [c.name, c]));
  if (byName.size === 0) return 0;
  const r = await client.query<{ name: string; upcoming_events_count: string; max_scheduled_time: Date }>(
    `SELECT name, upcoming_events_count, max_scheduled_time FROM engine_catalog.hdb_cron_events_stats
     WHERE upcoming_events_count < $1 AND name = ANY($2::text[])`,
    [UPCOMING_EVENTS, [...byName.keys()]],
  );
  const seeds = r.rows.flatMap((s) => {
    const c = byName.get(s.name)!;
    return nextOccurrences(c.schedule, s.max_scheduled_time, UPCOMING_EVENTS - Number(s.upcoming_events_count)).map((at) => ({ name: c.name, at }));
  });
  return insertCronEvents(client, seeds);
}
