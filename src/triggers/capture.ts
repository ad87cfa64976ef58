// The Postgres side of an event trigger: for each operation it listens to, a row-level AFTER trigger whose
// function writes the event into engine_catalog.event_log in the changing transaction (so a rolled-back change
// leaves no event and a committed one always has its event) and wakes the delivery workers with a NOTIFY.
// Pure: metadata in, DDL text out (identifiers quoted, names as literals; no user text is pasted).
import { createHash } from 'node:crypto';
import type { QualifiedName } from '../core/names.js';
import { compile, ident, join, literal, raw, sql, type SQL } from '../sql/builder.js';
import type { EventTriggerConf, OpSpec } from '../../events/decide/event-triggers.js';

export const EVENTS_CHANNEL = 'engine_events';
export const VIEWS_SCHEMA = 'engine_views';
/** Bump when the generated function changes: every installed trigger is then regenerated. */
const GENERATOR_VERSION = 1;

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

/** The trigger/function pairs an event trigger needs (one per operation it listens to). */
export function captureObjects(table: QualifiedName, conf: EventTriggerConf): CaptureObject[] {
  const out: CaptureObject[] = [];
  for (const op of OPS) {
    const spec = specOf(conf, op);
    if (spec) out.push(captureObject(table, conf.name, op, spec));
  }
  return out;
}

function captureObject(table: QualifiedName, trigger: string, op: Op, spec: OpSpec): CaptureObject {
  const name = captureName(trigger, op);
  const fn = ident(VIEWS_SCHEMA, name);
  const row = (rec: 'OLD' | 'NEW'): SQL =>
    spec.payload === undefined || spec.payload === '*'
      ? sql`to_jsonb(${raw(rec)})`
      : sql`jsonb_build_object(${join(spec.payload.map((c) => sql`${literal(c)}, ${raw(rec)}.${ident(c)}`), ', ')})`;
  const old = op === 'INSERT' ? raw('NULL::jsonb') : row('OLD');
  const neu = op === 'DELETE' ? raw('NULL::jsonb') : row('NEW');
  // engine.user is the session of the GraphQL mutation / v1 DML request (set transaction-locally by the engine);
  // unset (or reset to '' after an earlier transaction of the connection) means a change made outside the engine.
  const insert = sql`INSERT INTO engine_catalog.event_log (schema_name, table_name, trigger_name, payload)
    VALUES (TG_TABLE_SCHEMA, TG_TABLE_NAME, ${literal(trigger)}, jsonb_build_object(
      'op', TG_OP,
      'data', jsonb_build_object('old', ${old}, 'new', ${neu}),
      'session_variables', NULLIF(current_setting('engine.user', true), '')::jsonb));
    PERFORM pg_notify(${literal(EVENTS_CHANNEL)}, '');`;
  // Updates emit only when a listened column changed; *<> compares the binary images, so it works for every
  // column type (json has no equality operator) and treats NULLs as values.
  let body: SQL;
  if (op !== 'UPDATE') body = insert;
  else if (spec.columns === '*') body = sql`IF OLD *<> NEW THEN ${insert} END IF;`;
  else {
    const cols = (rec: string) => join(spec.columns === '*' ? [] : spec.columns.map((c) => sql`${raw(rec)}.${ident(c)}`), ', ');
    body = sql`_old := ROW(${cols('OLD')}); _new := ROW(${cols('NEW')}); IF _old *<> _new THEN ${insert} END IF;`;
  }
  const text = compile(sql`DECLARE _old record; _new record; BEGIN ${body} RETURN NULL; END;`).text;
  const tag = dollarTag(text);
  const columns = [
    ...(Array.isArray(spec.columns) && op === 'UPDATE' ? spec.columns : []),
    ...(Array.isArray(spec.payload) ? spec.payload : []),
  ];
  const hash = createHash('sha1')
    .update(JSON.stringify({ v: GENERATOR_VERSION, table, trigger, op, spec }))
    .digest('hex');
  const ddl = [
    `CREATE OR REPLACE FUNCTION ${compile(fn).text}() RETURNS trigger LANGUAGE plpgsql AS ${tag}${text}${tag}`,
    compile(sql`COMMENT ON FUNCTION ${fn}() IS ${literal(`engine:${hash}`)}`).text,
    compile(sql`CREATE TRIGGER ${ident(name)} AFTER ${raw(op)} ON ${ident(table.schema, table.name)} FOR EACH ROW EXECUTE FUNCTION ${fn}()`).text,
  ];
  return { name, table, op, hash: `engine:${hash}`, columns: columns.length ? [...new Set(columns)] : null, ddl };
}

/** A dollar-quote tag that does not occur in the body (a quoted column name could contain `$f$`). */
function dollarTag(body: string): string {
  for (let i = 0; ; i++) {
    const tag = `$engine${i || ''}$`;
    if (!body.includes(tag)) return tag;
  }
}

export const dropCaptureDdl = (name: string): string => compile(sql`DROP FUNCTION IF EXISTS ${ident(VIEWS_SCHEMA, name)}() CASCADE`).text;
