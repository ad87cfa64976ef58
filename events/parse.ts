// Each metadata command's args → its Command (defaults filled in, the stored shapes built), one function per
// operation and version. The operation table (src/metadata/operations.ts) names these; decode gives the
// original's parse errors.
import { args as A, collectionArgs as C, decode } from './commands.js';
import { actionArgs as AA, type CustomTypes } from './actions.js';
import type { RelationshipMeta, PermKind } from './types.js';
import type { TableCommand } from './decide/tables.js';
import type { FunctionCommand } from './decide/functions.js';
import type { RelationshipCommand } from './decide/relationships.js';
import type { ComputedFieldCommand } from './decide/computed-fields.js';
import type { PermissionCommand } from './decide/permissions.js';
import type { CollectionCommand } from './decide/collections.js';
import type { ActionCommand } from './decide/actions.js';
import type { MetadataCommand } from './decide/metadata.js';
import { parseEventTriggerCommand, type EventTriggerCommand } from './decide/event-triggers.js';
import { parseRemoteSchemaCommand, type RemoteSchemaCommand } from './decide/remote-schemas.js';

type Cmd<U, Op> = Extract<U, { op: Op }>;
const noConfiguration = () => ({ custom_root_fields: {}, custom_column_names: {} });

export const trackTableV1 = (raw: unknown): Cmd<TableCommand, 'track_table'> => {
  const a = decode(A.track_table_v1, raw);
  return { op: 'track_table', table: a.table, is_enum: a.is_enum, configuration: noConfiguration() };
};

export const trackTableV2 = (raw: unknown): Cmd<TableCommand, 'track_table'> => {
  const a = decode(A.track_table_v2, raw);
  return { op: 'track_table', table: a.table, is_enum: a.is_enum ?? false, configuration: a.configuration ?? noConfiguration() };
};

export const untrackTable = (raw: unknown): Cmd<TableCommand, 'untrack_table'> => {
  const a = decode(A.untrack_table, raw);
  return { op: 'untrack_table', table: a.table, cascade: a.cascade ?? false };
};

export const setTableIsEnum = (raw: unknown): Cmd<TableCommand, 'set_table_is_enum'> => {
  const a = decode(A.set_table_is_enum, raw);
  return { op: 'set_table_is_enum', table: a.table, is_enum: a.is_enum };
};

export const setTableCustomFields = (raw: unknown): Cmd<TableCommand, 'set_table_custom_fields'> => {
  const a = decode(A.set_table_custom_fields, raw);
  return {
    op: 'set_table_custom_fields',
    table: a.table,
    configuration: { custom_root_fields: a.custom_root_fields ?? {}, custom_column_names: a.custom_column_names ?? {} },
  };
};

export const trackFunctionV1 = (raw: unknown): Cmd<FunctionCommand, 'track_function'> =>
  ({ op: 'track_function', function: decode(A.track_function_v1, raw), configuration: {} });

export const trackFunctionV2 = (raw: unknown): Cmd<FunctionCommand, 'track_function'> => {
  const a = decode(A.track_function_v2, raw);
  const s = a.configuration?.session_argument;
  return { op: 'track_function', function: a.function, configuration: s ? { session_argument: s } : {} };
};

export const untrackFunction = (raw: unknown): Cmd<FunctionCommand, 'untrack_function'> =>
  ({ op: 'untrack_function', function: decode(A.untrack_function, raw) });

export const createRelationship = (kind: 'object' | 'array') => (raw: unknown): Cmd<RelationshipCommand, 'create_relationship'> => {
  const a = kind === 'object' ? decode(A.create_object_relationship, raw) : decode(A.create_array_relationship, raw);
  const relationship: RelationshipMeta = { name: a.name, using: a.using, comment: a.comment ?? null };
  return { op: 'create_relationship', kind, table: a.table, relationship };
};

