// Mutation IR (insert / update / delete root fields): plain data produced by src/graphql/request/mutation-*.ts with
// the role's permissions baked in (presets as values, filters ANDed into `where`, checks as boolean expressions), and
// compiled by src/sql/mutation-*.ts into one statement per root field.
import type { QualifiedName } from '../core/names.js';
import type { RelationshipInfo } from '../cache/types.js';
import type { BoolExpIR, FieldIR, ValueIR } from './types.js';

/** One row to insert: column values (client values and presets) and the relationships inserted with it. */
export interface InsertRowIR {
  /** [Postgres column, value]; columns left out take their default. */
  values: Array<[string, ValueIR]>;
  /** Inserted before this row; the row's mapped columns take the remote row's values. */
  objectRelationships: Array<{ relationship: RelationshipInfo; insert: InsertIR }>;
  /** Inserted after this row; each remote row's mapped columns take this row's values. */
  arrayRelationships: Array<{ relationship: RelationshipInfo; insert: InsertIR }>;
}

export interface OnConflictIR {
  /** Empty: no conflict target (`ON CONFLICT DO NOTHING`, v1 insert's `action: ignore` without a constraint). */
  constraint: string;
  /** Empty: DO NOTHING. */
  updateColumns: string[];
  /** The on_conflict `where` ANDed with the update permission's filter (null: none). */
  where: BoolExpIR | null;
  /** Update permission presets, applied to conflicting rows that are updated. */
  presets: Array<[string, ValueIR]>;
}

export interface InsertIR {
  table: QualifiedName;
  /** Every column of the table in ordinal order (the row shape the RETURNING rows are projected to). */
  columns: string[];
  rows: InsertRowIR[];
  onConflict: OnConflictIR | null;
  /** Insert permission check on every new row (null: none). */
  check: BoolExpIR | null;
  /** With an upsert: the update permission check on rows that were updated instead (null: the insert check applies). */
  updateCheck: BoolExpIR | null;
}

/** `mul` and `default` (value ignored: the column's DEFAULT) come from the v1 update query ($mul, $default). */
export type UpdateOpKind = 'set' | 'inc' | 'append' | 'prepend' | 'delete_key' | 'delete_elem' | 'delete_at_path' | 'mul' | 'default';

export interface UpdateIR {
  table: QualifiedName;
  columns: string[];
  /** User `where` (or primary key) ANDed with the update permission's filter. */
  where: BoolExpIR | null;
  /** Column assignments in order (presets included as `set`); empty means nothing is updated (affected_rows 0). */
  ops: Array<{ column: string; op: UpdateOpKind; value: ValueIR }>;
  /** Update permission check on the new rows (null: none). */
  check: BoolExpIR | null;
}

export interface DeleteIR {
  table: QualifiedName;
  columns: string[];
  where: BoolExpIR | null;
}

export type MutationResponseFieldIR =
  | { kind: 'typename'; name: string }
  | { kind: 'affected_rows' }
  | { kind: 'returning'; fields: Array<[string, FieldIR]> };

export type MutationOutputIR =
  /** `<t>_mutation_response`. */
  | { kind: 'response'; fields: Array<[string, MutationResponseFieldIR]> }
  /** `_one` / `_by_pk`: the (first) affected row, or null. */
  | { kind: 'single'; fields: Array<[string, FieldIR]> };

export type MutationIR = (
  | { kind: 'insert'; insert: InsertIR; output: MutationOutputIR }
  | { kind: 'update'; update: UpdateIR; output: MutationOutputIR }
  | { kind: 'delete'; delete: DeleteIR; output: MutationOutputIR }
) & {
  /** Path reported with database errors of the statement (inserts: the `objects` / `object` argument); default `$`. */
  errorPath?: string;
};
