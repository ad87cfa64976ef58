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

// Note [Event batches]
// Capture writes one row per statement into event_log_batches (the statement's payloads as one JSON array, built
// with json_agg: no jsonb conversion and no per-event row or index entry on the write path); the delivery worker
// turns batches into per-event rows (event_log_rows) before claiming. engine_catalog.event_log is a view over
// both, with the original's columns, so an event is visible there from the commit of its change on, whether or
// not a worker has picked its batch up. An event's id is fixed at capture: the batch's 20-hex-digit prefix and
// base, plus the event's 1-based position in the array (the same id before and after the batch is expanded).
// Writes to the view (users' clean-up DELETEs, UPDATEs, INSERTs by a capture function of an earlier version)
// go to event_log_rows through INSTEAD OF triggers, expanding the event's batch first when it is still one.
const EVENT_COLUMNS = 'id, schema_name, table_name, trigger_name, payload, delivered, error, tries, created_at, locked, locked_by, next_retry_at, archived';
export const EVENT_BATCH_MIGRATION: string[] = [
  `ALTER TABLE engine_catalog.event_log RENAME TO event_log_rows`,
  `CREATE TABLE engine_catalog.event_log_batches (
     seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     id_prefix text NOT NULL,
     id_base bigint NOT NULL,
     events integer NOT NULL,
     schema_name text NOT NULL,
     table_name text NOT NULL,
     trigger_name text NOT NULL,
     payloads json NOT NULL,
     created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
     archived boolean NOT NULL DEFAULT false)`,
  // Large arrays are moved out of line as they are (compressing them would cost the writing statement more).
  `ALTER TABLE engine_catalog.event_log_batches ALTER COLUMN payloads SET STORAGE EXTERNAL`,
  // One event of a batch as a jsonb payload; a payload jsonb cannot hold (a json column's \\u0000) is kept as
  // an error payload rather than making the batch unreadable.
  `CREATE FUNCTION engine_catalog.event_payload(p json) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $f$
   BEGIN
     RETURN p::jsonb;
   EXCEPTION WHEN others THEN
     -- (p->>'op' would parse p too; the capture functions write the op first.)
     RETURN jsonb_build_object('op', substring(p::text FROM '^\\{"op":"([A-Z]+)"'), 'data', NULL, 'session_variables', NULL, 'error', SQLERRM);
   END $f$`,
  `CREATE VIEW engine_catalog.event_log AS
     SELECT ${EVENT_COLUMNS} FROM engine_catalog.event_log_rows
     UNION ALL
     SELECT (b.id_prefix || to_hex(b.id_base + e.ord))::uuid, b.schema_name, b.table_name, b.trigger_name, engine_catalog.event_payload(e.p),
            false, false, 0, b.created_at, NULL::timestamptz, NULL::text, NULL::timestamptz, b.archived
     FROM engine_catalog.event_log_batches b CROSS JOIN LATERAL json_array_elements(b.payloads) WITH ORDINALITY AS e(p, ord)`,
  `ALTER VIEW engine_catalog.event_log ALTER COLUMN id SET DEFAULT gen_random_uuid()`,
  `ALTER VIEW engine_catalog.event_log ALTER COLUMN delivered SET DEFAULT false`,
  `ALTER VIEW engine_catalog.event_log ALTER COLUMN error SET DEFAULT false`,
  `ALTER VIEW engine_catalog.event_log ALTER COLUMN tries SET DEFAULT 0`,
  `ALTER VIEW engine_catalog.event_log ALTER COLUMN created_at SET DEFAULT clock_timestamp()`,
  `ALTER VIEW engine_catalog.event_log ALTER COLUMN archived SET DEFAULT false`,
  // Expands batches into event_log_rows, oldest first: `one_event` = the batch holding that event id (waiting for a
  // concurrent expansion of it), else up to `max_batches` batches that no one else is expanding.
  `CREATE FUNCTION engine_catalog.expand_event_batches(max_batches integer, one_event uuid DEFAULT NULL) RETURNS bigint
   LANGUAGE plpgsql AS $f$
   DECLARE n bigint; hex text := replace(one_event::text, '-', ''); picked bigint[];
   BEGIN
     IF one_event IS NULL THEN
       SELECT array_agg(seq) INTO picked FROM (
         SELECT seq FROM engine_catalog.event_log_batches ORDER BY seq LIMIT max_batches FOR UPDATE SKIP LOCKED) s;
     ELSE
       SELECT array_agg(seq) INTO picked FROM (
         SELECT seq FROM engine_catalog.event_log_batches
         WHERE id_prefix = left(hex, 20) AND ('x' || right(hex, 12))::bit(48)::bigint - id_base BETWEEN 1 AND events
         FOR UPDATE) s;
     END IF;
     IF picked IS NULL THEN RETURN 0; END IF;
     BEGIN
       WITH b AS (DELETE FROM engine_catalog.event_log_batches WHERE seq = ANY (picked) RETURNING *)
       INSERT INTO engine_catalog.event_log_rows (id, schema_name, table_name, trigger_name, payload, created_at, archived)
       SELECT (b.id_prefix || to_hex(b.id_base + e.ord))::uuid, b.schema_name, b.table_name, b.trigger_name,
              e.p::jsonb, b.created_at, b.archived
       FROM b CROSS JOIN LATERAL json_array_elements(b.payloads) WITH ORDINALITY AS e(p, ord);
       GET DIAGNOSTICS n = ROW_COUNT;
     EXCEPTION WHEN others THEN
       -- A payload jsonb cannot hold: convert event by event (slower), keeping that one as an error payload.
       WITH b AS (DELETE FROM engine_catalog.event_log_batches WHERE seq = ANY (picked) RETURNING *)
       INSERT INTO engine_catalog.event_log_rows (id, schema_name, table_name, trigger_name, payload, created_at, archived)
       SELECT (b.id_prefix || to_hex(b.id_base + e.ord))::uuid, b.schema_name, b.table_name, b.trigger_name,
              engine_catalog.event_payload(e.p), b.created_at, b.archived
       FROM b CROSS JOIN LATERAL json_array_elements(b.payloads) WITH ORDINALITY AS e(p, ord);
       GET DIAGNOSTICS n = ROW_COUNT;
     END;
     RETURN n;
   END $f$`,
  `CREATE FUNCTION engine_catalog.event_log_write() RETURNS trigger LANGUAGE plpgsql AS $f$
   BEGIN
     IF TG_OP = 'INSERT' THEN
       INSERT INTO engine_catalog.event_log_rows (${EVENT_COLUMNS})
       VALUES (NEW.id, NEW.schema_name, NEW.table_name, NEW.trigger_name, NEW.payload, NEW.delivered, NEW.error, NEW.tries,
               NEW.created_at, NEW.locked, NEW.locked_by, NEW.next_retry_at, NEW.archived)
       RETURNING * INTO NEW;
       RETURN NEW;
     END IF;
     PERFORM 1 FROM engine_catalog.event_log_rows WHERE id = OLD.id;
     IF NOT FOUND THEN PERFORM engine_catalog.expand_event_batches(1, OLD.id); END IF;
     IF TG_OP = 'DELETE' THEN
       DELETE FROM engine_catalog.event_log_rows WHERE id = OLD.id;
       RETURN OLD;
     END IF;
     UPDATE engine_catalog.event_log_rows SET (${EVENT_COLUMNS}) = (NEW.id, NEW.schema_name, NEW.table_name, NEW.trigger_name,
       NEW.payload, NEW.delivered, NEW.error, NEW.tries, NEW.created_at, NEW.locked, NEW.locked_by, NEW.next_retry_at, NEW.archived)
     WHERE id = OLD.id RETURNING * INTO NEW;
     RETURN NEW;
   END $f$`,
  `CREATE TRIGGER event_log_write INSTEAD OF INSERT OR UPDATE OR DELETE ON engine_catalog.event_log
     FOR EACH ROW EXECUTE FUNCTION engine_catalog.event_log_write()`,
];
