// The metadata model (what the log folds into) and the Event union: facts about metadata, never requests.
// Plain JSON data only, so events, snapshots and exports serialise without loss.
import { qualifiedKey, type QualifiedName } from '../src/core/names.js';
import type { ActionDefinition, ActionMeta, CustomTypes } from './actions.js';
import type { CronTriggerMeta } from './cron-triggers.js';
import type { EventTriggerConf } from './event-triggers.js';
import type { RemoteSchemaMeta } from './remote-schemas.js';
import type { RemoteRelationshipMeta } from './remote-relationships.js';
import type { PermissionDefs } from './permissions.js';

// ---------------------------------------------------------------------------------------------------------------
// Metadata model

export type ObjRelUsing =
  | { foreign_key_constraint_on: string }
  | { manual_configuration: ManualRelConfig };
export type ArrRelUsing =
  | { foreign_key_constraint_on: { table: QualifiedName; column: string } }
  | { manual_configuration: ManualRelConfig };
export interface ManualRelConfig {
  remote_table: QualifiedName;
  column_mapping: Record<string, string>;
}

export type RelKind = 'object' | 'array';

export interface RelationshipMeta {
  name: string;
  using: ObjRelUsing | ArrRelUsing;
  comment: string | null;
}

export interface ComputedFieldDefinition {
  function: QualifiedName;
  table_argument?: string;
  session_argument?: string;
}

export interface ComputedFieldMeta {
  name: string;
  definition: ComputedFieldDefinition;
  comment: string | null;
}

export type PermKind = keyof PermissionDefs;
export const PERM_KINDS: readonly PermKind[] = ['insert', 'select', 'update', 'delete'];

export interface PermissionMeta<K extends PermKind = PermKind> {
  role: string;
  permission: PermissionDefs[K];
  comment: string | null;
}

/** A permission's rules, of any kind (the `kind` beside them says which). */
export type Permission = PermissionDefs[PermKind];

/** A table's permissions of one kind, keyed by role (read as any kind's: the caller keeps kind and rules together). */
export const permissionsOf = (t: TableMeta, kind: PermKind): Record<string, PermissionMeta> => t[permKey(kind)];

/**
 * permission_updated on a metadata being changed in place (evolve's immer draft): the permission's rules replaced,
 * its comment kept. decide applies it too, to see its own renames (events/decide/local-fold.ts).
 */
export function updatePermissionRules(m: Metadata, d: EventOf<'permission_updated'>['data']): void {
  const t = m.tables[qualifiedKey(d.table)];
  const p = t ? permissionsOf(t, d.kind)[d.role] : undefined;
  if (p) p.permission = structuredClone(d.permission);
}

export interface TableConfiguration {
  custom_root_fields: Record<string, string>;
  custom_column_names: Record<string, string>;
}

export interface TableMeta {
  table: QualifiedName;
  is_enum: boolean;
  configuration: TableConfiguration;
  object_relationships: Record<string, RelationshipMeta>;
  array_relationships: Record<string, RelationshipMeta>;
  computed_fields: Record<string, ComputedFieldMeta>;
  /** Keyed by role. */
  insert_permissions: Record<string, PermissionMeta<'insert'>>;
  select_permissions: Record<string, PermissionMeta<'select'>>;
  update_permissions: Record<string, PermissionMeta<'update'>>;
  delete_permissions: Record<string, PermissionMeta<'delete'>>;
  event_triggers: EventTriggerConf[];
  /** create_remote_relationship's (events/remote-relationships.ts), in creation order. */
  remote_relationships: RemoteRelationshipMeta[];
}

export interface FunctionMeta {
  function: QualifiedName;
  configuration: { session_argument?: string };
}

export interface CollectionQuery {
  name: string;
  query: string;
}

export interface QueryCollection {
  name: string;
  definition: { queries: CollectionQuery[] };
  comment?: string | null;
}

export interface Metadata {
  /** Keyed by qualifiedKey(table). */
  tables: Record<string, TableMeta>;
  /** Keyed by qualifiedKey(function). */
  functions: Record<string, FunctionMeta>;
  remote_schemas: RemoteSchemaMeta[];
  query_collections: QueryCollection[];
  allowlist: Array<{ collection: string }>;
  actions: ActionMeta[];
  custom_types: CustomTypes;
  cron_triggers: unknown[];
}

