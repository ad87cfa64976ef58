// The metadata log in Postgres (engine_catalog): versioned schema set-up, optimistic append with NOTIFY,
// reads after a seq, and snapshots every N events so start-up does not replay the whole history.
import type pg from 'pg';
import { inTransaction } from '../src/core/transaction.js';
import { EVENT_BATCH_MIGRATION, EVENT_LOG_MIGRATION } from './event-trigger-tables.js';
import { SCHEDULED_TRIGGERS_MIGRATION } from './scheduled-schema.js';
import type { Event } from './types.js';

export const CATALOG_SCHEMA = 'engine_catalog';
export const NOTIFY_CHANNEL = 'engine_metadata';
/** Advisory lock keys (two-int form, first int = "engine"): schema set-up, metadata writers. */
const LOCK_NS = 0x656e6769;
export const SCHEMA_LOCK = 1;
export const WRITE_LOCK = 2;

/** An event to append; `meta` records the operation that produced it (added to the append's meta). */
export type NewEvent = Event & { meta?: Record<string, unknown> };

/** An event as read back from the log. */
export type LoggedEvent = Event & {
  seq: number;
  meta: Record<string, unknown>;
  createdAt: string;
  instanceId: string | null;
};

export interface Snapshot {
  seq: number;
  metadata: unknown;
}

/** Another instance appended first: roll back, catch up, decide again. */
export class AppendConflict extends Error {
  constructor(readonly expectedSeq: number) {
    super(`metadata log moved past seq ${expectedSeq}`);
    this.name = 'AppendConflict';
  }
}

/** Each entry upgrades the catalog schema by one version; never edit a released entry, append a new one. */
const MIGRATIONS: string[][] = [
  [
    `CREATE TABLE IF NOT EXISTS ${CATALOG_SCHEMA}.metadata_log (
       seq bigint PRIMARY KEY,
       type text NOT NULL,
       data jsonb NOT NULL,
       meta jsonb NOT NULL DEFAULT '{}'::jsonb,
       created_at timestamptz NOT NULL DEFAULT now(),
       instance_id text)`,
    `CREATE TABLE IF NOT EXISTS ${CATALOG_SCHEMA}.metadata_snapshot (
       seq bigint PRIMARY KEY,
       metadata jsonb NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now())`,
  ],
  // Mutations abort their one statement from inside SQL: a failed permission check (SQLSTATE 23514, as the original's
  // hdb_catalog.check_violation) and the original's other mid-statement errors (SQLSTATE EG400, engine code in DETAIL).
  [
    `CREATE OR REPLACE FUNCTION ${CATALOG_SCHEMA}.check_violation(msg text) RETURNS boolean AS
     $$ BEGIN RAISE check_violation USING message = msg; END; $$ LANGUAGE plpgsql`,
    `CREATE OR REPLACE FUNCTION ${CATALOG_SCHEMA}.raise_error(code text, msg text) RETURNS boolean AS
     $$ BEGIN RAISE EXCEPTION USING ERRCODE = 'EG400', MESSAGE = msg, DETAIL = code; END; $$ LANGUAGE plpgsql`,
  ],
  // Async actions (src/actions/log.ts): the original's hdb_action_log columns, plus the worker's lease.
  [
    `CREATE TABLE IF NOT EXISTS ${CATALOG_SCHEMA}.hdb_action_log (
       id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
       action_name text NOT NULL,
       input jsonb NOT NULL,
       session_variables jsonb NOT NULL,
       request_headers jsonb NOT NULL,
       status text NOT NULL DEFAULT 'created' CHECK (status IN ('created', 'processing', 'completed', 'error')),
       response_payload jsonb,
       errors jsonb,
       created_at timestamptz NOT NULL DEFAULT now(),
       response_received_at timestamptz,
       locked_by text,
       lease_until timestamptz)`,
    `CREATE INDEX IF NOT EXISTS hdb_action_log_pending ON ${CATALOG_SCHEMA}.hdb_action_log (created_at) WHERE status IN ('created', 'processing')`,
  ],
  // Event triggers: event_log, event_invocation_logs, event_triggers.
  EVENT_LOG_MIGRATION,
  // Every captured row paid for an entry in this index, while only archiving a deleted trigger's events (a rare
  // metadata change, fine as a scan) looks events up by trigger; the workers claim through event_log_pending.
  [`DROP INDEX IF EXISTS ${CATALOG_SCHEMA}.event_log_trigger_name`],
  // Capture writes a statement's events as one batch row; event_log becomes a view over rows and batches
  // (Note [Event batches], event-trigger-tables.ts).
  EVENT_BATCH_MIGRATION,
  // Scheduled triggers: cron triggers, their events, one-off scheduled events and their invocation logs.
  SCHEDULED_TRIGGERS_MIGRATION,
];

