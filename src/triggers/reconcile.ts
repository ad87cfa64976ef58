// Keeps the Postgres capture triggers equal to the metadata, inside the caller's transaction. Every path that
// changes metadata or the schema (create/replace/delete_event_trigger, untrack, replace/clear_metadata, run_sql
// renames and drops, history replay, start-up) converges by calling this, instead of each operation knowing
// which triggers it touches. Installed functions carry a hash of their definition; only differences are rewritten.
import type pg from 'pg';
import { qualifiedKey, type QualifiedName } from '../core/names.js';
import { inTransaction } from '../core/transaction.js';
import { eventTriggers } from '../../events/types.js';
import { headSeq, lockWriters } from '../../events/log.js';
import type { Metadata } from '../../projections/metadata.js';
import { captureObjects, dropCaptureDdl, VIEWS_SCHEMA, type CaptureObject } from './capture.js';

interface Installed {
  name: string;
  hash: string | null;
  /** Tables whose trigger of that name uses the function ([schema, table]). */
  tables: Array<[string, string]>;
}

interface TableShape {
  schema: string;
  name: string;
  kind: string;
  columns: string[];
}

/** Brings the capture triggers, engine_catalog.event_triggers and the archive flag in line with `metadata`. */
export async function reconcileEventTriggers(client: pg.ClientBase, metadata: Metadata): Promise<void> {
  const triggers = eventTriggers(metadata);
  const installed = await readInstalled(client);
  const shapes = await readTables(client, [...new Map(triggers.map(({ table }) => [qualifiedKey(table), table])).values()]);
  const wanted = triggers.flatMap(({ table, trigger }) =>
    captureObjects(table, trigger, shapes.get(qualifiedKey(table))?.kind === 'p' ? 'partitioned' : 'table'));
  const byName = new Map(installed.map((i) => [i.name, i]));
  const ddl: string[] = [];
  const keep = new Set<string>();
  for (const w of wanted) {
    if (!installable(w, shapes.get(qualifiedKey(w.table)))) continue;
    keep.add(w.name);
    const have = byName.get(w.name);
    if (have && upToDate(have, w)) continue;
    if (have) ddl.push(dropCaptureDdl(w.name));
    ddl.push(...w.ddl);
  }
  for (const i of installed) if (!keep.has(i.name)) ddl.push(dropCaptureDdl(i.name));
  for (const statement of ddl) await client.query(statement);
  await syncCatalogRows(client, triggers.map(({ table, trigger }) => ({ name: trigger.name, schema_name: table.schema, table_name: table.name, configuration: trigger })));
}

const upToDate = (have: Installed, w: CaptureObject): boolean =>
  have.hash === w.hash && have.tables.length === 1 && have.tables[0][0] === w.table.schema && have.tables[0][1] === w.table.name;

/** A trigger is installed only on an existing table that has every column its function names (else it would break writes). */
function installable(w: CaptureObject, shape: TableShape | undefined): boolean {
  if (!shape || (shape.kind !== 'r' && shape.kind !== 'p')) return false;
  return (w.columns ?? []).every((c) => shape.columns.includes(c));
}

async function readInstalled(client: pg.ClientBase): Promise<Installed[]> {
  const r = await client.query<Installed>(
    `SELECT p.proname AS name, obj_description(p.oid, 'pg_proc') AS hash,
       coalesce((SELECT json_agg(json_build_array(tn.nspname, tc.relname))
                 FROM pg_trigger t JOIN pg_class tc ON tc.oid = t.tgrelid JOIN pg_namespace tn ON tn.oid = tc.relnamespace
                 WHERE t.tgfoid = p.oid AND t.tgname = p.proname), '[]') AS tables
     FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE n.nspname = $1 AND p.proname LIKE 'notify\\_engine\\_%'`,
    [VIEWS_SCHEMA],
  );
  return r.rows;
}