export const emptyMetadata = (): Metadata => ({
  tables: {},
  functions: {},
  remote_schemas: [],
  query_collections: [],
  allowlist: [],
  actions: [],
  custom_types: {},
  cron_triggers: [],
});

export const emptyTableMeta = (table: QualifiedName): TableMeta => ({
  table,
  is_enum: false,
  configuration: { custom_root_fields: {}, custom_column_names: {} },
  object_relationships: {},
  array_relationships: {},
  computed_fields: {},
  insert_permissions: {},
  select_permissions: {},
  update_permissions: {},
  delete_permissions: {},
  event_triggers: [],
  remote_relationships: [],
});

/** Every stored event trigger with its table. */
/** The cron triggers of a metadata (the original's CronTriggerMetadata). */
export const cronTriggers = (m: Metadata): CronTriggerMeta[] => m.cron_triggers as CronTriggerMeta[];
export const eventTriggers = (m: Metadata): Array<{ table: QualifiedName; trigger: EventTriggerConf }> =>
  Object.values(m.tables).flatMap((t) => t.event_triggers.map((trigger) => ({ table: t.table, trigger })));

export const permKey = <K extends PermKind>(kind: K): `${K}_permissions` => `${kind}_permissions` as `${K}_permissions`;
export const relKey = (kind: RelKind): 'object_relationships' | 'array_relationships' =>
  kind === 'object' ? 'object_relationships' : 'array_relationships';

// ---------------------------------------------------------------------------------------------------------------
// Events

/** The schema migration a sql_ran event applied (engine_apply_migration): its version row changed with the SQL. */
export interface MigrationRef {
  version: string;
  name: string;
  direction: 'up' | 'down';
  /** The file the SQL came from (`<version>_<name>/up.sql`), as the CLI sent it. */
  file: string | null;
  /** Only the version row changed (`--skip-execution`); `sql` is empty. */
  skip_execution: boolean;
}

/** Each event type's data: the facts the log records about metadata. */
export interface EventData {
  table_tracked: { table: QualifiedName; is_enum: boolean; configuration: TableConfiguration };
  table_untracked: { table: QualifiedName };
  table_enum_set: { table: QualifiedName; is_enum: boolean };
  table_custom_fields_set: { table: QualifiedName; configuration: TableConfiguration };
  /** A tracked table renamed in Postgres (by run_sql): every reference follows. */
  table_renamed: { from: QualifiedName; to: QualifiedName };
  /** A column of a tracked table renamed in Postgres: every reference follows. */
  column_renamed: { table: QualifiedName; from: string; to: string };
  function_tracked: { function: QualifiedName; configuration: { session_argument?: string } };
  function_untracked: { function: QualifiedName };
  relationship_created: { table: QualifiedName; kind: RelKind; relationship: RelationshipMeta };
  relationship_dropped: { table: QualifiedName; name: string };
  relationship_renamed: { table: QualifiedName; name: string; new_name: string };
  relationship_comment_set: { table: QualifiedName; name: string; comment: string | null };
  computed_field_added: { table: QualifiedName; computed_field: ComputedFieldMeta };
  computed_field_dropped: { table: QualifiedName; name: string };
  permission_created: { table: QualifiedName; kind: PermKind; role: string; permission: Permission; comment: string | null };
  permission_dropped: { table: QualifiedName; kind: PermKind; role: string };
  /** A permission's rules rewritten because something it names was renamed (the comment stays). */
  permission_updated: { table: QualifiedName; kind: PermKind; role: string; permission: Permission };
  permission_comment_set: { table: QualifiedName; kind: PermKind; role: string; comment: string | null };
  sql_ran: { sql: string; cascade: boolean; check_metadata_consistency: boolean | null; read_only: boolean; migration?: MigrationRef };
  metadata_replaced: { metadata: Metadata };
  metadata_cleared: Record<string, never>;
  metadata_reloaded: { reload_remote_schemas: boolean };
  event_trigger_created: { table: QualifiedName; trigger: EventTriggerConf };
  event_trigger_deleted: { name: string };
  remote_schema_added: { remote_schema: RemoteSchemaMeta };
  remote_schema_removed: { name: string };
  /** A fact other instances act on: the remote was introspected again (they introspect it again when they fold it). */
  remote_schema_reloaded: { name: string };
  remote_relationship_created: { table: QualifiedName; relationship: RemoteRelationshipMeta };
  /** update_remote_relationship: the definition replaced, the position kept. */
  remote_relationship_updated: { table: QualifiedName; relationship: RemoteRelationshipMeta };
  remote_relationship_deleted: { table: QualifiedName; name: string };
  query_collection_created: { collection: QueryCollection };
  query_collection_dropped: { name: string };
  collection_query_added: { collection: string; query: CollectionQuery };
  collection_query_dropped: { collection: string; query_name: string };
  allowlist_collection_added: { collection: string };
  allowlist_collection_dropped: { collection: string };
  custom_types_set: { custom_types: CustomTypes };
  action_created: { action: ActionMeta };
  action_updated: { name: string; definition: ActionDefinition };
  action_dropped: { name: string; clear_data: boolean };
  action_permission_created: { action: string; role: string; comment: string | null };
  action_permission_dropped: { action: string; role: string };
  cron_trigger_created: { trigger: CronTriggerMeta };
  /** create_cron_trigger with replace: the definition is swapped, its unstarted events are generated again. */
  cron_trigger_updated: { trigger: CronTriggerMeta };
  cron_trigger_deleted: { name: string };
}