export const CATALOG_VERSION = MIGRATIONS.length;

/** Creates or upgrades engine_catalog (idempotent; concurrent starters serialise on an advisory lock). */
export async function ensureCatalogSchema(client: pg.ClientBase): Promise<number> {
  return inTransaction(client, async () => {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_NS, SCHEMA_LOCK]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${CATALOG_SCHEMA}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${CATALOG_SCHEMA}.schema_version (
       version integer NOT NULL, upgraded_at timestamptz NOT NULL DEFAULT now())`);
    const r = await client.query<{ v: number | null }>(`SELECT max(version) AS v FROM ${CATALOG_SCHEMA}.schema_version`);
    const current = r.rows[0]?.v ?? 0;
    if (current > CATALOG_VERSION) throw new Error(`engine_catalog is at version ${current}, newer than this engine (${CATALOG_VERSION})`);
    for (let v = current; v < CATALOG_VERSION; v++) {
      for (const sql of MIGRATIONS[v]) await client.query(sql);
      await client.query(`INSERT INTO ${CATALOG_SCHEMA}.schema_version(version) VALUES ($1)`, [v + 1]);
    }
    return CATALOG_VERSION;
  });
}

/** Serialises metadata writers for the rest of the current transaction (cheap; conflicts stay possible for other writers). */
export async function lockWriters(client: pg.ClientBase): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_NS, WRITE_LOCK]);
}

/**
 * Appends events as seq expectedSeq+1.. inside the caller's transaction and queues the NOTIFY (sent on commit).
 * Throws AppendConflict when another writer took those seqs (the transaction is then aborted: roll back).
 */
export async function appendEvents(
  client: pg.ClientBase,
  events: readonly NewEvent[],
  expectedSeq: number,
  options: { instanceId?: string; meta?: Record<string, unknown> } = {},
): Promise<number> {
  if (events.length === 0) return expectedSeq;
  const payload = events.map((e) => ({ type: e.type, data: e.data ?? null, meta: { ...(options.meta ?? {}), ...(e.meta ?? {}) } }));
  try {
    await client.query(
      `INSERT INTO ${CATALOG_SCHEMA}.metadata_log (seq, type, data, meta, instance_id)
       SELECT $1::bigint + e.ord, e.value->>'type', e.value->'data', e.value->'meta', $3
       FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(value, ord)`,
      [expectedSeq, JSON.stringify(payload), options.instanceId ?? null],
    );
  } catch (e) {
    if ((e as { code?: string }).code === '23505') throw new AppendConflict(expectedSeq);
    throw e;
  }
  const seq = expectedSeq + events.length;
  await client.query('SELECT pg_notify($1, $2)', [NOTIFY_CHANNEL, JSON.stringify({ seq, instance: options.instanceId ?? null })]);
  return seq;
}

// A row of the log: its type and data are an Event as appendEvents wrote it (the one place the log's rows are
// declared to hold events; a newer engine's event type is not in the union, and evolve's default leaves metadata
// unchanged for it).
type LogRow = Event & {
  seq: string;
  meta: Record<string, unknown>;
  created_at: Date;
  instance_id: string | null;
};

// (Built field by field: a rest pattern took ten times as long, 5 µs a row, 0.2 s of a start-up reading 43,000.)
const toEvent = (row: LogRow): LoggedEvent => ({
  // (The row's type and data are one Event of the union: appendEvents wrote them together.)
  type: row.type,
  data: row.data,
  seq: Number(row.seq),
  meta: row.meta,
  createdAt: row.created_at.toISOString(),
  instanceId: row.instance_id,
}) as LoggedEvent;

/** Events with seq > afterSeq (up to `limit`), in order. */
export async function readFrom(client: pg.ClientBase, afterSeq: number, limit?: number): Promise<LoggedEvent[]> {
  const r = await client.query<LogRow>(
    `SELECT seq, type, data, meta, created_at, instance_id FROM ${CATALOG_SCHEMA}.metadata_log
     WHERE seq > $1 ORDER BY seq ${limit === undefined ? '' : 'LIMIT $2'}`,
    limit === undefined ? [afterSeq] : [afterSeq, limit],
  );
  return r.rows.map(toEvent);
}

/** Rows per page of readAllFrom. */
export const LOG_PAGE = 1000;

/**
 * Every event with seq > afterSeq, in order, read a page at a time. A page is an index scan whatever the table's
 * statistics say: right after a large bulk (43,000 events at 1,000 tables) the table has none yet, and Postgres
 * planned the unlimited read of the few newest events as a parallel scan and sort of a third of the log (30-100 ms
 * per catch-up, twice per metadata write, against 0.3 ms).
 */
export async function readAllFrom(client: pg.ClientBase, afterSeq: number): Promise<LoggedEvent[]> {
  const events = await readFrom(client, afterSeq, LOG_PAGE);
  for (let page = events; page.length === LOG_PAGE; ) {
    page = await readFrom(client, page[page.length - 1].seq, LOG_PAGE);
    for (const e of page) events.push(e);
  }
  return events;
}

/** Events with afterSeq < seq <= upTo, in order (the history's export at a version folds these). */
export async function readRange(client: pg.ClientBase, afterSeq: number, upTo: number): Promise<LoggedEvent[]> {
  const r = await client.query<LogRow>(
    `SELECT seq, type, data, meta, created_at, instance_id FROM ${CATALOG_SCHEMA}.metadata_log
     WHERE seq > $1 AND seq <= $2 ORDER BY seq`,
    [afterSeq, upTo],
  );
  return r.rows.map(toEvent);
}

/** One page of the log, newest first (the history list). */
export async function readPageNewestFirst(client: pg.ClientBase, offset: number, limit: number): Promise<LoggedEvent[]> {
  const r = await client.query<LogRow>(
    `SELECT seq, type, data, meta, created_at, instance_id FROM ${CATALOG_SCHEMA}.metadata_log
     ORDER BY seq DESC OFFSET $1 LIMIT $2`,
    [offset, limit],
  );
  return r.rows.map(toEvent);
}

/** The newest snapshot taken at or before `seq` (null when there is none). */
export async function snapshotAtOrBefore(client: pg.ClientBase, seq: number): Promise<Snapshot | null> {
  const r = await client.query<{ seq: string; metadata: unknown }>(
    `SELECT seq, metadata FROM ${CATALOG_SCHEMA}.metadata_snapshot WHERE seq <= $1 ORDER BY seq DESC LIMIT 1`,
    [seq],
  );
  const row = r.rows[0];
  return row ? { seq: Number(row.seq), metadata: row.metadata } : null;
}

/** Seq of the newest event (0 when the log is empty). */
export async function headSeq(client: pg.ClientBase): Promise<number> {
  const r = await client.query<{ s: string | null }>(`SELECT max(seq) AS s FROM ${CATALOG_SCHEMA}.metadata_log`);
  return Number(r.rows[0]?.s ?? 0);
}

export async function latestSnapshot(client: pg.ClientBase): Promise<Snapshot | null> {
  const r = await client.query<{ seq: string; metadata: unknown }>(
    `SELECT seq, metadata FROM ${CATALOG_SCHEMA}.metadata_snapshot ORDER BY seq DESC LIMIT 1`,
  );
  const row = r.rows[0];
  return row ? { seq: Number(row.seq), metadata: row.metadata } : null;
}

/** Stores the metadata as of `seq`; keeps the newest few snapshots only. */
export async function writeSnapshot(client: pg.ClientBase, seq: number, metadata: unknown, keep = 3): Promise<void> {
  await client.query(
    `INSERT INTO ${CATALOG_SCHEMA}.metadata_snapshot (seq, metadata) VALUES ($1, $2::jsonb) ON CONFLICT (seq) DO NOTHING`,
    [seq, JSON.stringify(metadata)],
  );
  await client.query(
    `DELETE FROM ${CATALOG_SCHEMA}.metadata_snapshot WHERE seq NOT IN
       (SELECT seq FROM ${CATALOG_SCHEMA}.metadata_snapshot ORDER BY seq DESC LIMIT $1)`,
    [keep],
  );
}

/** True when appending from `from` to `to` crosses a multiple of `every`. */
export const crossesSnapshot = (from: number, to: number, every: number): boolean =>
  Math.floor(to / every) > Math.floor(from / every);

/** Whether engine_catalog exists at all (history replay wants an empty target). */
export async function catalogExists(client: pg.ClientBase): Promise<boolean> {
  const r = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [CATALOG_SCHEMA]);
  return r.rowCount !== 0;
}
