// Metadata ⇄ the original's export format (version 2): key order and "left out when empty" rules of
// export_metadata, and the inverse parse used by replace_metadata (accepts v1 and v2 documents).
import { z } from 'zod';
import { EngineError } from '../src/core/errors.js';
import { compareNames, qualifiedKey, type QualifiedName } from '../src/core/names.js';
import { storedEventTrigger } from '../events/event-triggers.js';
import { storedRemoteSchema } from '../events/remote-schemas.js';
import { DEFAULT_ST_RETRY_CONF, sameRetryConf, storedCronTrigger, type CronTriggerMeta } from '../events/cron-triggers.js';
import { arrRelUsing, comment, computedFieldDefinition, decode, functionName, objRelUsing, tableConfiguration, tableName } from '../events/argument-shapes.js';
import { permissionSchemas } from '../events/permissions.js';
import { actionDefinition, customTypes, normaliseCustomTypes, type ActionMeta, type CustomTypes } from '../events/actions.js';
import { exportCustomTypes } from '../events/custom-types-json.js';
import { storedRemoteRelationshipShape } from '../events/remote-relationships.js';
import {
  emptyMetadata,
  emptyTableMeta,
  cronTriggers,
  PERM_KINDS,
  permKey,
  type ComputedFieldMeta,
  type Metadata,
  type PermKind,
  type PermissionMeta,
  type RelationshipMeta,
  type TableMeta,
} from '../events/types.js';

const qn = (q: QualifiedName) => ({ schema: q.schema, name: q.name });
const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const byRole = <T extends { role: string }>(a: T, b: T) => (a.role < b.role ? -1 : a.role > b.role ? 1 : 0);
const byCollection = <T extends { collection: string }>(a: T, b: T) => (a.collection < b.collection ? -1 : a.collection > b.collection ? 1 : 0);
const nonEmpty = (o: object | undefined | null) => o != null && Object.keys(o).length > 0;

export function exportRelationshipUsing(using: RelationshipMeta['using']): Record<string, unknown> {
  const u = using as Record<string, unknown>;
  if ('manual_configuration' in u) {
    const m = u.manual_configuration as { remote_table: QualifiedName; column_mapping: Record<string, string> };
    return { manual_configuration: { remote_table: qn(m.remote_table), column_mapping: { ...m.column_mapping } } };
  }
  const fk = u.foreign_key_constraint_on;
  if (typeof fk === 'string') return { foreign_key_constraint_on: fk };
  const f = fk as { table: QualifiedName; column: string };
  return { foreign_key_constraint_on: { column: f.column, table: qn(f.table) } };
}

function exportRelationship(r: RelationshipMeta): Record<string, unknown> {
  const out: Record<string, unknown> = { name: r.name, using: exportRelationshipUsing(r.using) };
  if (r.comment != null) out.comment = r.comment;
  return out;
}

export function exportComputedFieldDefinition(d: ComputedFieldMeta['definition']): Record<string, unknown> {
  const def: Record<string, unknown> = { function: qn(d.function) };
  if (d.table_argument !== undefined) def.table_argument = d.table_argument;
  if (d.session_argument !== undefined) def.session_argument = d.session_argument;
  return def;
}

function exportPermissionDef(kind: PermKind, p: Record<string, unknown>): Record<string, unknown> {
  switch (kind) {
    case 'insert': {
      const out: Record<string, unknown> = { check: p.check };
      if (nonEmpty(p.set as object)) out.set = p.set;
      if (p.columns !== undefined) out.columns = p.columns;
      // Written whenever it was given, false included, as the original exports it.
      if (typeof p.backend_only === 'boolean') out.backend_only = p.backend_only;
      return out;
    }
    case 'select': {
      const out: Record<string, unknown> = { columns: p.columns };
      if (Array.isArray(p.computed_fields) && p.computed_fields.length) out.computed_fields = p.computed_fields;
      out.filter = p.filter ?? {};
      if (p.limit != null) out.limit = p.limit;
      if (p.allow_aggregations === true) out.allow_aggregations = true;
      return out;
    }
    case 'update': {
      const out: Record<string, unknown> = { columns: p.columns, filter: p.filter ?? {}, check: p.check ?? null };
      if (nonEmpty(p.set as object)) out.set = p.set;
      return out;
    }
    case 'delete':
      return { filter: p.filter ?? {} };
  }
}

