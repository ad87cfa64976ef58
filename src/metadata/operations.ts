// The one table of /v1/query operations (as the original's RQLQuery union with its total
// queryModifiesSchemaCache): for every type, its argument parser per version, who may call it, its access mode
// in a bulk, and what runs it. A metadata command binds its parsed args to its decide function, the I/O it needs,
// its catalog refresh and its consistency rule. Adding an operation is one entry here (the compiler asks for
// every field) plus its parser and decide function in events/.
import type pg from 'pg';
import { qualifiedKey, type QualifiedName } from '../core/names.js';
import type { EngineState } from '../cache/state.js';
import { actionId, computedFieldId, customTypesId, functionId, permissionId, publicInconsistencies, relationshipId, tableId } from '../cache/build.js';
import { args as A, decode, type RunSqlArgs } from '../../events/commands.js';
import * as P from '../../events/parse.js';
import type { DecideContext } from '../../events/decide/common.js';
import { decideTable } from '../../events/decide/tables.js';
import { decideFunction } from '../../events/decide/functions.js';
import { decideRelationship } from '../../events/decide/relationships.js';
import { decideComputedField } from '../../events/decide/computed-fields.js';
import { decidePermission } from '../../events/decide/permissions.js';
import { decideCollection } from '../../events/decide/collections.js';
import { decideAction } from '../../events/decide/actions.js';
import { decideEventTrigger, parseInvokeArgs, parseRedeliverArgs } from '../../events/decide/event-triggers.js';
import { invokeEventTrigger, redeliverEvent } from '../triggers/ops.js';
import { decideRemoteSchema } from '../../events/decide/remote-schemas.js';
import { decideMetadata, type MetadataCommand } from '../../events/decide/metadata.js';
import type { Event, PermKind } from '../../events/types.js';
import { exportMetadata, parseMetadataDocument } from '../../projections/export.js';
import { checkEventTriggerEnv, checkRemoteSchema, checkReplacedMetadata, reloadRemoteSchema, reloadRemoteSchemas, type Env } from './families.js';
import { remoteSchemaId } from '../remote/schema.js';
import type { Metadata } from '../../projections/metadata.js';
import type { Dml } from './dml/context.js';
import { exportAt, historyDiff, historyDiffArgs, historyExportArgs, historyList, historyListArgs } from './history.js';
import { runCount, runSelect } from './dml/select.js';
import { runDelete, runInsert, runUpdate } from './dml/mutation.js';

/** A bulk's transaction access mode: 'write' (READ WRITE), 'read' (READ ONLY), 'either' (fits any bulk). */
export type Access = 'write' | 'read' | 'either';

/** Argument parsers by version; a version without one is `unknown query type: T (version N)`. */
export type Versions<A> = { 1?: (raw: unknown) => A; 2?: (raw: unknown) => A };

/**
 * Which new inconsistency fails the request (Note [Consistency checks] in execute.ts): none, the object the
 * operation stored (by its schema-cache id; others newly inconsistent still fail), any at all, or run_sql's rule.
 */
export type Check = { mode: 'none' } | { mode: 'object'; id: string } | { mode: 'strict' } | { mode: 'sql' };

/** A parsed metadata command, bound to everything the write path needs to run it. */
export interface Decision {
  /** 'fresh': the catalog as this transaction sees it; 'reload': re-introspected after deciding (all enum rows too). */
  catalog: 'fresh' | 'reload';
  decide(ctx: DecideContext): Event[];
  /** I/O the decided objects need (a trigger's env variables, a remote schema's introspection); throws to refuse. */
  io(env: Env, metadata: Metadata): Promise<void>;
  check: Check;
  /** Enum tables whose rows are (re-)read after the events. */
  enums: 'all' | string[];
}

/** What a read-only operation sees: the request's state and its transaction (the history reads the log). */
export interface ReadContext {
  state: EngineState;
  client: pg.ClientBase;
}

/** What an event-log operation runs with (invoke_event_trigger, redeliver_event act on event_log, not metadata). */
export interface EventLogContext extends ReadContext {
  role: string;
  session?: { role: string; variables: Record<string, string> };
}

export type Operation =
  | { kind: 'command'; caller: 'admin'; access: 'write'; versions: Versions<Decision> }
  | { kind: 'event_log'; caller: 'admin'; access: 'write'; versions: Versions<unknown>; run: (ctx: EventLogContext, args: unknown) => Promise<unknown> }
  | { kind: 'read'; caller: 'admin'; access: 'either'; versions: Versions<unknown>; answer: (ctx: ReadContext, args: unknown) => unknown }
  | { kind: 'data'; caller: 'any'; access: 'either' | 'write'; versions: Versions<unknown>; run: (dml: Dml, args: unknown) => Promise<unknown> }
  | { kind: 'run_sql'; caller: 'admin'; access: (raw: unknown) => Access; versions: Versions<RunSqlArgs> }
  | { kind: 'bulk'; versions: Versions<unknown> };

// ---------------------------------------------------------------------------------------------------------------
// Entry builders

