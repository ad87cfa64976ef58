// The Postgres side of an event trigger: for each operation it listens to, a statement-level AFTER trigger with
// transition tables whose function writes the statement's events (one per changed row) as one batch row into
// engine_catalog.event_log_batches in the changing transaction (so a rolled-back change leaves no event and a
// committed one always has its event, visible in the engine_catalog.event_log view) and wakes the delivery workers
// with one NOTIFY per statement.
// Pure: metadata in, DDL text out (identifiers quoted, names as literals; no user text is pasted).
import { createHash } from 'node:crypto';
import type { QualifiedName } from '../core/names.js';
import { compile, ident, join, literal, raw, sql, type SQL } from '../sql/builder.js';
import type { EventTriggerConf, OpSpec } from '../../events/event-triggers.js';

export const EVENTS_CHANNEL = 'engine_events';
export const VIEWS_SCHEMA = 'engine_views';
/** Bump when the generated function changes: every installed trigger is then regenerated. */
const GENERATOR_VERSION = 3;

export type Op = 'INSERT' | 'UPDATE' | 'DELETE';
export const OPS: readonly Op[] = ['INSERT', 'UPDATE', 'DELETE'];

/** One Postgres trigger + function pair to install. */
export interface CaptureObject {
  /** Both the trigger's and the function's name: notify_engine_<trigger>_<OP> (the original's naming). */
  name: string;
  table: QualifiedName;
  op: Op;
  /** Identifies the definition: the function's comment, compared by the reconciler. */
  hash: string;
  /** The columns the function names (all must exist for it to be installed); null = none by name. */
  columns: string[] | null;
  ddl: string[];
}

export const captureName = (trigger: string, op: Op): string => `notify_engine_${trigger}_${op}`;

const specOf = (conf: EventTriggerConf, op: Op): OpSpec | undefined =>
  op === 'INSERT' ? conf.definition.insert : op === 'UPDATE' ? conf.definition.update : conf.definition.delete;

/** Ordinary tables are captured per statement; partitioned ones per row (Note [Statement-level capture]). */
export type TableKind = 'table' | 'partitioned';

/** The trigger/function pairs an event trigger needs (one per operation it listens to). */
export function captureObjects(table: QualifiedName, conf: EventTriggerConf, kind: TableKind = 'table'): CaptureObject[] {
  const out: CaptureObject[] = [];
  for (const op of OPS) {
    const spec = specOf(conf, op);
    if (spec) out.push(captureObject(table, conf.name, op, spec, kind));
  }
  return out;
}

// Note [Statement-level capture]
// Capture is one INSERT ... SELECT per statement over the transition tables, not a plpgsql call per row: a
// row-level trigger costs a function call, an INSERT, a NOTIFY and a session-variable lookup for every row, several
// times the cost of the change itself. Per statement (in the `engine_k` row) we read the session variables and
// draw the id prefix; per row Postgres only builds the payload and appends it to the statement's batch.
// - Batch (Note [Event batches], events/event-trigger-tables.ts): the payloads as one json array (json_agg), written
//   as one row; the delivery worker expands it into per-event jsonb rows later. A row and two index entries per
//   event plus a jsonb conversion cost the writing statement about 2.5x a plain insert of the same rows
//   (bench:events); the batch keeps it well under 2x.
// - Payload: json of nested rows (`engine_p` = op, data, session_variables; data = `engine_d` = old, new)
//   built in one pass. Whole rows are written `alias.*::record`, never a bare alias: a user column of that name
//   (in scope through a payload subset or the transition table) would win over the bare alias. For the same
//   reason the trigger variables (TG_OP, ...) are read in engine_k, where no user column is in scope (a clash is
//   an error in plpgsql).
// - UPDATE pairs the i-th row of the old and new transition tables: Postgres appends both images of each updated
//   row together, and a tuplestore is read back in insertion order (row_number() OVER () over a plain scan).
// - Ids: the UUIDv7 layout (48-bit milliseconds, version 7, 26 random bits drawn per statement, RFC variant) and
//   in the low 48 bits a random base per statement (in [2^44, 2^44 + 2^46), so base + ordinal is 12 hex digits)
//   plus the event's 1-based position in the batch (added when the batch is read or expanded): no random draw
//   per event, and increasing, so the primary key of event_log_rows grows at its right edge instead of at a
//   random leaf for each event. Two statements collide only in the same millisecond with the same
//   26 bits and overlapping ranges of the 46-bit base.
// - The NOTIFY is sent only when the statement captured something.
// - A partitioned table keeps a row-level trigger: Postgres clones it onto every partition, present and future,
//   so writes that name a partition directly are captured too; a statement-level trigger on the parent would only
//   see statements that name the parent (and transition tables are not allowed on row-level triggers there).
const NEW_ROWS = 'engine_new_rows';
const OLD_ROWS = 'engine_old_rows';

