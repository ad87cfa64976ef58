// The Command union (one member per metadata operation that appends events), its parsing from {type, version,
// args}, and the exhaustive decide dispatcher.
import { EngineError } from '../../src/core/errors.js';
import { args as A, collectionArgs as C, decode } from '../commands.js';
import { decideEventTrigger, parseEventTriggerCommand, type EventTriggerCommand } from './event-triggers.js';
import { decideRemoteSchema, parseRemoteSchemaCommand, type RemoteSchemaCommand } from './remote-schemas.js';
import { ev, type Event, type PermKind, type RelationshipMeta } from '../types.js';
import type { DecideContext } from './common.js';
import { decideTable, type TableCommand } from './tables.js';
import { decideRelationship, type RelationshipCommand } from './relationships.js';
import { decideFunction, type FunctionCommand } from './functions.js';
import { decideComputedField, type ComputedFieldCommand } from './computed-fields.js';
import { decidePermission, type PermissionCommand } from './permissions.js';
import { decideCollection, type CollectionCommand } from './collections.js';
import { decideAction, type ActionCommand } from './actions.js';
import { actionArgs as AA, type CustomTypes } from '../actions.js';

export type { DecideContext } from './common.js';

export type MetadataCommand =
  | { op: 'clear_metadata' }
  | { op: 'reload_metadata'; reload_remote_schemas: boolean };

export type Command =
  | TableCommand
  | EventTriggerCommand
  | RemoteSchemaCommand
  | RelationshipCommand
  | FunctionCommand
  | ComputedFieldCommand
  | PermissionCommand
  | CollectionCommand
  | ActionCommand
  | MetadataCommand;

const PERM_OPS: Record<string, [PermKind, 'create_permission' | 'drop_permission']> = {};
for (const k of ['insert', 'select', 'update', 'delete'] as const) {
  PERM_OPS[`create_${k}_permission`] = [k, 'create_permission'];
  PERM_OPS[`drop_${k}_permission`] = [k, 'drop_permission'];
}

