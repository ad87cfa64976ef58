// The in-memory metadata the log folds into. The model itself lives with the events (events/types.ts) because
// events carry it (metadata_replaced) and decide reads it; this module is the projection's entry point.
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
