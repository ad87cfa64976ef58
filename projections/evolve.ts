// evolve: Metadata × Event → Metadata, with immer. One exhaustive switch; never rejects an event (decide validated it).
import { produce, type Draft } from 'immer';
import { applyFamilyEvent, applyRemoteRelationshipEvent, renameRemoteRelationshipColumn, renameTriggerColumn } from './evolve-families.js';
import { applyCronTriggerEvent, keptCronTriggers } from './evolve-cron.js';
import { qualifiedKey, sameName, type QualifiedName } from '../src/core/names.js';
import { cloneJson, deepFreeze } from '../src/core/json-clone.js';
import {
  emptyMetadata,
  emptyTableMeta,
  permissionsOf,
  relKey,
  updatePermissionRules,
  PERM_KINDS,
  type Event,
  type Metadata,
  type Permission,
  type TableMeta,
} from '../events/types.js';
import type { Columns } from '../events/permissions.js';
import { renameBoolExpField } from '../events/boolexp.js';
import type { ActionMeta } from '../events/actions.js';

export function evolve(metadata: Metadata, event: Event): Metadata {
  return evolveAll(metadata, [event]);
}

/**
 * Folds many events in one immer draft: copying the (large) tables record once per batch instead of once per
 * event keeps replay linear in the number of events.
 */
export function evolveAll(metadata: Metadata, events: Iterable<Event>): Metadata {
  return produce(metadata, (draft) => {
    for (const e of events) apply(draft, e);
  });
}

/**
 * evolveAll for metadata the caller owns and nothing else holds or has seen (start-up's: the snapshot it parsed, or
 * the empty metadata): changed in place rather than through immer's copies (a third of a start-up that folds
 * 40,000 events), then frozen through, as immer leaves what it makes. apply works on plain objects as on drafts
 * (decide's local fold runs it on them), so the metadata is evolveAll's.
 */
export function evolveOwned(metadata: Metadata, events: Iterable<Event>): Metadata {
  for (const e of events) apply(metadata as Draft<Metadata>, e);
  return deepFreeze(metadata);
}

const clone = cloneJson;

function tableOf(draft: Draft<Metadata>, table: QualifiedName): Draft<TableMeta> | undefined {
  return draft.tables[qualifiedKey(table)];
}