/** Parses one operation into a Command; null when `type` is not a command handled here. */
export function parseCommand(type: string, version: 1 | 2, raw: unknown): Command | null {
  switch (type) {
    case 'track_table':
    case 'add_existing_table_or_view': {
      if (version === 2) {
        const a = decode(A.track_table_v2, raw);
        return {
          op: 'track_table',
          table: a.table,
          is_enum: a.is_enum ?? false,
          configuration: a.configuration ?? { custom_root_fields: {}, custom_column_names: {} },
        };
      }
      const a = decode(A.track_table_v1, raw);
      return { op: 'track_table', table: a.table, is_enum: a.is_enum, configuration: { custom_root_fields: {}, custom_column_names: {} } };
    }
    case 'untrack_table': {
      const a = decode(A.untrack_table, raw);
      return { op: 'untrack_table', table: a.table, cascade: a.cascade ?? false };
    }
    case 'set_table_is_enum': {
      const a = decode(A.set_table_is_enum, raw);
      return { op: 'set_table_is_enum', table: a.table, is_enum: a.is_enum };
    }
    case 'set_table_custom_fields': {
      const a = decode(A.set_table_custom_fields, raw);
      return {
        op: 'set_table_custom_fields',
        table: a.table,
        configuration: { custom_root_fields: a.custom_root_fields ?? {}, custom_column_names: a.custom_column_names ?? {} },
      };
    }
    case 'track_function': {
      if (version === 2) {
        const a = decode(A.track_function_v2, raw);
        const s = a.configuration?.session_argument;
        return { op: 'track_function', function: a.function, configuration: s ? { session_argument: s } : {} };
      }
      return { op: 'track_function', function: decode(A.track_function_v1, raw), configuration: {} };
    }
    case 'untrack_function':
      return { op: 'untrack_function', function: decode(A.untrack_function, raw) };
    case 'create_object_relationship':
    case 'create_array_relationship': {
      const kind = type === 'create_object_relationship' ? 'object' : 'array';
      const a = kind === 'object' ? decode(A.create_object_relationship, raw) : decode(A.create_array_relationship, raw);
      const relationship: RelationshipMeta = { name: a.name, using: a.using as RelationshipMeta['using'], comment: a.comment ?? null };
      return { op: 'create_relationship', kind, table: a.table, relationship };
    }
    case 'drop_relationship': {
      const a = decode(A.drop_relationship, raw);
      return { op: 'drop_relationship', table: a.table, name: a.relationship, cascade: a.cascade ?? false };
    }
    case 'rename_relationship': {
      const a = decode(A.rename_relationship, raw);
      return { op: 'rename_relationship', table: a.table, name: a.name, new_name: a.new_name };
    }
    case 'set_relationship_comment': {
      const a = decode(A.set_relationship_comment, raw);
      return { op: 'set_relationship_comment', table: a.table, name: a.relationship, comment: a.comment ?? null };
    }
    case 'add_computed_field': {
      const a = decode(A.add_computed_field, raw);
      const definition = { function: a.definition.function } as { function: typeof a.definition.function; table_argument?: string; session_argument?: string };
      if (a.definition.table_argument !== undefined) definition.table_argument = a.definition.table_argument;
      if (a.definition.session_argument !== undefined) definition.session_argument = a.definition.session_argument;
      return { op: 'add_computed_field', table: a.table, computed_field: { name: a.name, definition, comment: a.comment ?? null } };
    }
    case 'drop_computed_field': {
      const a = decode(A.drop_computed_field, raw);
      return { op: 'drop_computed_field', table: a.table, name: a.name, cascade: a.cascade ?? false };
    }
    case 'set_permission_comment': {
      const a = decode(A.set_permission_comment, raw);
      return { op: 'set_permission_comment', kind: a.type, table: a.table, role: a.role, comment: a.comment ?? null };
    }
    case 'create_query_collection': {
      const a = decode(C.create_query_collection, raw);
      const collection = { name: a.name, definition: a.definition, ...(a.comment != null ? { comment: a.comment } : {}) };
      return { op: 'create_query_collection', collection };
    }
    case 'drop_query_collection': {
      const a = decode(C.drop_query_collection, raw);
      return { op: 'drop_query_collection', name: a.collection, cascade: a.cascade };
    }
    case 'add_query_to_collection': {
      const a = decode(C.add_query_to_collection, raw);
      return { op: 'add_query_to_collection', collection: a.collection_name, query: { name: a.query_name, query: a.query } };
    }
    case 'drop_query_from_collection': {
      const a = decode(C.drop_query_from_collection, raw);
      return { op: 'drop_query_from_collection', collection: a.collection_name, query_name: a.query_name };
    }
    case 'add_collection_to_allowlist':
    case 'drop_collection_from_allowlist':
      return { op: type, collection: decode(C.allowlist, raw).collection };
    case 'set_custom_types':
      return { op: 'set_custom_types', custom_types: normaliseCustomTypes(decode(AA.set_custom_types, raw)) };
    case 'create_action': {
      const a = decode(AA.create_action, raw);
      return { op: 'create_action', action: { name: a.name, definition: a.definition, comment: a.comment ?? null, permissions: [] } };
    }
    case 'update_action': {
      const a = decode(AA.update_action, raw);
      return { op: 'update_action', name: a.name, definition: a.definition };
    }
    case 'drop_action': {
      const a = decode(AA.drop_action, raw);
      return { op: 'drop_action', name: a.name, clear_data: a.clear_data ?? true };
    }
    case 'create_action_permission': {
      const a = decode(AA.create_action_permission, raw);
      return { op: 'create_action_permission', action: a.action, role: a.role, comment: a.comment ?? null };
    }
    case 'drop_action_permission': {
      const a = decode(AA.drop_action_permission, raw);
      return { op: 'drop_action_permission', action: a.action, role: a.role };
    }
    case 'clear_metadata':
      return { op: 'clear_metadata' };
    case 'reload_metadata':
      return { op: 'reload_metadata', reload_remote_schemas: decode(A.reload_metadata, raw).reload_remote_schemas };
    default: {
      const family = parseEventTriggerCommand(type, raw) ?? parseRemoteSchemaCommand(type, raw);
      if (family) return family;
      const perm = PERM_OPS[type];
      if (!perm) return null;
      const [kind, op] = perm;
      if (op === 'create_permission') {
        const a = decode(A.create_permission(kind), raw);
        return { op, kind, table: a.table, role: a.role, permission: a.permission, comment: a.comment ?? null };
      }
      const a = decode(A.drop_permission, raw);
      return { op, kind, table: a.table, role: a.role };
    }
  }
}

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

export function decide(cmd: Command, ctx: DecideContext): Event[] {
  switch (cmd.op) {
    case 'create_event_trigger':
    case 'delete_event_trigger':
    case 'redeliver_event':
    case 'invoke_event_trigger':
      return decideEventTrigger(cmd, ctx);
    case 'add_remote_schema':
    case 'remove_remote_schema':
    case 'reload_remote_schema':
      return decideRemoteSchema(cmd, ctx);
    case 'track_table':
    case 'untrack_table':
    case 'set_table_is_enum':
    case 'set_table_custom_fields':
      return decideTable(cmd, ctx);
    case 'create_relationship':
    case 'drop_relationship':
    case 'rename_relationship':
    case 'set_relationship_comment':
      return decideRelationship(cmd, ctx);
    case 'track_function':
    case 'untrack_function':
      return decideFunction(cmd, ctx);
    case 'add_computed_field':
    case 'drop_computed_field':
      return decideComputedField(cmd, ctx);
    case 'create_permission':
    case 'drop_permission':
    case 'set_permission_comment':
      return decidePermission(cmd, ctx);
    case 'create_query_collection':
    case 'drop_query_collection':
    case 'add_query_to_collection':
    case 'drop_query_from_collection':
    case 'add_collection_to_allowlist':
    case 'drop_collection_from_allowlist':
      return decideCollection(cmd, ctx.metadata);
    case 'set_custom_types':
    case 'create_action':
    case 'update_action':
    case 'drop_action':
    case 'create_action_permission':
    case 'drop_action_permission':
      return decideAction(cmd, ctx);
    case 'clear_metadata':
      return [ev('metadata_cleared', {})];
    case 'reload_metadata':
      return [ev('metadata_reloaded', { reload_remote_schemas: cmd.reload_remote_schemas })];
    default: {
      const never: never = cmd;
      throw new EngineError('unexpected', `unknown command ${JSON.stringify(never)}`);
    }
  }
}
