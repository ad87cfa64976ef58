// The intermediate representation between the GraphQL front (src/graphql: schema, validation, permissions baked in)
// and the SQL compiler (src/sql). Plain data: no functions, no SQL, no graphql-js objects. Key order of every
// `fields` list is the response key order.
import type { QualifiedName } from '../core/names.js';
import type { RelationshipInfo } from '../cache/types.js';

/** A Postgres type to cast a parameter to: `type` is pg_type.typname (int4, text, jsonb, a user enum...). */
export interface PgTypeRef {
  type: string;
  typeSchema: string;
  /** The parameter is an array of `type` (used by _in, _nin, _has_keys_any, array columns...). */
  array: boolean;
}

/**
 * A value that becomes a `$n` parameter of the statement. Values from GraphQL variables stay variables so that a
 * compiled plan can be reused with other variable values (Note [Reusable plans]).
 */
export type ValueIR =
  /** A literal from the query text (or a permission rule), already coerced to JSON; sent as Postgres text. */
  | { kind: 'literal'; value: unknown; pgType: PgTypeRef }
  /** A GraphQL variable (or a path inside one), resolved at execution time from `variables`. */
  | { kind: 'variable'; name: string; path: Array<string | number>; pgType: PgTypeRef; defaultValue?: unknown }
  /** A session variable (lower-cased name, e.g. x-engine-user-id), resolved at execution time. */
  | { kind: 'session'; name: string; pgType: PgTypeRef }
  /** The whole session object as json (computed field / function session argument). */
  | { kind: 'session_object' };

export type ComparisonOp =
  | '_eq' | '_neq' | '_gt' | '_lt' | '_gte' | '_lte'
  | '_in' | '_nin'
  | '_like' | '_nlike' | '_ilike' | '_nilike' | '_similar' | '_nsimilar'
  | '_is_null'
  | '_contains' | '_contained_in' | '_has_key' | '_has_keys_any' | '_has_keys_all'
  | '_ceq' | '_cneq' | '_cgt' | '_clt' | '_cgte' | '_clte'
  /** PostGIS (added by C2): ST_<Op>(column, value); geometry/geography values are GeoJSON, compiled via ST_GeomFromGeoJSON. */
  | '_st_contains' | '_st_crosses' | '_st_equals' | '_st_intersects' | '_st_overlaps' | '_st_touches' | '_st_within'
  /** value: { kind: 'st_d_within', ... }: ST_DWithin(column, from, distance[, use_spheroid]). */
  | '_st_d_within'
  /** Raster: ST_Intersects(column, raster). */
  | '_st_intersects_rast'
  /** value: { kind: 'st_intersects_nband_geom' | 'st_intersects_geom_nband', ... }. */
  | '_st_intersects_nband_geom' | '_st_intersects_geom_nband';

/** Structured right-hand sides of some PostGIS operators (added by C2). */
export type SpatialValueIR =
  /** `useSpheroid` only for geography columns (null for geometry: ST_DWithin has no such argument there). */
  | { kind: 'st_d_within'; distance: ValueIR; from: ValueIR; useSpheroid: ValueIR | null }
  /** ST_Intersects(rast, nband, geommin). */
  | { kind: 'st_intersects_nband_geom'; nband: ValueIR; geommin: ValueIR }
  /** ST_Intersects(rast, geommin, nband); nband may be absent (NULL). */
  | { kind: 'st_intersects_geom_nband'; geommin: ValueIR; nband: ValueIR | null };

export type BoolExpIR =
  | { kind: 'true' }
  | { kind: 'and'; items: BoolExpIR[] }
  | { kind: 'or'; items: BoolExpIR[] }
  | { kind: 'not'; item: BoolExpIR }
  /** `column op value`; for _c* ops `value` names another column of the same row. */
  | {
      kind: 'column';
      column: string;
      op: ComparisonOp;
      value: ValueIR | { kind: 'column'; column: string } | SpatialValueIR;
      /** `_cast` (added by C2): compare `column::cast` (e.g. geography → geometry) instead of the column. */
      cast?: PgTypeRef;
    }
  /** EXISTS a row of the relationship's remote table, joined by its mapping, satisfying `where`. */
  | { kind: 'relationship'; relationship: RelationshipInfo; where: BoolExpIR }
  /** EXISTS a row of an unrelated table satisfying `where` (permissions' _exists). */
  | { kind: 'exists'; table: QualifiedName; where: BoolExpIR };

export type OrderByTarget =
  | { kind: 'column'; column: string }
  | { kind: 'object_relationship'; relationship: RelationshipInfo; filter: BoolExpIR; target: OrderByTarget }
  | { kind: 'array_aggregate'; relationship: RelationshipInfo; filter: BoolExpIR; op: 'count' }
  | {
      kind: 'array_aggregate';
      relationship: RelationshipInfo;
      filter: BoolExpIR;
      op: AggregateOp;
      column: string;
    };

export interface OrderByIR {
  target: OrderByTarget;
  direction: 'asc' | 'desc';
  nulls: 'first' | 'last';
}

export type SelectSource =
  | { kind: 'table'; table: QualifiedName }
  /** A tracked function (or a computed field returning rows), called with positional-or-named arguments. */
  | { kind: 'function'; function: QualifiedName; args: FunctionArgIR[] }
  /** A relation named inside the same statement (a mutation's CTE of affected rows, shaped like `table`'s rows). */
  | { kind: 'relation'; name: string; table: QualifiedName };

