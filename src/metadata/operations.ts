// The one table of /v1/query operations (as the original's RQLQuery union with its total
// queryModifiesSchemaCache): for every type, its argument schema per version, who may call it, its access mode in
// a bulk, and what runs it. A metadata command's entry (operations/<family>.ts) binds its args schema, whose
// output is the command, to its decide function, the I/O it needs, its catalog refresh and its consistency rule.
// Adding an operation is one entry in its family's file (the compiler asks for every field) plus its decide
// function in events/decide.
import { z } from 'zod';
import { publicInconsistencies } from '../cache/objects.js';
import { decode, optionalBool } from '../../events/argument-shapes.js';
import { exportMetadata } from '../../projections/export.js';
import { appliedMigrations, parseMigrationArgs } from './migrations.js';
import { exportAt, historyDiff, historyDiffArgs, historyExportArgs, historyList, historyListArgs } from './history.js';
import { runCount, runSelect } from './dml/select.js';
import { runDelete, runInsert, runUpdate } from './dml/mutation.js';
import { data, ignoreArgs, read, type Access, type Operation, type Operations } from './operations/entry.js';
import { METADATA_OPERATIONS } from './operations/metadata.js';
import { TABLE_OPERATIONS } from './operations/tables.js';
import { FUNCTION_OPERATIONS } from './operations/functions.js';
import { RELATIONSHIP_OPERATIONS } from './operations/relationships.js';
import { PERMISSION_OPERATIONS } from './operations/permissions.js';
import { COLLECTION_OPERATIONS } from './operations/collections.js';
import { ACTION_OPERATIONS } from './operations/actions.js';
import { EVENT_TRIGGER_OPERATIONS } from './operations/event-triggers.js';
import { REMOTE_SCHEMA_OPERATIONS } from './operations/remote-schemas.js';
import { REMOTE_RELATIONSHIP_OPERATIONS } from './operations/remote-relationships.js';
import { SCHEDULED_TRIGGER_OPERATIONS } from './operations/scheduled-triggers.js';

export type { Access, Check, Decision, EventLogContext, Operation, ReadContext } from './operations/entry.js';

const runSqlArgs = z.object({ sql: z.string(), cascade: optionalBool, check_metadata_consistency: optionalBool, read_only: optionalBool });
export type RunSqlArgs = z.output<typeof runSqlArgs>;

export const OPERATIONS: Operations = {
  bulk: { kind: 'bulk', versions: { 1: ignoreArgs } },
  run_sql: {
    kind: 'run_sql',
    caller: 'admin',
    access: (raw) => ((raw as { read_only?: unknown } | null)?.read_only === true ? 'read' : 'write'),
    versions: { 1: (raw) => decode(runSqlArgs, raw) },
  },

  // Reads
  export_metadata: read(({ state: s }) => exportMetadata(s.metadata)),
  get_inconsistent_metadata: read(({ state: s }) => ({
    is_consistent: s.cache.inconsistent.length === 0,
    inconsistent_objects: publicInconsistencies(s.cache.inconsistent),
  })),
  dump_internal_state: read(({ state: s }) => ({ metadata: exportMetadata(s.metadata), inconsistent_objects: publicInconsistencies(s.cache.inconsistent) })),
  // The log's history (engine extensions): read from the log on the request's transaction.
  engine_history_list: read(({ client }, raw) => {
    const a = historyListArgs(raw);
    return historyList(client, a.offset, a.limit);
  }),
  engine_history_export: read(({ client }, raw) => exportAt(client, historyExportArgs(raw).version)),
  engine_history_diff: read(({ client }, raw) => {
    const a = historyDiffArgs(raw);
    return historyDiff(client, a.from, a.to);
  }),

  // Schema migrations (engine extensions, the CLI's `migrate`): one migration's SQL and version row; the applied versions.
  engine_apply_migration: { kind: 'migration', caller: 'admin', access: 'write', versions: { 1: parseMigrationArgs } },
  engine_migration_status: read(async ({ client }) => ({ migrations: await appliedMigrations(client) })),

  // v1 DML
  select: data('either', runSelect),
  count: data('either', runCount),
  insert: data('write', runInsert),
  update: data('write', runUpdate),
  delete: data('write', runDelete),

  // Metadata commands, by family
  ...METADATA_OPERATIONS,
  ...TABLE_OPERATIONS,
  ...FUNCTION_OPERATIONS,
  ...RELATIONSHIP_OPERATIONS,
  ...PERMISSION_OPERATIONS,
  ...COLLECTION_OPERATIONS,
  ...ACTION_OPERATIONS,
  ...EVENT_TRIGGER_OPERATIONS,
  ...REMOTE_SCHEMA_OPERATIONS,
  ...REMOTE_RELATIONSHIP_OPERATIONS,
  ...SCHEDULED_TRIGGER_OPERATIONS,
};

/** The operation of a type (own entries only: `constructor` is not an operation). */
export const operationOf = (type: string): Operation | undefined =>
  Object.prototype.hasOwnProperty.call(OPERATIONS, type) ? OPERATIONS[type] : undefined;

/** Whether any role may send this body (v1 DML only, possibly in bulks); everything else is admin only. */
export function anyRoleMay(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { type, args } = body as { type?: unknown; args?: unknown };
  if (type === 'bulk') return Array.isArray(args) && args.every(anyRoleMay);
  const op = typeof type === 'string' ? operationOf(type) : undefined;
  return op !== undefined && op.kind !== 'bulk' && op.caller === 'any';
}

/** The access mode a query object forces on its bulk (null: fits any); unknown types count as writes. */
export function accessOf(item: unknown): Access | null {
  if (typeof item !== 'object' || item === null) return null;
  const { type, args } = item as { type?: unknown; args?: unknown };
  const op = typeof type === 'string' ? operationOf(type) : undefined;
  if (op === undefined) return 'write';
  if (op.kind === 'bulk') {
    if (!Array.isArray(args)) return 'write';
    return args.map(accessOf).find((m) => m !== null && m !== 'either') ?? null;
  }
  const mode = typeof op.access === 'function' ? op.access(args) : op.access;
  return mode === 'either' ? null : mode;
}