async function readTables(client: pg.ClientBase, tables: QualifiedName[]): Promise<Map<string, TableShape>> {
  if (tables.length === 0) return new Map();
  const r = await client.query<TableShape>(
    `SELECT n.nspname AS schema, c.relname AS name, c.relkind::text AS kind,
       coalesce(array_agg(a.attname::text) FILTER (WHERE a.attname IS NOT NULL), '{}') AS columns
     FROM unnest($1::text[], $2::text[]) AS w(s, t)
     JOIN pg_namespace n ON n.nspname = w.s
     JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = w.t
     LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
     GROUP BY 1, 2, 3`,
    [tables.map((t) => t.schema), tables.map((t) => t.name)],
  );
  return new Map(r.rows.map((row) => [qualifiedKey({ schema: row.schema, name: row.name }), row]));
}

// Note [Archiving]
// As in the original, a trigger that leaves the metadata (deleted, its table untracked, metadata cleared or
// replaced without it) archives its events: they stay in event_log for inspection but are never delivered.
async function syncCatalogRows(client: pg.ClientBase, rows: Array<Record<string, unknown>>): Promise<void> {
  const wanted = JSON.stringify(rows);
  const gone = await client.query<{ name: string }>(
    `DELETE FROM engine_catalog.event_triggers e
     WHERE NOT EXISTS (SELECT 1 FROM jsonb_to_recordset($1::jsonb) AS w(name text) WHERE w.name = e.name)
     RETURNING e.name`,
    [wanted],
  );
  if (gone.rows.length > 0) {
    const names = gone.rows.map((r) => r.name);
    // Batches first, each statement with its own snapshot: a batch a worker expands meanwhile is waited for and
    // then gone, and its rows are visible to the next statement (Note [Event batches]).
    await client.query('UPDATE engine_catalog.event_log_batches SET archived = true WHERE trigger_name = ANY($1::text[]) AND NOT archived', [names]);
    await client.query('UPDATE engine_catalog.event_log_rows SET archived = true WHERE trigger_name = ANY($1::text[]) AND NOT archived', [names]);
  }
  await client.query(
    `INSERT INTO engine_catalog.event_triggers AS e (name, type, schema_name, table_name, configuration)
     SELECT name, 'table', schema_name, table_name, configuration
     FROM jsonb_to_recordset($1::jsonb) AS w(name text, schema_name text, table_name text, configuration jsonb)
     ON CONFLICT (name) DO UPDATE SET schema_name = excluded.schema_name, table_name = excluded.table_name,
       configuration = excluded.configuration
     WHERE (e.schema_name, e.table_name, e.configuration) IS DISTINCT FROM (excluded.schema_name, excluded.table_name, excluded.configuration)`,
    [wanted],
  );
}

/**
 * Reconciles at most once per metadata value within one request transaction (metadata values are immutable, so
 * identity tells whether it changed); SQL that may have changed the schema forces the next call.
 */
export class TriggerSync {
  private stale = false;
  constructor(
    private readonly client: pg.ClientBase,
    private reconciled: Metadata | null,
  ) {}

  /** The schema may have changed (run_sql): reconcile on the next call even for the same metadata. */
  markStale(): void {
    this.stale = true;
  }

  async sync(metadata: Metadata): Promise<void> {
    if (!this.stale && metadata === this.reconciled) return;
    await reconcileEventTriggers(this.client, metadata);
    this.reconciled = metadata;
    this.stale = false;
  }
}

/**
 * At start-up (a database written by an engine without capture, or a newer trigger generator): reconcile under
 * the writers' lock, if the log has not moved past the state this instance loaded (a writer that moved it has
 * reconciled in its own transaction).
 */
export async function reconcileOnStart(
  client: pg.ClientBase,
  state: { seq: number; metadata: Metadata },
  also: ReadonlyArray<(client: pg.ClientBase, metadata: Metadata) => Promise<void>> = [],
): Promise<void> {
  await inTransaction(client, async () => {
    await lockWriters(client);
    if ((await headSeq(client)) === state.seq) {
      await reconcileEventTriggers(client, state.metadata);
      // Other features' catalog objects that follow the metadata (cron triggers).
      for (const reconcile of also) await reconcile(client, state.metadata);
    }
  });
}