export type EventType = keyof EventData;
/** The event of one type (or of each of several: a union). */
export type EventOf<T extends EventType> = { [P in T]: { type: P; data: EventData[P] } }[T];
export type Event = EventOf<EventType>;

/**
 * What an event means for an instance's catalog (src/sync/projector.ts, Note [Catch-up without introspection]):
 * re-read it (the event changed Postgres), re-read it if the event names an object the instance does not know, or
 * nothing.
 */
export type CatalogEffect = 'reread' | 'if-unknown' | 'none';

// Total over event types: a new event type says here, beside its definition, whether it changes Postgres.
export const CATALOG_EFFECT: Record<EventType, CatalogEffect> = {
  sql_ran: 'reread',
  metadata_reloaded: 'reread',
  metadata_replaced: 'reread',
  metadata_cleared: 'reread',
  table_renamed: 'reread',
  column_renamed: 'reread',
  table_tracked: 'if-unknown',
  function_tracked: 'if-unknown',
  table_untracked: 'none',
  table_enum_set: 'none',
  table_custom_fields_set: 'none',
  function_untracked: 'none',
  relationship_created: 'none',
  relationship_dropped: 'none',
  relationship_renamed: 'none',
  relationship_comment_set: 'none',
  computed_field_added: 'none',
  computed_field_dropped: 'none',
  permission_created: 'none',
  permission_dropped: 'none',
  permission_updated: 'none',
  permission_comment_set: 'none',
  event_trigger_created: 'none',
  event_trigger_deleted: 'none',
  remote_schema_added: 'none',
  remote_schema_removed: 'none',
  remote_schema_reloaded: 'none',
  remote_relationship_created: 'none',
  remote_relationship_updated: 'none',
  remote_relationship_deleted: 'none',
  query_collection_created: 'none',
  query_collection_dropped: 'none',
  collection_query_added: 'none',
  collection_query_dropped: 'none',
  allowlist_collection_added: 'none',
  allowlist_collection_dropped: 'none',
  custom_types_set: 'none',
  action_created: 'none',
  action_updated: 'none',
  action_dropped: 'none',
  action_permission_created: 'none',
  action_permission_dropped: 'none',
  cron_trigger_created: 'none',
  cron_trigger_updated: 'none',
  cron_trigger_deleted: 'none',
};


/** A record's own entry: names like `constructor` must not find Object.prototype's members. */
export const own = <V>(rec: Record<string, V> | undefined, key: string): V | undefined =>
  rec !== undefined && Object.prototype.hasOwnProperty.call(rec, key) ? rec[key] : undefined;

export const ev = <T extends EventType>(type: T, data: EventData[T]): EventOf<T> => ({ type, data });