interface CommandSpec<C> {
  versions: Versions<C>;
  // NoInfer: the command type comes from the parsers; decide may take its whole family's union.
  decide: (cmd: NoInfer<C>, ctx: DecideContext) => Event[];
  io?: (cmd: NoInfer<C>, env: Env, metadata: Metadata) => Promise<void>;
  check?: (cmd: NoInfer<C>) => Check;
  enums?: (cmd: NoInfer<C>) => 'all' | string[];
  catalog?: 'fresh' | 'reload';
}

const NO_CHECK: Check = { mode: 'none' };
const noIo = async (): Promise<void> => undefined;
const object = (id: string): Check => ({ mode: 'object', id });
const enumOf = (t: QualifiedName): string[] => [qualifiedKey(t)];

/** A metadata command: each version's parser output is bound to the spec's functions (typed per command). */
function command<C>(spec: CommandSpec<C>): Operation {
  const bind = (parse: (raw: unknown) => C) => (raw: unknown): Decision => {
    const cmd = parse(raw);
    return {
      catalog: spec.catalog ?? 'fresh',
      decide: (ctx) => spec.decide(cmd, ctx),
      io: (env, metadata) => (spec.io ?? noIo)(cmd, env, metadata),
      check: spec.check?.(cmd) ?? NO_CHECK,
      enums: spec.enums?.(cmd) ?? [],
    };
  };
  const versions: Versions<Decision> = {};
  if (spec.versions[1]) versions[1] = bind(spec.versions[1]);
  if (spec.versions[2]) versions[2] = bind(spec.versions[2]);
  return { kind: 'command', caller: 'admin', access: 'write', versions };
}

const ignoreArgs = (raw: unknown): unknown => raw;
/** A read-only operation; its args (if any) are parsed when it runs. */
const read = (answer: (ctx: ReadContext, args: unknown) => unknown): Operation =>
  ({ kind: 'read', caller: 'admin', access: 'either', versions: { 1: ignoreArgs }, answer });
/** v1 DML: any role may call it; its args are parsed against the role's tables when it runs. */
const data = (access: 'either' | 'write', run: (dml: Dml, args: unknown) => Promise<unknown>): Operation =>
  ({ kind: 'data', caller: 'any', access, versions: { 1: ignoreArgs }, run });

const table = (check: (t: QualifiedName) => string) => ({
  check: (c: { table: QualifiedName }) => object(check(c.table)),
  enums: (c: { table: QualifiedName }) => enumOf(c.table),
});

const permissionOps = (kind: PermKind): Record<string, Operation> => ({
  [`create_${kind}_permission`]: command({
    versions: { 1: P.createPermission(kind) },
    decide: decidePermission,
    check: (c) => object(permissionId(c.table, c.role, c.kind)),
  }),
  [`drop_${kind}_permission`]: command({ versions: { 1: P.dropPermission(kind) }, decide: decidePermission }),
});

// ---------------------------------------------------------------------------------------------------------------
// The table

/** replace_metadata's args are a whole export document (projections/export.ts reads both versions). */
const replaceMetadata = (raw: unknown): Extract<MetadataCommand, { op: 'replace_metadata' }> =>
  ({ op: 'replace_metadata', metadata: parseMetadataDocument(raw) });

const trackTable = command({ versions: { 1: P.trackTableV1, 2: P.trackTableV2 }, decide: decideTable, ...table(tableId) });

