// create_scheduled_event: a /v1/query operation that writes a one-off event into engine_catalog.hdb_scheduled_events
// (not metadata) in the request's transaction, and wakes the delivery workers when it commits. Its entry is in the
// operation table (src/metadata/operations/scheduled-triggers.ts).
import type pg from 'pg';
import type { ScheduledEventArgs } from '../../events/decide/scheduled-events.js';
import { SCHEDULED_CHANNEL } from './store.js';

/** Stores the event; answers as the original (`message`), with the new event's id beside it. */
export async function createScheduledEvent(client: pg.ClientBase, a: ScheduledEventArgs): Promise<unknown> {
  const r = await client.query<{ id: string }>(
    `INSERT INTO engine_catalog.hdb_scheduled_events (webhook_conf, scheduled_time, payload, retry_conf, header_conf, comment)
     VALUES ($1::json, $2::timestamptz, $3::json, $4::json, $5::json, $6) RETURNING id`,
    [JSON.stringify(a.webhook), a.schedule_at, a.payload === null ? null : JSON.stringify(a.payload), JSON.stringify(a.retry_conf), JSON.stringify(a.headers), a.comment],
  );
  await client.query('SELECT pg_notify($1, $2)', [SCHEDULED_CHANNEL, '']);
  return { message: 'success', event_id: r.rows[0].id };
}