function apply(draft: Draft<Metadata>, event: Event): void {
  switch (event.type) {
    case 'table_tracked': {
      const d = event.data;
      const t = emptyTableMeta(clone(d.table));
      t.is_enum = d.is_enum;
      t.configuration = clone(d.configuration);
      draft.tables[qualifiedKey(d.table)] = t;
      return;
    }
    case 'table_untracked':
      delete draft.tables[qualifiedKey(event.data.table)];
      return;
    case 'table_enum_set': {
      const t = tableOf(draft, event.data.table);
      if (t) t.is_enum = event.data.is_enum;
      return;
    }
    case 'table_custom_fields_set': {
      const t = tableOf(draft, event.data.table);
      if (t) t.configuration = clone(event.data.configuration);
      return;
    }
    case 'table_renamed':
      renameTable(draft, event.data.from, event.data.to);
      return;
    case 'column_renamed':
      renameColumn(draft, event.data.table, event.data.from, event.data.to);
      renameTriggerColumn(draft, event.data.table, event.data.from, event.data.to);
      renameRemoteRelationshipColumn(draft, event.data.table, event.data.from, event.data.to);
      return;
    case 'function_tracked':
      draft.functions[qualifiedKey(event.data.function)] = {
        function: clone(event.data.function),
        configuration: clone(event.data.configuration),
      };
      return;
    case 'function_untracked':
      delete draft.functions[qualifiedKey(event.data.function)];
      return;
    case 'relationship_created': {
      const t = tableOf(draft, event.data.table);
      if (t) t[relKey(event.data.kind)][event.data.relationship.name] = clone(event.data.relationship);
      return;
    }
    case 'relationship_dropped': {
      const t = tableOf(draft, event.data.table);
      if (t) {
        delete t.object_relationships[event.data.name];
        delete t.array_relationships[event.data.name];
      }
      return;
    }
    case 'relationship_renamed': {
      const t = tableOf(draft, event.data.table);
      if (!t) return;
      const { name, new_name } = event.data;
      for (const key of ['object_relationships', 'array_relationships'] as const) {
        const rel = t[key][name];
        if (rel) {
          t[key] = renameKey(t[key], name, new_name);
          t[key][new_name].name = new_name;
        }
      }
      // Permissions that traverse the relationship follow the new name.
      for (const kind of PERM_KINDS) {
        for (const p of Object.values(permissionsOf(t, kind))) renameInRules(p.permission, name, new_name, () => false);
      }
      return;
    }
    case 'relationship_comment_set': {
      const t = tableOf(draft, event.data.table);
      const rel = t?.object_relationships[event.data.name] ?? t?.array_relationships[event.data.name];
      if (rel) rel.comment = event.data.comment;
      return;
    }
    case 'computed_field_added': {
      const t = tableOf(draft, event.data.table);
      if (t) t.computed_fields[event.data.computed_field.name] = clone(event.data.computed_field);
      return;
    }
    case 'computed_field_dropped': {
      const t = tableOf(draft, event.data.table);
      if (t) delete t.computed_fields[event.data.name];
      return;
    }
    case 'permission_created': {
      const t = tableOf(draft, event.data.table);
      const { role, permission, comment } = event.data;
      if (t) permissionsOf(t, event.data.kind)[role] = { role, permission: clone(permission), comment };
      return;
    }
    case 'permission_dropped': {
      const t = tableOf(draft, event.data.table);
      if (t) delete permissionsOf(t, event.data.kind)[event.data.role];
      return;
    }
    case 'permission_updated':
      updatePermissionRules(draft, event.data);
      return;
    case 'permission_comment_set': {
      const t = tableOf(draft, event.data.table);
      const p = t ? permissionsOf(t, event.data.kind)[event.data.role] : undefined;
      if (p) p.comment = event.data.comment;
      return;
    }
    case 'sql_ran':
    case 'metadata_reloaded':
    case 'remote_schema_reloaded':
      return;
    case 'event_trigger_created':
    case 'event_trigger_deleted':
    case 'remote_schema_added':
    case 'remote_schema_removed':
      applyFamilyEvent(draft, event);
      return;
    case 'remote_relationship_created':
    case 'remote_relationship_updated':
    case 'remote_relationship_deleted':
      applyRemoteRelationshipEvent(draft, event);
      return;
    case 'query_collection_created':
      draft.query_collections.push(clone(event.data.collection));
      return;
    case 'query_collection_dropped':
      draft.query_collections = draft.query_collections.filter((c) => c.name !== event.data.name);
      return;
    case 'collection_query_added':
    case 'collection_query_dropped': {
      const c = draft.query_collections.find((x) => x.name === event.data.collection);
      if (!c) return;
      if (event.type === 'collection_query_added') c.definition.queries.push(clone(event.data.query));
      else c.definition.queries = c.definition.queries.filter((x) => x.name !== event.data.query_name);
      return;
    }
    case 'custom_types_set':
      draft.custom_types = clone(event.data.custom_types);
      return;
    case 'action_created':
      draft.actions.push(clone(event.data.action));
      return;
    case 'action_updated':
    case 'action_dropped':
    case 'action_permission_created':
    case 'action_permission_dropped': {
      const list = draft.actions;
      const name = event.type === 'action_updated' || event.type === 'action_dropped' ? event.data.name : event.data.action;
      const i = list.findIndex((a) => a.name === name);
      if (i < 0) return;
      if (event.type === 'action_updated') list[i].definition = clone(event.data.definition) as Draft<ActionMeta['definition']>;
      else if (event.type === 'action_dropped') list.splice(i, 1);
      else if (event.type === 'action_permission_created') list[i].permissions.push({ role: event.data.role, comment: event.data.comment });
      else list[i].permissions = list[i].permissions.filter((p) => p.role !== event.data.role);
      return;
    }
    case 'cron_trigger_created':
    case 'cron_trigger_updated':
    case 'cron_trigger_deleted':
      applyCronTriggerEvent(draft, event);
      return;
    case 'allowlist_collection_added':
      draft.allowlist.push({ collection: event.data.collection });
      return;
    case 'allowlist_collection_dropped':
      draft.allowlist = draft.allowlist.filter((a) => (a as { collection?: unknown }).collection !== event.data.collection);
      return;
    case 'metadata_replaced': {
      const m = clone(event.data.metadata);
      for (const k of Object.keys(draft) as Array<keyof Metadata>) delete draft[k];
      Object.assign(draft, m);
      return;
    }
    case 'metadata_cleared': {
      const m = emptyMetadata();
      // As the original's clear: cron triggers kept out of the metadata (include_in_metadata false) stay.
      m.cron_triggers = keptCronTriggers(draft);
      for (const k of Object.keys(draft) as Array<keyof Metadata>) delete draft[k];
      Object.assign(draft, m);
      return;
    }
    default: {
      // Unknown event types (from a newer writer) change nothing.
      const never: never = event;
      void never;
    }
  }
}

