// The introspected Postgres catalog: plain data, produced by one query (introspect.ts), read by every layer.
import type { QualifiedName } from '../core/names.js';

export type RelationKind = 'table' | 'view' | 'materialized_view' | 'foreign_table' | 'partitioned_table';

/** Postgres type category of a column (pg_type.typtype plus array flag). */
export type TypeKind = 'base' | 'enum' | 'composite' | 'domain' | 'range' | 'pseudo' | 'multirange';

export interface PgColumn {
  name: string;
  position: number;
  /** pg_type.typname of the column type; for arrays the element typname (see isArray), e.g. 'int4', 'text', 'jsonb'. */
  type: string;
  typeSchema: string;
  typeKind: TypeKind;
  isArray: boolean;
  /** format_type(), e.g. 'integer', 'character varying(10)', 'text[]'. */
  formattedType: string;
  nullable: boolean;
  hasDefault: boolean;
  isIdentity: boolean;
  isGenerated: boolean;
  comment: string | null;
}

export interface PgConstraint {
  name: string;
  columns: string[];
}

export interface PgForeignKey {
  name: string;
  columns: string[];
  refTable: QualifiedName;
  refColumns: string[];
}

export interface PgTable {
  name: QualifiedName;
  oid: number;
  kind: RelationKind;
  comment: string | null;
  columns: PgColumn[];
  primaryKey: PgConstraint | null;
  uniqueConstraints: PgConstraint[];
  foreignKeys: PgForeignKey[];
  /** Whether the relation accepts insert/update/delete (always true for tables; per pg_relation_is_updatable for views). */
  insertable: boolean;
  updatable: boolean;
  deletable: boolean;
}

export interface PgFunctionArg {
  name: string | null;
  type: string;
  typeSchema: string;
  mode: 'in' | 'out' | 'inout' | 'variadic' | 'table';
  hasDefault: boolean;
}

export interface PgFunction {
  name: QualifiedName;
  oid: number;
  volatility: 'immutable' | 'stable' | 'volatile';
  returnsSet: boolean;
  returnType: QualifiedName;
  returnTypeKind: TypeKind;
  /** The table whose row type the function returns, when its return type is a table's composite type. */
  returnsTable: QualifiedName | null;
  args: PgFunctionArg[];
  comment: string | null;
  definition: string;
}

export interface PgCatalog {
  /** Keyed by qualifiedKey(name). */
  tables: Record<string, PgTable>;
  /** Keyed by qualifiedKey(name); several entries mean the function is overloaded. */
  functions: Record<string, PgFunction[]>;
  /** Postgres server_version_num. */
  serverVersion: number;
  /**
   * Rows of tables tracked as enums, keyed by qualifiedKey: read by src/catalog/enum-values.ts, not by the one
   * introspection query, and refreshed only when the original engine would (reload, metadata changes).
   */
  enumValues?: Record<string, Array<{ value: string; comment: string | null }>>;
}

export const emptyCatalog = (): PgCatalog => ({ tables: {}, functions: {}, serverVersion: 0 });
