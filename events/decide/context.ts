// What every decide function sees (the metadata, the catalog, the inconsistent objects) and the lookups that throw
// the original's errors.
import { EngineError } from '../../src/core/errors.js';
import { qualifiedKey, quoteName, type QualifiedName } from '../../src/core/names.js';
import type { PgCatalog } from '../../src/catalog/types.js';
import { own, type Metadata, type RelationshipMeta, type TableMeta } from '../types.js';

export interface DecideContext {
  metadata: Metadata;
  catalog: PgCatalog;
  /** Ids of the objects the schema cache found inconsistent (drop_inconsistent_metadata decides on them). */
  inconsistent?: readonly string[];
}

export function trackedTable(m: Metadata, table: QualifiedName, path = '$.args'): TableMeta {
  const t = m.tables[qualifiedKey(table)];
  if (!t) throw new EngineError('not-exists', `table ${quoteName(table)} does not exist`, { path });
  return t;
}

export function relationshipOf(t: TableMeta, name: string): { kind: 'object' | 'array'; rel: RelationshipMeta } | null {
  const o = own(t.object_relationships, name);
  if (o) return { kind: 'object', rel: o };
  const a = own(t.array_relationships, name);
  if (a) return { kind: 'array', rel: a };
  return null;
}