function exportPermission(kind: PermKind, p: PermissionMeta): Record<string, unknown> {
  const out: Record<string, unknown> = { role: p.role, permission: exportPermissionDef(kind, p.permission) };
  if (p.comment != null) out.comment = p.comment;
  return out;
}

export function exportTable(t: TableMeta): Record<string, unknown> {
  const out: Record<string, unknown> = { table: qn(t.table) };
  if (t.is_enum) out.is_enum = true;
  const c = t.configuration;
  if (nonEmpty(c.custom_root_fields) || nonEmpty(c.custom_column_names)) {
    out.configuration = { custom_root_fields: { ...c.custom_root_fields }, custom_column_names: { ...c.custom_column_names } };
  }
  const objRels = Object.values(t.object_relationships).sort(byName);
  if (objRels.length) out.object_relationships = objRels.map(exportRelationship);
  const arrRels = Object.values(t.array_relationships).sort(byName);
  if (arrRels.length) out.array_relationships = arrRels.map(exportRelationship);
  const cfs = Object.values(t.computed_fields).sort(byName);
  if (cfs.length) {
    out.computed_fields = cfs.map((cf) => {
      const o: Record<string, unknown> = { name: cf.name, definition: exportComputedFieldDefinition(cf.definition) };
      if (cf.comment != null) o.comment = cf.comment;
      return o;
    });
  }
  if (t.remote_relationships.length) out.remote_relationships = [...t.remote_relationships].sort(byName);
  for (const kind of PERM_KINDS) {
    const perms = Object.values(t[permKey(kind)]).sort(byRole);
    if (perms.length) out[`${kind}_permissions`] = perms.map((p) => exportPermission(kind, p as PermissionMeta));
  }
  // By name, as the original exports them (not in creation order).
  if (t.event_triggers.length) out.event_triggers = [...(t.event_triggers as Array<{ name: string }>)].sort(byName);
  return out;
}

/** An action as exported: definition keys in the original's order, defaults left out. */
export function exportAction(a: ActionMeta): Record<string, unknown> {
  const d = a.definition;
  const def: Record<string, unknown> = { handler: d.handler, output_type: d.output_type };
  if (d.forward_client_headers) def.forward_client_headers = true;
  if (d.headers.length) def.headers = d.headers;
  if (d.arguments.length) def.arguments = d.arguments;
  def.type = d.type;
  if (d.type === 'mutation') def.kind = d.kind ?? 'synchronous';
  if (d.timeout !== 30) def.timeout = d.timeout;
  const out: Record<string, unknown> = { name: a.name, definition: def };
  if (a.comment != null) out.comment = a.comment;
  if (a.permissions.length) {
    out.permissions = [...a.permissions].sort(byRole).map((p) => (p.comment != null ? { role: p.role, comment: p.comment } : { role: p.role }));
  }
  return out;
}

/**
 * A cron trigger as exported (the original's order: name, webhook, schedule, include_in_metadata, then payload,
 * retry_conf unless it is the default, headers unless empty, comment).
 */
export function exportCronTrigger(c: CronTriggerMeta): Record<string, unknown> {
  const out: Record<string, unknown> = { name: c.name, webhook: c.webhook, schedule: c.schedule, include_in_metadata: c.include_in_metadata };
  if (c.payload !== undefined) out.payload = c.payload;
  if (!sameRetryConf(c.retry_conf, DEFAULT_ST_RETRY_CONF)) out.retry_conf = c.retry_conf;
  if (c.headers.length) out.headers = c.headers;
  if (c.comment !== undefined) out.comment = c.comment;
  return out;
}