/** Renames a key keeping its position (export order is by name anyway, but folds stay deterministic). */
function renameKey<V>(rec: Record<string, V>, from: string, to: string): Record<string, V> {
  const out: Record<string, V> = {};
  for (const [k, v] of Object.entries(rec)) out[k === from ? to : k] = v;
  return out;
}

function renameTable(draft: Draft<Metadata>, from: QualifiedName, to: QualifiedName): void {
  const fromKey = qualifiedKey(from);
  const t = draft.tables[fromKey];
  if (!t) return;
  t.table = clone(to);
  draft.tables = renameKey(draft.tables, fromKey, qualifiedKey(to)) as Draft<Metadata['tables']>;
  for (const table of Object.values(draft.tables)) {
    for (const key of ['object_relationships', 'array_relationships'] as const) {
      for (const rel of Object.values(table[key])) {
        const using = rel.using as Record<string, unknown>;
        const manual = using.manual_configuration as { remote_table: QualifiedName } | undefined;
        if (manual && sameName(manual.remote_table, from)) manual.remote_table = clone(to);
        const fk = using.foreign_key_constraint_on;
        if (fk && typeof fk === 'object' && sameName((fk as { table: QualifiedName }).table, from)) {
          (fk as { table: QualifiedName }).table = clone(to);
        }
      }
    }
  }
}

function renameColumns(cols: Columns | undefined, from: string, to: string): Columns | undefined {
  if (cols === undefined || cols === '*') return cols;
  return cols.map((c) => (c === from ? to : c));
}

function renameColumn(draft: Draft<Metadata>, tableName: QualifiedName, from: string, to: string): void {
  const t = tableOf(draft, tableName);
  if (!t) return;
  t.configuration.custom_column_names = renameKey(t.configuration.custom_column_names, from, to);
  const isRel = (n: string) => n in t.object_relationships || n in t.array_relationships;
  for (const table of Object.values(draft.tables)) {
    const own = sameName(table.table, tableName);
    for (const key of ['object_relationships', 'array_relationships'] as const) {
      for (const rel of Object.values(table[key])) {
        const using = rel.using as Record<string, unknown>;
        const manual = using.manual_configuration as { remote_table: QualifiedName; column_mapping: Record<string, string> } | undefined;
        if (manual) {
          if (own) manual.column_mapping = renameKey(manual.column_mapping, from, to);
          if (sameName(manual.remote_table, tableName)) {
            for (const [k, v] of Object.entries(manual.column_mapping)) if (v === from) manual.column_mapping[k] = to;
          }
        }
        const fk = using.foreign_key_constraint_on;
        if (own && key === 'object_relationships' && fk === from) using.foreign_key_constraint_on = to;
        if (fk && typeof fk === 'object') {
          const f = fk as { table: QualifiedName; column: string };
          if (sameName(f.table, tableName) && f.column === from) f.column = to;
        }
      }
    }
  }
  for (const kind of PERM_KINDS) {
    for (const p of Object.values(permissionsOf(t, kind))) {
      const perm = p.permission;
      if ('columns' in perm && perm.columns !== undefined) perm.columns = renameColumns(perm.columns, from, to);
      if ('set' in perm && perm.set && typeof perm.set === 'object') perm.set = renameKey(perm.set, from, to);
      renameInRules(perm, from, to, isRel);
    }
  }
}

/** A field renamed in a permission's row rules (filter, check), in place. */
function renameInRules(perm: Permission, from: string, to: string, isRel: (name: string) => boolean): void {
  if ('filter' in perm && perm.filter && typeof perm.filter === 'object') perm.filter = renameBoolExpField(perm.filter, from, to, isRel);
  if ('check' in perm && perm.check && typeof perm.check === 'object') perm.check = renameBoolExpField(perm.check, from, to, isRel);
}