function captureObject(table: QualifiedName, trigger: string, op: Op, spec: OpSpec, kind: TableKind): CaptureObject {
  const name = captureName(trigger, op);
  const fn = ident(VIEWS_SCHEMA, name);
  const text = compile(kind === 'table' ? statementBody(trigger, op, spec) : rowBody(trigger, op, spec)).text;
  const tag = dollarTag(text);
  const columns = [
    ...(Array.isArray(spec.columns) && op === 'UPDATE' ? spec.columns : []),
    ...(Array.isArray(spec.payload) ? spec.payload : []),
  ];
  const hash = createHash('sha1')
    .update(JSON.stringify({ v: GENERATOR_VERSION, table, trigger, op, spec, kind }))
    .digest('hex');
  const referencing = op === 'INSERT' ? sql`NEW TABLE AS ${ident(NEW_ROWS)}`
    : op === 'DELETE' ? sql`OLD TABLE AS ${ident(OLD_ROWS)}`
    : sql`OLD TABLE AS ${ident(OLD_ROWS)} NEW TABLE AS ${ident(NEW_ROWS)}`;
  const on = ident(table.schema, table.name);
  const ddl = [
    `CREATE OR REPLACE FUNCTION ${compile(fn).text}() RETURNS trigger LANGUAGE plpgsql AS ${tag}${text}${tag}`,
    compile(sql`COMMENT ON FUNCTION ${fn}() IS ${literal(`engine:${hash}`)}`).text,
    compile(kind === 'table'
      ? sql`CREATE TRIGGER ${ident(name)} AFTER ${raw(op)} ON ${on} REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`
      : sql`CREATE TRIGGER ${ident(name)} AFTER ${raw(op)} ON ${on} FOR EACH ROW EXECUTE FUNCTION ${fn}()`).text,
  ];
  return { name, table, op, hash: `engine:${hash}`, columns: columns.length ? [...new Set(columns)] : null, ddl };
}

/** The statement-level function: all of a statement's events in one INSERT ... SELECT over the transition tables. */
function statementBody(trigger: string, op: Op, spec: OpSpec): SQL {
  // The changed rows: engine_c.i (ordinal), engine_c.o / engine_c.n (old / new images, whole rows).
  const numbered = (rows: string, col: 'o' | 'n'): SQL => sql`SELECT row_number() OVER () AS i, ${raw(col)}.*::record AS ${raw(col)} FROM ${ident(rows)} ${raw(col)}`;
  const changes =
    op === 'INSERT' ? sql`(${numbered(NEW_ROWS, 'n')}) engine_c`
    : op === 'DELETE' ? sql`(${numbered(OLD_ROWS, 'o')}) engine_c`
    : sql`(SELECT engine_o.i, engine_o.o, engine_n.n FROM (${numbered(OLD_ROWS, 'o')}) engine_o
             JOIN (${numbered(NEW_ROWS, 'n')}) engine_n ON engine_n.i = engine_o.i) engine_c`;
  // A payload subset is a row of the listed columns (their names become the JSON keys).
  const subset = (col: 'o' | 'n', alias: string): SQL | null =>
    spec.payload === undefined || spec.payload === '*'
      ? null
      : sql`CROSS JOIN LATERAL (SELECT ${join(spec.payload.map((c) => sql`(engine_c.${raw(col)}).${ident(c)} AS ${ident(c)}`), ', ')}) ${raw(alias)}`;
  const oldRow = op === 'INSERT' ? null : subset('o', 'engine_ow');
  const newRow = op === 'DELETE' ? null : subset('n', 'engine_nw');
  const oldExpr = op === 'INSERT' ? raw('NULL::int') : oldRow ? raw('engine_ow.*::record') : raw('engine_c.o');
  const newExpr = op === 'DELETE' ? raw('NULL::int') : newRow ? raw('engine_nw.*::record') : raw('engine_c.n');
  // Updates emit only when a listened column changed; *<> compares the binary images, so it works for every
  // column type (json has no equality operator) and treats NULLs as values. The listened columns are compared as
  // whole rows of a subquery (a ROW(...) constructor on both sides would be compared column by column).
  const listened = (col: 'o' | 'n', alias: string): SQL =>
    sql`CROSS JOIN LATERAL (SELECT ${join(Array.isArray(spec.columns) ? spec.columns.map((c) => sql`(engine_c.${raw(col)}).${ident(c)} AS ${ident(c)}`) : [], ', ')}) ${raw(alias)}`;
  const columnRows = op === 'UPDATE' && Array.isArray(spec.columns) ? sql`${listened('o', 'engine_of')} ${listened('n', 'engine_nf')}` : raw('');
  const filter =
    op !== 'UPDATE' ? raw('') : spec.columns === '*' ? raw('WHERE engine_c.o *<> engine_c.n') : raw('WHERE engine_of.*::record *<> engine_nf.*::record');
  // engine.user is the session of the GraphQL mutation / v1 DML request (set transaction-locally by the engine);
  // unset (or reset to '' after an earlier transaction of the connection) means a change made outside the engine.
  return sql`DECLARE _n bigint;
BEGIN
  WITH engine_k AS MATERIALIZED (
    SELECT lpad(to_hex((extract(epoch FROM clock_timestamp()) * 1000)::bigint), 12, '0') || '7' || substr(r, 14, 3) || substr(r, 17, 4) AS pre,
           17592186044416 + (('x' || substr(r, 21, 12))::bit(48)::bigint % 70368744177664) AS base,
           NULLIF(current_setting('engine.user', true), '')::jsonb AS sv, TG_OP AS op, TG_TABLE_SCHEMA AS s, TG_TABLE_NAME AS t
    FROM (SELECT replace(gen_random_uuid()::text, '-', '') AS r) engine_r)
  INSERT INTO engine_catalog.event_log_batches (id_prefix, id_base, events, schema_name, table_name, trigger_name, payloads)
  SELECT (SELECT pre FROM engine_k), (SELECT base FROM engine_k), count(*), (SELECT s FROM engine_k), (SELECT t FROM engine_k),
         ${literal(trigger)}, json_agg(engine_p.*)
  FROM engine_k CROSS JOIN ${changes} ${columnRows} ${oldRow ?? raw('')} ${newRow ?? raw('')}
    CROSS JOIN LATERAL (SELECT ${oldExpr} AS old, ${newExpr} AS new) engine_d
    CROSS JOIN LATERAL (SELECT engine_k.op, engine_d.*::record AS data, engine_k.sv AS session_variables) engine_p
  ${filter}
  HAVING count(*) > 0;
  GET DIAGNOSTICS _n = ROW_COUNT;
  IF _n > 0 THEN PERFORM pg_notify(${literal(EVENTS_CHANNEL)}, ''); END IF;
  RETURN NULL;
END;`;
}