export const dropRelationship = (raw: unknown): Cmd<RelationshipCommand, 'drop_relationship'> => {
  const a = decode(A.drop_relationship, raw);
  return { op: 'drop_relationship', table: a.table, name: a.relationship, cascade: a.cascade ?? false };
};

export const renameRelationship = (raw: unknown): Cmd<RelationshipCommand, 'rename_relationship'> => {
  const a = decode(A.rename_relationship, raw);
  return { op: 'rename_relationship', table: a.table, name: a.name, new_name: a.new_name };
};

export const setRelationshipComment = (raw: unknown): Cmd<RelationshipCommand, 'set_relationship_comment'> => {
  const a = decode(A.set_relationship_comment, raw);
  return { op: 'set_relationship_comment', table: a.table, name: a.relationship, comment: a.comment ?? null };
};

export const addComputedField = (raw: unknown): Cmd<ComputedFieldCommand, 'add_computed_field'> => {
  const a = decode(A.add_computed_field, raw);
  const definition: { function: typeof a.definition.function; table_argument?: string; session_argument?: string } = { function: a.definition.function };
  if (a.definition.table_argument !== undefined) definition.table_argument = a.definition.table_argument;
  if (a.definition.session_argument !== undefined) definition.session_argument = a.definition.session_argument;
  return { op: 'add_computed_field', table: a.table, computed_field: { name: a.name, definition, comment: a.comment ?? null } };
};

export const dropComputedField = (raw: unknown): Cmd<ComputedFieldCommand, 'drop_computed_field'> => {
  const a = decode(A.drop_computed_field, raw);
  return { op: 'drop_computed_field', table: a.table, name: a.name, cascade: a.cascade ?? false };
};

export const createPermission = (kind: PermKind) => (raw: unknown): Cmd<PermissionCommand, 'create_permission'> => {
  const a = decode(A.create_permission(kind), raw);
  return { op: 'create_permission', kind, table: a.table, role: a.role, permission: a.permission, comment: a.comment ?? null };
};

export const dropPermission = (kind: PermKind) => (raw: unknown): Cmd<PermissionCommand, 'drop_permission'> => {
  const a = decode(A.drop_permission, raw);
  return { op: 'drop_permission', kind, table: a.table, role: a.role };
};

export const setPermissionComment = (raw: unknown): Cmd<PermissionCommand, 'set_permission_comment'> => {
  const a = decode(A.set_permission_comment, raw);
  return { op: 'set_permission_comment', kind: a.type, table: a.table, role: a.role, comment: a.comment ?? null };
};

export const createQueryCollection = (raw: unknown): Cmd<CollectionCommand, 'create_query_collection'> => {
  const a = decode(C.create_query_collection, raw);
  return { op: 'create_query_collection', collection: { name: a.name, definition: a.definition, ...(a.comment != null ? { comment: a.comment } : {}) } };
};

export const dropQueryCollection = (raw: unknown): Cmd<CollectionCommand, 'drop_query_collection'> => {
  const a = decode(C.drop_query_collection, raw);
  return { op: 'drop_query_collection', name: a.collection, cascade: a.cascade };
};

export const addQueryToCollection = (raw: unknown): Cmd<CollectionCommand, 'add_query_to_collection'> => {
  const a = decode(C.add_query_to_collection, raw);
  return { op: 'add_query_to_collection', collection: a.collection_name, query: { name: a.query_name, query: a.query } };
};

export const dropQueryFromCollection = (raw: unknown): Cmd<CollectionCommand, 'drop_query_from_collection'> => {
  const a = decode(C.drop_query_from_collection, raw);
  return { op: 'drop_query_from_collection', collection: a.collection_name, query_name: a.query_name };
};

const allowlistCollection = <Op extends 'add_collection_to_allowlist' | 'drop_collection_from_allowlist'>(op: Op) =>
  (raw: unknown): { op: Op; collection: string } => ({ op, collection: decode(C.allowlist, raw).collection });