/** One function argument; `row` passes the current row of the enclosing select (computed fields). */
export type FunctionArgIR =
  | { kind: 'value'; name: string | null; value: ValueIR }
  | { kind: 'row'; name: string | null };

export interface SelectArgsIR {
  /** User `where` already ANDed with the role's permission filter; null means no condition. */
  where: BoolExpIR | null;
  orderBy: OrderByIR[];
  /** User limit (possibly a variable) and the permission's limit; the smaller one applies. */
  limit: ValueIR | null;
  permissionLimit: number | null;
  offset: ValueIR | null;
  distinctOn: string[] | null;
}

export type FieldIR =
  | { kind: 'typename'; name: string }
  /** `type` drives output encoding (stringified numerics, ...). */
  | {
      kind: 'column';
      column: string;
      type: string;
      isArray: boolean;
      stringify: boolean;
      /** json/jsonb columns' `path` argument, parsed into keys and indexes (compiled to `col #> '{...}'`). Added by C2. */
      jsonPath?: Array<string | number>;
    }
  | { kind: 'object_relationship'; relationship: RelationshipInfo; select: SelectIR }
  | { kind: 'array_relationship'; relationship: RelationshipInfo; select: SelectIR }
  | { kind: 'array_aggregate'; relationship: RelationshipInfo; aggregate: AggregateIR }
  | { kind: 'computed_scalar'; function: QualifiedName; args: FunctionArgIR[]; type: string; stringify: boolean }
  /** A computed field returning rows of a table: `select.source` is the function call with a `row` argument. */
  | { kind: 'computed_table'; set: boolean; select: SelectIR }
  /** Relay (src/graphql/relay): the row's global id, and an array relationship as a connection. */
  | NodeIdIR
  | { kind: 'array_connection'; relationship: RelationshipInfo; connection: ConnectionIR }
  /** A remote relationship: the row's join columns as a JSON object, replaced by the remote's answer (src/remote/join.ts). */
  | { kind: 'remote_join'; join: RemoteJoinIR };

/**
 * A remote relationship field of a request: what the SQL selects (the join columns, under their names) and what is
 * asked of the remote once the rows are in. The client's arguments and selection set are GraphQL text (fragments
 * inlined; variables left as `$name`, resolved when it runs, so the plan stays reusable).
 */
export interface RemoteJoinIR {
  remoteSchema: string;
  columns: string[];
  /** The remote field's levels, outermost first: the template's arguments ("$column" strings name join columns). */
  path: Array<{ name: string; arguments: Record<string, unknown> }>;
  /** `(a: 1, b: $v)` or empty. */
  clientArguments: string;
  /** `{ ... }` or empty (a scalar or enum field). */
  selectionSet: string;
}

/** Relay: base64 of the JSON `[1, "<schema>", "<table>", <primary key values>...]`. */
export interface NodeIdIR {
  kind: 'node_id';
  table: QualifiedName;
  columns: Array<{ column: string; type: string; stringify: boolean }>;
}

export type PageInfoFieldIR =
  | { kind: 'typename'; name: string }
  | { kind: 'hasNextPage' | 'hasPreviousPage' | 'startCursor' | 'endCursor' };

export type EdgeFieldIR =
  | { kind: 'typename'; name: string }
  | { kind: 'cursor' }
  | { kind: 'node'; fields: Array<[string, FieldIR]> };

export type ConnectionFieldIR =
  | { kind: 'typename'; name: string }
  | { kind: 'page_info'; fields: Array<[string, PageInfoFieldIR]> }
  | { kind: 'edges'; fields: Array<[string, EdgeFieldIR]> };

/**
 * Relay: a page of rows. `args.orderBy` ends with the primary key columns (a total order); `cursorPaths[i]` is the
 * JSON path of `orderBy[i]`'s value in a cursor; `split` holds the after/before cursor's values, one per orderBy item.
 */
export interface ConnectionIR {
  source: SelectSource;
  args: SelectArgsIR;
  cursorPaths: string[][];
  split: { kind: 'after' | 'before'; values: ValueIR[] } | null;
  slice: { kind: 'first' | 'last'; count: ValueIR } | null;
  fields: Array<[string, ConnectionFieldIR]>;
}

export interface SelectIR {
  source: SelectSource;
  args: SelectArgsIR;
  fields: Array<[string, FieldIR]>;
}

export type AggregateOp = 'sum' | 'avg' | 'max' | 'min' | 'stddev' | 'stddev_samp' | 'stddev_pop' | 'variance' | 'var_samp' | 'var_pop';

export type AggregateOpFieldIR =
  | { kind: 'typename'; name: string }
  | { kind: 'count'; columns: string[] | null; distinct: boolean }
  | {
      kind: 'op';
      op: AggregateOp;
      fields: Array<[string, { kind: 'typename'; name: string } | { kind: 'column'; column: string; type: string }]>;
    };

export type AggregateFieldIR =
  | { kind: 'typename'; name: string }
  | { kind: 'aggregate'; fields: Array<[string, AggregateOpFieldIR]> }
  | { kind: 'nodes'; fields: Array<[string, FieldIR]> };

export interface AggregateIR {
  source: SelectSource;
  args: SelectArgsIR;
  fields: Array<[string, AggregateFieldIR]>;
}

const STRINGIFIED = new Set(['int8', 'numeric', 'float8', 'money']);
/** ENGINE_GRAPHQL_STRINGIFY_NUMERIC_TYPES applies to these column types (bigserial is int8). */
export const isStringifiedType = (t: string): boolean => STRINGIFIED.has(t);