/** The row-level function (partitioned tables): one event per call. */
function rowBody(trigger: string, op: Op, spec: OpSpec): SQL {
  const row = (rec: 'OLD' | 'NEW'): SQL =>
    spec.payload === undefined || spec.payload === '*'
      ? sql`to_jsonb(${raw(rec)})`
      : sql`jsonb_build_object(${join(spec.payload.map((c) => sql`${literal(c)}, ${raw(rec)}.${ident(c)}`), ', ')})`;
  const old = op === 'INSERT' ? raw('NULL::jsonb') : row('OLD');
  const neu = op === 'DELETE' ? raw('NULL::jsonb') : row('NEW');
  const insert = sql`INSERT INTO engine_catalog.event_log_rows (schema_name, table_name, trigger_name, payload)
    VALUES (TG_TABLE_SCHEMA, TG_TABLE_NAME, ${literal(trigger)}, jsonb_build_object(
      'op', TG_OP,
      'data', jsonb_build_object('old', ${old}, 'new', ${neu}),
      'session_variables', NULLIF(current_setting('engine.user', true), '')::jsonb));
    PERFORM pg_notify(${literal(EVENTS_CHANNEL)}, '');`;
  let body: SQL;
  if (op !== 'UPDATE') body = insert;
  else if (spec.columns === '*') body = sql`IF OLD *<> NEW THEN ${insert} END IF;`;
  else {
    const cols = (rec: string) => join(spec.columns === '*' ? [] : spec.columns.map((c) => sql`${raw(rec)}.${ident(c)}`), ', ');
    body = sql`_old := ROW(${cols('OLD')}); _new := ROW(${cols('NEW')}); IF _old *<> _new THEN ${insert} END IF;`;
  }
  return sql`DECLARE _old record; _new record; BEGIN ${body} RETURN NULL; END;`;
}

/** A dollar-quote tag that does not occur in the body (a quoted column name could contain `$f$`). */
function dollarTag(body: string): string {
  for (let i = 0; ; i++) {
    const tag = `$engine${i || ''}$`;
    if (!body.includes(tag)) return tag;
  }
}

export const dropCaptureDdl = (name: string): string => compile(sql`DROP FUNCTION IF EXISTS ${ident(VIEWS_SCHEMA, name)}() CASCADE`).text;
