// evolve for the event-trigger, remote-schema and remote-relationship families (called from evolve.ts's switch, inside its immer draft).
import type { Draft } from 'immer';
import { qualifiedKey, type QualifiedName } from '../src/core/names.js';
import type { EventOf, Metadata } from '../events/types.js';
import { renameTemplateVariable, type RemoteFieldTemplate } from '../events/remote-relationships.js';

export type FamilyEvent = EventOf<'event_trigger_created' | 'event_trigger_deleted' | 'remote_schema_added' | 'remote_schema_removed'>;

export function applyFamilyEvent(draft: Draft<Metadata>, event: FamilyEvent): void {
  switch (event.type) {
    case 'event_trigger_created': {
      // Replacing keeps the trigger's table (decide checked it); any old definition of the name goes.
      removeTrigger(draft, event.data.trigger.name);
      draft.tables[qualifiedKey(event.data.table)]?.event_triggers.push(structuredClone(event.data.trigger));
      return;
    }
    case 'event_trigger_deleted':
      removeTrigger(draft, event.data.name);
      return;
    case 'remote_schema_added':
      draft.remote_schemas.push(structuredClone(event.data.remote_schema));
      return;
    case 'remote_schema_removed':
      draft.remote_schemas = draft.remote_schemas.filter((r) => r.name !== event.data.name);
      return;
  }
}

function removeTrigger(draft: Draft<Metadata>, name: string): void {
  for (const t of Object.values(draft.tables)) {
    if (t.event_triggers.some((x) => x.name === name)) {
      t.event_triggers = t.event_triggers.filter((x) => x.name !== name);
    }
  }
}

/** A column renamed in Postgres: the table's triggers name it by its new name (columns and payload). */
export function renameTriggerColumn(draft: Draft<Metadata>, table: QualifiedName, from: string, to: string): void {
  const t = draft.tables[qualifiedKey(table)];
  if (!t) return;
  for (const et of t.event_triggers) {
    for (const spec of [et.definition.insert, et.definition.update, et.definition.delete]) {
      if (!spec) continue;
      if (Array.isArray(spec.columns)) spec.columns = spec.columns.map((c) => (c === from ? to : c));
      if (Array.isArray(spec.payload)) spec.payload = spec.payload.map((c) => (c === from ? to : c));
    }
  }
}

export type RemoteRelationshipEvent = EventOf<'remote_relationship_created' | 'remote_relationship_updated' | 'remote_relationship_deleted'>;

/** Remote relationships: created at the end of the table's list, updated in place, deleted. */
export function applyRemoteRelationshipEvent(draft: Draft<Metadata>, event: RemoteRelationshipEvent): void {
  const t = draft.tables[qualifiedKey(event.data.table)];
  if (!t) return;
  switch (event.type) {
    case 'remote_relationship_created':
      t.remote_relationships.push(structuredClone(event.data.relationship));
      return;
    case 'remote_relationship_updated': {
      const i = t.remote_relationships.findIndex((r) => r.name === event.data.relationship.name);
      if (i >= 0) t.remote_relationships[i] = structuredClone(event.data.relationship);
      return;
    }
    case 'remote_relationship_deleted':
      t.remote_relationships = t.remote_relationships.filter((r) => r.name !== event.data.name);
      return;
  }
}

/** A join column renamed in Postgres: its relationships name it by its new name (fields and "$column" templates). */
export function renameRemoteRelationshipColumn(draft: Draft<Metadata>, table: QualifiedName, from: string, to: string): void {
  const t = draft.tables[qualifiedKey(table)];
  if (!t) return;
  for (const r of t.remote_relationships) {
    if (!r.definition.engine_fields.includes(from)) continue;
    r.definition.engine_fields = r.definition.engine_fields.map((c) => (c === from ? to : c));
    r.definition.remote_field = renameTemplateVariable(r.definition.remote_field, from, to) as RemoteFieldTemplate;
  }
}
