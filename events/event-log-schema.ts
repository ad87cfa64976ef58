// The event-trigger tables of engine_catalog (a catalog migration, see log.ts): the captured events, one
// invocation log row per delivery attempt, and the triggers as the original's catalog lists them. Column names
// follow the original's hdb_catalog so users' debugging queries keep working.
export const EVENT_LOG_MIGRATION: string[] = [
  `CREATE SCHEMA IF NOT EXISTS engine_views`,
  // Note [Event lease]: `locked` is the time an instance claimed the event and `locked_by` that instance; a claim
  // is taken over when it is older than the lease or when the instance has no connection any more.
  `CREATE TABLE IF NOT EXISTS engine_catalog.event_log (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     schema_name text NOT NULL,
     table_name text NOT NULL,
     trigger_name text NOT NULL,
     payload jsonb NOT NULL,
     delivered boolean NOT NULL DEFAULT false,
     error boolean NOT NULL DEFAULT false,
     tries integer NOT NULL DEFAULT 0,
     created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
     locked timestamptz,
     locked_by text,
     next_retry_at timestamptz,
     archived boolean NOT NULL DEFAULT false)`,
  // What the delivery workers scan: pending events in creation order.
  `CREATE INDEX IF NOT EXISTS event_log_pending ON engine_catalog.event_log (created_at)
     WHERE NOT delivered AND NOT error AND NOT archived`,
  `CREATE INDEX IF NOT EXISTS event_log_trigger_name ON engine_catalog.event_log (trigger_name)`,
  `CREATE TABLE IF NOT EXISTS engine_catalog.event_invocation_logs (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     event_id uuid REFERENCES engine_catalog.event_log (id),
     status integer,
     request json,
     response json,
     created_at timestamptz NOT NULL DEFAULT clock_timestamp())`,
  `CREATE INDEX IF NOT EXISTS event_invocation_logs_event_id ON engine_catalog.event_invocation_logs (event_id)`,
  // The installed triggers (kept equal to the metadata by src/triggers/reconcile.ts).
  `CREATE TABLE IF NOT EXISTS engine_catalog.event_triggers (
     name text PRIMARY KEY,
     type text NOT NULL DEFAULT 'table',
     schema_name text NOT NULL,
     table_name text NOT NULL,
     configuration jsonb NOT NULL,
     comment text)`,
];