export const addCollectionToAllowlist = allowlistCollection('add_collection_to_allowlist');
export const dropCollectionFromAllowlist = allowlistCollection('drop_collection_from_allowlist');

export const setCustomTypes = (raw: unknown): Cmd<ActionCommand, 'set_custom_types'> =>
  ({ op: 'set_custom_types', custom_types: normaliseCustomTypes(decode(AA.set_custom_types, raw)) });

export const createAction = (raw: unknown): Cmd<ActionCommand, 'create_action'> => {
  const a = decode(AA.create_action, raw);
  return { op: 'create_action', action: { name: a.name, definition: a.definition, comment: a.comment ?? null, permissions: [] } };
};

export const updateAction = (raw: unknown): Cmd<ActionCommand, 'update_action'> => {
  const a = decode(AA.update_action, raw);
  return { op: 'update_action', name: a.name, definition: a.definition };
};

export const dropAction = (raw: unknown): Cmd<ActionCommand, 'drop_action'> => {
  const a = decode(AA.drop_action, raw);
  return { op: 'drop_action', name: a.name, clear_data: a.clear_data ?? true };
};

export const createActionPermission = (raw: unknown): Cmd<ActionCommand, 'create_action_permission'> => {
  const a = decode(AA.create_action_permission, raw);
  return { op: 'create_action_permission', action: a.action, role: a.role, comment: a.comment ?? null };
};

export const dropActionPermission = (raw: unknown): Cmd<ActionCommand, 'drop_action_permission'> => {
  const a = decode(AA.drop_action_permission, raw);
  return { op: 'drop_action_permission', action: a.action, role: a.role };
};

export const clearMetadata = (): Cmd<MetadataCommand, 'clear_metadata'> => ({ op: 'clear_metadata' });

export const reloadMetadata = (raw: unknown): Cmd<MetadataCommand, 'reload_metadata'> =>
  ({ op: 'reload_metadata', reload_remote_schemas: decode(A.reload_metadata, raw).reload_remote_schemas });

export const dropInconsistentMetadata = (): Cmd<MetadataCommand, 'drop_inconsistent_metadata'> => ({ op: 'drop_inconsistent_metadata' });

/** An event-trigger operation's parser (the family parses by type). */
const eventTriggerOp = <Op extends EventTriggerCommand['op']>(op: Op) => (raw: unknown): Cmd<EventTriggerCommand, Op> => {
  const cmd = parseEventTriggerCommand(op, raw);
  if (cmd?.op !== op) throw new Error(`event-trigger parser does not know ${op}`);
  return cmd as Cmd<EventTriggerCommand, Op>;
};

/** A remote-schema operation's parser. */
const remoteSchemaOp = <Op extends RemoteSchemaCommand['op']>(op: Op) => (raw: unknown): Cmd<RemoteSchemaCommand, Op> => {
  const cmd = parseRemoteSchemaCommand(op, raw);
  if (cmd?.op !== op) throw new Error(`remote-schema parser does not know ${op}`);
  return cmd as Cmd<RemoteSchemaCommand, Op>;
};

export const createEventTrigger = eventTriggerOp('create_event_trigger');
export const deleteEventTrigger = eventTriggerOp('delete_event_trigger');
export const addRemoteSchema = remoteSchemaOp('add_remote_schema');
export const removeRemoteSchema = remoteSchemaOp('remove_remote_schema');
export const reloadRemoteSchema = remoteSchemaOp('reload_remote_schema');

/** Custom types as stored and exported: empty kinds and null descriptions left out. */
export function normaliseCustomTypes(ct: CustomTypes): CustomTypes {
  const strip = <T extends object>(x: T): T =>
    JSON.parse(JSON.stringify(x, (_k, v) => (v === null ? undefined : v))) as T;
  const out: Record<string, unknown> = {};
  for (const k of ['input_objects', 'objects', 'scalars', 'enums'] as const) {
    const list = ct[k];
    if (list && list.length) out[k] = strip(list);
  }
  return out as CustomTypes;
}
