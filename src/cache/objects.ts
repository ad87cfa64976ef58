// The objects a schema cache may find inconsistent: their ids (read back by drop_inconsistent_metadata), their
// definitions as reported, the original's reason messages, and the public form of the list.
import { type QualifiedName } from '../core/names.js';
import type { RelationshipMeta, ComputedFieldMeta, PermKind } from '../../projections/metadata.js';
import { exportComputedFieldDefinition, exportRelationshipUsing } from '../../projections/export.js';
import type { InconsistentObject } from './types.js';

/** A table or function name without anything else its metadata holds. */
export const qn = (t: QualifiedName) => ({ schema: t.schema, name: t.name });

/** "because X" for one reason, a bulleted list for several (the original's makeReasonMessage). */
export function reasonMessage(reasons: string[]): string {
  if (reasons.length === 1) return `because ${reasons[0]}`;
  return `for the following reasons:\n${reasons.map((r) => `  • ${r}\n`).join('')}`;
}

// Ids are JSON arrays so they can be read back (drop_inconsistent_metadata) whatever the names contain.
export const relationshipId = (t: QualifiedName, name: string) => JSON.stringify(['relationship', t.schema, t.name, name]);
export const computedFieldId = (t: QualifiedName, name: string) => JSON.stringify(['computed_field', t.schema, t.name, name]);
export const permissionId = (t: QualifiedName, role: string, kind: PermKind) => JSON.stringify(['permission', t.schema, t.name, role, kind]);
export const tableId = (t: QualifiedName) => JSON.stringify(['table', t.schema, t.name]);
export const functionId = (f: QualifiedName) => JSON.stringify(['function', f.schema, f.name]);
export const actionId = (name: string) => JSON.stringify(['action', name]);
/** Custom types are checked with the actions that use them: nothing is recorded under this id today. */
export const customTypesId = () => JSON.stringify(['custom_types']);
export const eventTriggerId = (t: QualifiedName, name: string) => JSON.stringify(['event_trigger', t.schema, t.name, name]);

export function relationshipDefinition(table: QualifiedName, rel: RelationshipMeta) {
  return { name: rel.name, using: exportRelationshipUsing(rel.using), comment: rel.comment, table: qn(table) };
}
export function computedFieldDefinition(table: QualifiedName, cf: ComputedFieldMeta) {
  return { name: cf.name, definition: exportComputedFieldDefinition(cf.definition), comment: cf.comment, table: qn(table) };
}

/** Inconsistent objects as clients see them (without the internal id). */
export function publicInconsistencies(list: InconsistentObject[]): unknown[] {
  return list.map((o) => {
    const { id, code, ...rest } = o;
    void id;
    void code;
    return rest;
  });
}
