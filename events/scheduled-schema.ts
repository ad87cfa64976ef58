// The scheduled-trigger tables of engine_catalog (a catalog migration, see log.ts), with the original's names and
// columns: cron triggers as the catalog lists them (kept equal to the metadata by src/scheduled/catalog.ts), their
// generated events, the one-off scheduled events, one invocation log row per delivery attempt, and the original's
// hdb_cron_events_stats view. A deleted trigger or event takes its events and logs with it (ON DELETE CASCADE),
// as in the original.
//
// Beyond the original's columns, each events table has the delivery worker's lease (Note [Scheduled event lease]
// in src/scheduled/worker.ts): `locked_at`, when an instance claimed the event (status 'locked'), and `locked_by`,
// that instance. Workers find due events through the partial indexes on the time each is due.
const STATUS_CHECK = `CONSTRAINT valid_status CHECK (status IN ('scheduled', 'locked', 'delivered', 'error', 'dead'))`;

export const SCHEDULED_TRIGGERS_MIGRATION: string[] = [
  `CREATE TABLE engine_catalog.hdb_cron_triggers (
     name text PRIMARY KEY,
     webhook_conf json NOT NULL,
     cron_schedule text NOT NULL,
     payload json,
     retry_conf json,
     header_conf json,
     include_in_metadata boolean NOT NULL DEFAULT false,
     comment text)`,
  `CREATE TABLE engine_catalog.hdb_cron_events (
     id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
     trigger_name text NOT NULL REFERENCES engine_catalog.hdb_cron_triggers (name) ON UPDATE CASCADE ON DELETE CASCADE,
     scheduled_time timestamptz NOT NULL,
     status text NOT NULL DEFAULT 'scheduled',
     tries integer NOT NULL DEFAULT 0,
     created_at timestamptz DEFAULT now(),
     next_retry_at timestamptz,
     locked_at timestamptz,
     locked_by text,
     ${STATUS_CHECK})`,
  `CREATE UNIQUE INDEX hdb_cron_events_unique_scheduled ON engine_catalog.hdb_cron_events (trigger_name, scheduled_time)`,
  `CREATE INDEX hdb_cron_events_due ON engine_catalog.hdb_cron_events ((coalesce(next_retry_at, scheduled_time))) WHERE status = 'scheduled'`,
  `CREATE INDEX hdb_cron_events_locked ON engine_catalog.hdb_cron_events (locked_at) WHERE status = 'locked'`,
  `CREATE TABLE engine_catalog.hdb_cron_event_invocation_logs (
     id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
     event_id text REFERENCES engine_catalog.hdb_cron_events (id) ON UPDATE CASCADE ON DELETE CASCADE,
     status integer,
     request json,
     response json,
     created_at timestamptz DEFAULT now())`,
  `CREATE INDEX hdb_cron_event_invocation_logs_event_id ON engine_catalog.hdb_cron_event_invocation_logs (event_id)`,
  // The original's view: per trigger, its events not tried yet and the latest of their times (now() when none).
  `CREATE VIEW engine_catalog.hdb_cron_events_stats AS
     SELECT ct.name,
            coalesce(ce.upcoming_events_count, 0) AS upcoming_events_count,
            coalesce(ce.max_scheduled_time, now()) AS max_scheduled_time
     FROM engine_catalog.hdb_cron_triggers ct
     LEFT JOIN (SELECT trigger_name, count(*) AS upcoming_events_count, max(scheduled_time) AS max_scheduled_time
                FROM engine_catalog.hdb_cron_events
                WHERE tries = 0 AND status = 'scheduled'
                GROUP BY trigger_name) ce
       ON ct.name = ce.trigger_name`,
  `CREATE TABLE engine_catalog.hdb_scheduled_events (
     id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
     webhook_conf json NOT NULL,
     scheduled_time timestamptz NOT NULL,
     retry_conf json,
     payload json,
     header_conf json,
     status text NOT NULL DEFAULT 'scheduled',
     tries integer NOT NULL DEFAULT 0,
     created_at timestamptz DEFAULT now(),
     next_retry_at timestamptz,
     comment text,
     locked_at timestamptz,
     locked_by text,
     ${STATUS_CHECK})`,
  `CREATE INDEX hdb_scheduled_events_due ON engine_catalog.hdb_scheduled_events ((coalesce(next_retry_at, scheduled_time))) WHERE status = 'scheduled'`,
  `CREATE INDEX hdb_scheduled_events_locked ON engine_catalog.hdb_scheduled_events (locked_at) WHERE status = 'locked'`,
  `CREATE TABLE engine_catalog.hdb_scheduled_event_invocation_logs (
     id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
     event_id text REFERENCES engine_catalog.hdb_scheduled_events (id) ON UPDATE CASCADE ON DELETE CASCADE,
     status integer,
     request json,
     response json,
     created_at timestamptz DEFAULT now())`,
  `CREATE INDEX hdb_scheduled_event_invocation_logs_event_id ON engine_catalog.hdb_scheduled_event_invocation_logs (event_id)`,
];