/** export_metadata's body. */
export function exportMetadata(m: Metadata): Record<string, unknown> {
  const out: Record<string, unknown> = {
    version: 2,
    tables: Object.values(m.tables).sort((a, b) => compareNames(a.table, b.table)).map(exportTable),
  };
  const fns = Object.values(m.functions).sort((a, b) => compareNames(a.function, b.function));
  if (fns.length) {
    out.functions = fns.map((f) => {
      const o: Record<string, unknown> = { function: qn(f.function) };
      if (f.configuration.session_argument !== undefined) o.configuration = { session_argument: f.configuration.session_argument };
      return o;
    });
  }
  // Note [Export order]
  // As the original reads its catalog back: by name whatever order things were created in (tables and functions
  // by schema then name, relationships and event triggers by name, permissions by role, remote schemas, query
  // collections, allow-list entries and actions by name, an action's permissions by role). Lists it stores as one
  // document keep the order they were given in: the queries of a collection, custom types, headers, arguments.
  // Computed fields, remote relationships and cron triggers it reads with no ORDER BY (an order Postgres does not
  // promise): by name here too, so that every list made of objects created one by one comes out the same whatever
  // order they were created in.
  if (m.remote_schemas.length) out.remote_schemas = [...(m.remote_schemas as Array<{ name: string }>)].sort(byName);
  if (m.query_collections.length) out.query_collections = [...(m.query_collections as Array<{ name: string }>)].sort(byName);
  if (m.allowlist.length) out.allowlist = [...(m.allowlist as Array<{ collection: string }>)].sort(byCollection);
  if (m.actions.length) out.actions = [...(m.actions as ActionMeta[])].sort(byName).map(exportAction);
  if (nonEmpty(m.custom_types)) out.custom_types = exportCustomTypes(m.custom_types as CustomTypes);
  // Only the triggers included in the metadata (those created with include_in_metadata false live on through
  // clear and replace, as in the original).
  const crons = cronTriggers(m).filter((c) => c.include_in_metadata).sort(byName);
  if (crons.length) out.cron_triggers = crons.map(exportCronTrigger);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// replace_metadata: the inverse parse

const list = <T extends z.ZodTypeAny>(item: T) => z.array(item).nullable().optional().transform((v) => v ?? []);
const relEntry = <U extends z.ZodTypeAny>(using: U) => z.object({ name: z.string(), using, comment });
const permEntry = (kind: PermKind) => z.object({ role: z.string(), permission: permissionSchemas[kind], comment });

const TABLE_KEYS = [
  'table', 'is_enum', 'configuration', 'object_relationships', 'array_relationships', 'computed_fields',
  'remote_relationships', 'insert_permissions', 'select_permissions', 'update_permissions', 'delete_permissions',
  'event_triggers',
];

const tableEntry = z
  .object({
    table: tableName,
    is_enum: z.boolean().nullable().optional(),
    configuration: tableConfiguration.nullable().optional(),
    object_relationships: list(relEntry(objRelUsing)),
    array_relationships: list(relEntry(arrRelUsing)),
    computed_fields: list(z.object({ name: z.string(), definition: computedFieldDefinition, comment })),
    remote_relationships: list(storedRemoteRelationshipShape),
    insert_permissions: list(permEntry('insert')),
    select_permissions: list(permEntry('select')),
    update_permissions: list(permEntry('update')),
    delete_permissions: list(permEntry('delete')),
    event_triggers: list(storedEventTrigger),
  })
  .passthrough()
  .superRefine((t, ctx) => {
    const extra = Object.keys(t).filter((k) => !TABLE_KEYS.includes(k));
    if (extra.length) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `unexpected keys when parsing TableMetadata : [${extra.join(',')}]` });
  });

const functionV1 = functionName.transform((f) => ({ function: f, configuration: {} as { session_argument?: string } }));
const functionV2 = z
  .object({ function: functionName, configuration: z.object({ session_argument: z.string().nullable().optional() }).nullable().optional() })
  .transform((f) => ({
    function: f.function,
    configuration: f.configuration?.session_argument ? { session_argument: f.configuration.session_argument } : {},
  }));

const docSchema = z.object({
  version: z.unknown().optional(),
  tables: z.array(tableEntry),
  functions: z.unknown().optional(),
  remote_schemas: list(storedRemoteSchema),
  query_collections: list(
    z
      .object({
        name: z.string(),
        definition: z.object({ queries: z.array(z.object({ name: z.string(), query: z.string() }).passthrough()) }).passthrough(),
        comment,
      })
      .passthrough(),
  ),
  allowlist: list(z.object({ collection: z.string() }).passthrough()),
  actions: list(
    z.object({
      name: z.string(),
      definition: actionDefinition,
      comment,
      permissions: z.array(z.object({ role: z.string(), comment })).nullable().optional(),
    }),
  ),
  custom_types: customTypes.nullable().optional(),
  cron_triggers: list(storedCronTrigger),
});

