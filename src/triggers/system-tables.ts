// The event-trigger tables of engine_catalog as tables the admin can read with the v1 `select`/`count`
// operations, as users of the original read hdb_catalog.event_log. They are not tracked metadata (nothing in
// GraphQL, nothing exported): the v1 DML looks them up here when a name is not a tracked table.
import type { QualifiedName } from '../core/names.js';
import type { ColumnInfo, TableInfo } from '../cache/types.js';

/** A column: name, type, formatted type, nullable. */
export type Col = [name: string, type: string, formatted: string, nullable: boolean];

const uuid = (name: string, nullable = false): Col => [name, 'uuid', 'uuid', nullable];
export const text = (name: string, nullable = false): Col => [name, 'text', 'text', nullable];
export const bool = (name: string): Col => [name, 'bool', 'boolean', false];
export const ts = (name: string, nullable = false): Col => [name, 'timestamptz', 'timestamp with time zone', nullable];

const DEFINITIONS: Record<string, { columns: Col[]; pk: string }> = {
  event_log: {
    pk: 'id',
    columns: [
      uuid('id'), text('schema_name'), text('table_name'), text('trigger_name'), ['payload', 'jsonb', 'jsonb', false],
      bool('delivered'), bool('error'), ['tries', 'int4', 'integer', false], ts('created_at'), ts('locked', true),
      text('locked_by', true), ts('next_retry_at', true), bool('archived'),
    ],
  },
  event_invocation_logs: {
    pk: 'id',
    columns: [uuid('id'), uuid('event_id', true), ['status', 'int4', 'integer', true], ['request', 'json', 'json', true], ['response', 'json', 'json', true], ts('created_at')],
  },
  event_triggers: {
    pk: 'name',
    columns: [text('name'), text('type'), text('schema_name'), text('table_name'), ['configuration', 'jsonb', 'jsonb', false], text('comment', true)],
  },
};

/** A catalog table as the v1 DML sees a tracked one (read only, no relationships or permissions). */
export function tableInfo(name: QualifiedName, def: { columns: Col[]; pk: string }): TableInfo {
  const columns: ColumnInfo[] = def.columns.map(([col, type, formattedType, nullable], i) => ({
    name: col, position: i + 1, type, typeSchema: 'pg_catalog', typeKind: 'base', isArray: false, formattedType, nullable,
    hasDefault: false, isIdentity: false, isGenerated: false, comment: null, graphqlName: col, enumReference: null,
  }));
  return {
    name,
    pg: {
      name, oid: 0, kind: 'table', comment: null, columns, primaryKey: { name: `${name.name}_pkey`, columns: [def.pk] },
      uniqueConstraints: [], foreignKeys: [], insertable: false, updatable: false, deletable: false,
    },
    columns, isEnum: false, enumValues: null, customRootFields: {}, relationships: {}, computedFields: {}, permissions: {}, comment: null,
  };
}

const TABLES = new Map(Object.entries(DEFINITIONS).map(([n, d]) => [n, tableInfo({ schema: 'engine_catalog', name: n }, d)]));

/** engine_catalog.event_log / event_invocation_logs / event_triggers; undefined for any other name. */
export const systemTable = (name: QualifiedName): TableInfo | undefined =>
  name.schema === 'engine_catalog' ? TABLES.get(name.name) : undefined;
