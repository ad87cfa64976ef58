// The in-memory metadata the log folds into. The model itself lives with the events (events/types.ts) because
// events carry it (metadata_replaced) and decide reads it; this module is the projection's entry point.
import type { Metadata } from '../events/types.js';
import type { QualifiedName } from '../src/core/names.js';

export type {
  Metadata,
  TableMeta,
  FunctionMeta,
  RelationshipMeta,
  ComputedFieldMeta,
  PermissionMeta,
  PermKind,
  RelKind,
} from '../events/types.js';
export { emptyMetadata, emptyTableMeta } from '../events/types.js';

/** The tables tracked as enums (their rows are read into the catalog). */
export const enumTables = (m: Metadata): QualifiedName[] => Object.values(m.tables).filter((t) => t.is_enum).map((t) => t.table);