export const OPERATIONS: Readonly<Record<string, Operation>> = {
  bulk: { kind: 'bulk', versions: { 1: ignoreArgs } },
  run_sql: {
    kind: 'run_sql',
    caller: 'admin',
    access: (raw) => ((raw as { read_only?: unknown } | null)?.read_only === true ? 'read' : 'write'),
    versions: { 1: (raw) => decode(A.run_sql, raw) },
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

  // v1 DML
  select: data('either', runSelect),
  count: data('either', runCount),
  insert: data('write', runInsert),
  update: data('write', runUpdate),
  delete: data('write', runDelete),

  // Whole metadata
  clear_metadata: command({ versions: { 1: P.clearMetadata }, decide: decideMetadata }),
  reload_metadata: command({
    versions: { 1: P.reloadMetadata },
    decide: decideMetadata,
    catalog: 'reload',
    enums: () => 'all',
    io: (c, env, m) => (c.op === 'reload_metadata' && c.reload_remote_schemas ? reloadRemoteSchemas(m, env) : Promise.resolve()),
  }),
  replace_metadata: command({
    versions: { 1: replaceMetadata },
    decide: decideMetadata,
    io: (c, env) => checkReplacedMetadata(c.metadata, env),
    check: () => ({ mode: 'strict' }),
    enums: () => 'all',
  }),
  drop_inconsistent_metadata: command({ versions: { 1: P.dropInconsistentMetadata }, decide: decideMetadata, check: () => ({ mode: 'strict' }) }),

  // Tables
  track_table: trackTable,
  add_existing_table_or_view: command({ versions: { 1: P.trackTableV1 }, decide: decideTable, ...table(tableId) }),
  untrack_table: command({ versions: { 1: P.untrackTable }, decide: decideTable }),
  set_table_is_enum: command({ versions: { 1: P.setTableIsEnum }, decide: decideTable, ...table(tableId) }),
  set_table_custom_fields: command({ versions: { 2: P.setTableCustomFields }, decide: decideTable, ...table(tableId) }),

  // Functions
  track_function: command({
    versions: { 1: P.trackFunctionV1, 2: P.trackFunctionV2 },
    decide: decideFunction,
    check: (c) => object(functionId(c.function)),
  }),
  untrack_function: command({ versions: { 1: P.untrackFunction }, decide: decideFunction }),

  // Relationships and computed fields
  create_object_relationship: command({
    versions: { 1: P.createRelationship('object') },
    decide: decideRelationship,
    check: (c) => object(relationshipId(c.table, c.relationship.name)),
  }),
  create_array_relationship: command({
    versions: { 1: P.createRelationship('array') },
    decide: decideRelationship,
    check: (c) => object(relationshipId(c.table, c.relationship.name)),
  }),
  drop_relationship: command({ versions: { 1: P.dropRelationship }, decide: decideRelationship }),
  rename_relationship: command({ versions: { 1: P.renameRelationship }, decide: decideRelationship }),
  set_relationship_comment: command({ versions: { 1: P.setRelationshipComment }, decide: decideRelationship }),
  add_computed_field: command({
    versions: { 1: P.addComputedField },
    decide: decideComputedField,
    check: (c) => object(computedFieldId(c.table, c.computed_field.name)),
  }),
  drop_computed_field: command({ versions: { 1: P.dropComputedField }, decide: decideComputedField }),

  // Permissions
  ...permissionOps('insert'),
  ...permissionOps('select'),
  ...permissionOps('update'),
  ...permissionOps('delete'),
  set_permission_comment: command({ versions: { 1: P.setPermissionComment }, decide: decidePermission }),

  // Query collections and the allow-list
  create_query_collection: command({ versions: { 1: P.createQueryCollection }, decide: (c, ctx) => decideCollection(c, ctx.metadata) }),
  drop_query_collection: command({ versions: { 1: P.dropQueryCollection }, decide: (c, ctx) => decideCollection(c, ctx.metadata) }),
  add_query_to_collection: command({ versions: { 1: P.addQueryToCollection }, decide: (c, ctx) => decideCollection(c, ctx.metadata) }),
  drop_query_from_collection: command({ versions: { 1: P.dropQueryFromCollection }, decide: (c, ctx) => decideCollection(c, ctx.metadata) }),
  add_collection_to_allowlist: command({
    versions: { 1: P.addCollectionToAllowlist },
    decide: (c, ctx) => decideCollection(c, ctx.metadata),
  }),
  drop_collection_from_allowlist: command({
    versions: { 1: P.dropCollectionFromAllowlist },
    decide: (c, ctx) => decideCollection(c, ctx.metadata),
  }),

  // Actions and custom types
  set_custom_types: command({ versions: { 1: P.setCustomTypes }, decide: decideAction, check: () => object(customTypesId()) }),
  create_action: command({ versions: { 1: P.createAction }, decide: decideAction, check: (c) => object(actionId(c.action.name)) }),
  update_action: command({ versions: { 1: P.updateAction }, decide: decideAction, check: (c) => object(actionId(c.name)) }),
  drop_action: command({ versions: { 1: P.dropAction }, decide: decideAction }),
  create_action_permission: command({ versions: { 1: P.createActionPermission }, decide: decideAction }),
  drop_action_permission: command({ versions: { 1: P.dropActionPermission }, decide: decideAction }),

  // Event triggers
  create_event_trigger: command({
    versions: { 1: P.createEventTrigger },
    decide: decideEventTrigger,
    io: async (c, env) => checkEventTriggerEnv(c.table, c.trigger, env),
  }),
  delete_event_trigger: command({ versions: { 1: P.deleteEventTrigger }, decide: decideEventTrigger }),
  redeliver_event: { kind: 'event_log', caller: 'admin', access: 'write', versions: { 1: parseRedeliverArgs }, run: (ctx, a) => redeliverEvent(ctx, a as { event_id: string }) },
  invoke_event_trigger: { kind: 'event_log', caller: 'admin', access: 'write', versions: { 1: parseInvokeArgs }, run: (ctx, a) => invokeEventTrigger(ctx, a as { name: string; payload: unknown }) },

  // Remote schemas
  add_remote_schema: command({
    versions: { 1: P.addRemoteSchema },
    decide: decideRemoteSchema,
    io: (c, env) => checkRemoteSchema(c.remote_schema, env),
    check: (c) => (c.op === 'add_remote_schema' ? object(remoteSchemaId(c.remote_schema.name)) : NO_CHECK),
  }),
  remove_remote_schema: command({ versions: { 1: P.removeRemoteSchema }, decide: decideRemoteSchema }),
  reload_remote_schema: command({
    versions: { 1: P.reloadRemoteSchema },
    decide: decideRemoteSchema,
    io: (c, env, m) => (c.op === 'reload_remote_schema' ? reloadRemoteSchema(m, c.name, env) : Promise.resolve()),
  }),
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
