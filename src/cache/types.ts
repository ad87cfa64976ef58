// The schema cache: metadata resolved against the Postgres catalog. Everything the read side (GraphQL schema,
// SQL compiler, permissions) needs, and nothing it has to look up in raw metadata. Built by build.ts, a pure
// function of (metadata, catalog, remote schemas' introspections); inconsistent objects are collected as data, never
// thrown.
import type { GraphQLSchema } from 'graphql';
import type { QualifiedName } from '../core/names.js';
import type { ErrorCode } from '../core/errors.js';
import type { PgColumn, PgTable, PgFunction } from '../catalog/types.js';
import type { ActionDefinition, CustomTypes } from '../../events/actions.js';

/** A boolean expression as written in metadata (permission filter/check): the `where` JSON grammar. */
export type BoolExpJson = Record<string, unknown>;

export interface ColumnInfo extends PgColumn {
  /** GraphQL field name: the custom column name, else the column name. */
  graphqlName: string;
  /** The enum table this column references through a foreign key, when that table is tracked with is_enum. */
  enumReference: QualifiedName | null;
}

export interface RelationshipInfo {
  name: string;
  kind: 'object' | 'array';
  remoteTable: QualifiedName;
  /** Pairs [local column, remote column]. */
  mapping: Array<[string, string]>;
  /** Object relationships defined by a FK on the local table: the remote row is inserted first in nested inserts. */
  insertRemoteFirst: boolean;
  comment: string | null;
}

export interface ComputedFieldInfo {
  name: string;
  function: QualifiedName;
  pgFunction: PgFunction;
  /** Index (in pgFunction.args) of the argument that receives the row. */
  tableArgIndex: number;
  /** Index of the argument that receives the session JSON, if configured. */
  sessionArgIndex: number | null;
  /** Scalar return: the Postgres type name; set/row return: the table it returns rows of. */
  returns: { kind: 'scalar'; type: string; typeSchema: string } | { kind: 'table'; table: QualifiedName; set: boolean };
  comment: string | null;
}

export type ColumnPresets = Record<string, unknown>;

export interface SelectPermissionInfo {
  columns: string[];
  computedFields: string[];
  filter: BoolExpJson;
  limit: number | null;
  allowAggregations: boolean;
}

export interface InsertPermissionInfo {
  columns: string[];
  check: BoolExpJson;
  set: ColumnPresets;
  backendOnly: boolean;
}

export interface UpdatePermissionInfo {
  columns: string[];
  filter: BoolExpJson;
  check: BoolExpJson | null;
  set: ColumnPresets;
}

export interface DeletePermissionInfo {
  filter: BoolExpJson;
}

export interface RolePermissions {
  select?: SelectPermissionInfo;
  insert?: InsertPermissionInfo;
  update?: UpdatePermissionInfo;
  delete?: DeletePermissionInfo;
}

export interface CustomRootFields {
  select?: string;
  select_by_pk?: string;
  select_aggregate?: string;
  insert?: string;
  insert_one?: string;
  update?: string;
  update_by_pk?: string;
  delete?: string;
  delete_by_pk?: string;
}

export interface TableInfo {
  name: QualifiedName;
  pg: PgTable;
  /** Columns in ordinal order. */
  columns: ColumnInfo[];
  isEnum: boolean;
  /** For enum tables: the rows (first column value, comment column value). */
  enumValues: Array<{ value: string; comment: string | null }> | null;
  customRootFields: CustomRootFields;
  relationships: Record<string, RelationshipInfo>;
  computedFields: Record<string, ComputedFieldInfo>;
  /** Keyed by role name (admin is implicit and never stored). */
  permissions: Record<string, RolePermissions>;
  comment: string | null;
}

export interface FunctionInfo {
  name: QualifiedName;
  pg: PgFunction;
  /** The tracked table whose rows the function returns (SETOF table). */
  returnsTable: QualifiedName;
  /** Name of the argument that receives the session JSON, if configured. */
  sessionArgument: string | null;
  comment: string | null;
}

export type InconsistentObjectType =
  | 'table'
  | 'function'
  | 'object_relation'
  | 'array_relation'
  | 'insert_permission'
  | 'select_permission'
  | 'update_permission'
  | 'delete_permission'
  | 'event_trigger'
  | 'computed_field'
  | 'remote_schema'
  | 'remote_relationship'
  | 'custom_types'
  | 'action'
  | 'action_permission'
  | 'cron_trigger';

/** As get_inconsistent_metadata reports it. */
export type InconsistentObject =
  | { reason: string; type: InconsistentObjectType; definition: unknown; id?: string; code?: ErrorCode }
  | { reason: string; objects: Array<{ type: InconsistentObjectType; definition: unknown }>; id?: string; code?: ErrorCode };
// `id` (build.ts): which metadata object it is, e.g. `relationship:public.article.author`; never sent to clients.

export interface SchemaCache {
  /** Consistent tracked tables, keyed by qualifiedKey. */
  tables: Record<string, TableInfo>;
  /** Consistent tracked functions, keyed by qualifiedKey. */
  functions: Record<string, FunctionInfo>;
  /** Every role named in some permission. */
  roles: string[];
  inconsistent: InconsistentObject[];
  /** Consistent actions by name (handler URL templates resolved), and the custom types they use (src/actions). */
  actions?: Record<string, ActionInfo>;
  customTypes?: CustomTypes;
}

export interface ActionInfo {
  name: string;
  definition: ActionDefinition;
  /** The handler with its `{{ENV}}` templates replaced (at build time, as the original). */
  handler: string;
  comment: string | null;
  /** Roles with an action permission. */
  roles: string[];
}

/** A remote schema's introspection: its schema, or why there is none (the remote is then inconsistent). */
export type Introspected = { ok: true; schema: GraphQLSchema } | { ok: false; reason: string };

/** An introspection with the definition it was made from (a changed definition is introspected again). */
export interface RemoteIntrospection {
  /** The definition, as JSON text. */
  readonly definition: string;
  readonly result: Introspected;
}

/**
 * The remote schemas as this instance introspected them, by name (src/remote/introspections.ts): like the catalog,
 * read from outside before a state is built and kept with it (EngineState), so that building the cache reads only
 * its inputs.
 */
export type RemoteIntrospections = ReadonlyMap<string, RemoteIntrospection>;

export const NO_REMOTE_SCHEMAS: RemoteIntrospections = new Map();