function duplicates(names: string[]): string[] {
  return [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
}

function checkDuplicates(kind: string, names: string[]): void {
  const d = duplicates(names);
  if (d.length) {
    throw new EngineError('already-exists', `multiple declarations exist for the following ${kind} : [${d.map((x) => JSON.stringify(x)).join(',')}]`, { path: '$.args' });
  }
}

const nameOf = (x: unknown): string => (typeof x === 'object' && x !== null ? String((x as Record<string, unknown>).name ?? '') : String(x));

/** Parses a replace_metadata document (v1 or v2) into Metadata; duplicates fail with already-exists. */
export function parseMetadataDocument(raw: unknown): Metadata {
  const doc = decode(docSchema, raw);
  const version = doc.version ?? 1;
  if (version !== 1 && version !== 2) {
    throw new EngineError('parse-failed', `expected 1 or 2, encountered ${JSON.stringify(version)}`, { path: '$.version' });
  }
  const fnList = doc.functions == null ? [] : decode(z.array(version === 2 ? functionV2 : functionV1), doc.functions, ['functions']);

  checkDuplicates('tables', doc.tables.map((t) => qualifiedKey(t.table)));
  const m = emptyMetadata();
  for (const t of doc.tables) {
    checkDuplicates('relationships', [...t.object_relationships, ...t.array_relationships].map((r) => r.name));
    for (const kind of PERM_KINDS) checkDuplicates(`${kind} permissions`, t[`${kind}_permissions`].map((p) => p.role));
    checkDuplicates('event triggers', t.event_triggers.map(nameOf));
    checkDuplicates('computed fields', t.computed_fields.map((c) => c.name));
    checkDuplicates('remote relationships', t.remote_relationships.map(nameOf));
    const tm = emptyTableMeta(t.table);
    tm.is_enum = t.is_enum ?? false;
    if (t.configuration) tm.configuration = t.configuration;
    for (const r of t.object_relationships) tm.object_relationships[r.name] = { name: r.name, using: r.using as RelationshipMeta['using'], comment: r.comment ?? null };
    for (const r of t.array_relationships) tm.array_relationships[r.name] = { name: r.name, using: r.using as RelationshipMeta['using'], comment: r.comment ?? null };
    for (const c of t.computed_fields) {
      const definition: ComputedFieldMeta['definition'] = { function: c.definition.function };
      if (c.definition.table_argument !== undefined) definition.table_argument = c.definition.table_argument;
      if (c.definition.session_argument !== undefined) definition.session_argument = c.definition.session_argument;
      tm.computed_fields[c.name] = { name: c.name, definition, comment: c.comment ?? null };
    }
    for (const kind of PERM_KINDS) {
      const target = tm[permKey(kind)] as Record<string, unknown>;
      for (const p of t[`${kind}_permissions`]) target[p.role] = { role: p.role, permission: p.permission, comment: p.comment ?? null };
    }
    tm.event_triggers = t.event_triggers;
    tm.remote_relationships = t.remote_relationships;
    m.tables[qualifiedKey(t.table)] = tm;
  }
  checkDuplicates('functions', fnList.map((f) => qualifiedKey(f.function)));
  for (const f of fnList) m.functions[qualifiedKey(f.function)] = f;
  checkDuplicates('remote schemas', doc.remote_schemas.map(nameOf));
  checkDuplicates('query collections', doc.query_collections.map(nameOf));
  checkDuplicates('allow list', doc.allowlist.map((a) => a.collection));
  checkDuplicates('actions', doc.actions.map(nameOf));
  checkDuplicates('cron triggers', doc.cron_triggers.map(nameOf));
  m.remote_schemas = doc.remote_schemas;
  m.query_collections = doc.query_collections;
  m.allowlist = doc.allowlist;
  m.actions = doc.actions.map((a): ActionMeta => ({
    name: a.name,
    definition: a.definition,
    comment: a.comment ?? null,
    permissions: (a.permissions ?? []).map((p) => ({ role: p.role, comment: p.comment ?? null })),
  }));
  m.custom_types = normaliseCustomTypes(doc.custom_types ?? {}) as Record<string, unknown>;
  m.cron_triggers = doc.cron_triggers;
  return m;
}
