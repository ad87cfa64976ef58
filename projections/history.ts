// Metadata history, the pure half: a one-line summary of each logged event (for the history list) and a structured
// diff of two export_metadata documents (added / removed / changed objects, each with a path such as
// `tables[public.author].select_permissions[user]`). The log reads live in events/log.ts, the API in src/metadata.

export type ChangeKind = 'added' | 'removed' | 'changed';

export interface Change {
  kind: ChangeKind;
  path: string;
  before?: unknown;
  after?: unknown;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `schema.name` for a qualified name (object or bare string, as the export writes functions and tables). */
function qualified(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (isObj(v) && typeof v.name === 'string') return typeof v.schema === 'string' ? `${v.schema}.${v.name}` : v.name;
  return null;
}

// Note [Diff keys]
// Export documents hold lists of named objects (tables, relationships, permissions, triggers, actions, ...). The
// diff matches list elements by their identity, not their position, so reordering is no change and a changed
// permission is reported once at its own path. The identity is the first of these fields an element has.
const KEY_FIELDS = ['name', 'role', 'role_name', 'collection', 'table', 'function'] as const;

function keyOf(v: unknown): string | null {
  if (!isObj(v)) return null;
  for (const f of KEY_FIELDS) {
    if (f in v) return qualified(v[f]);
  }
  return null;
}

/** The elements of an array by key, when every element has a distinct key (else null: compared as a value). */
function keyed(a: unknown[]): Map<string, unknown> | null {
  const m = new Map<string, unknown>();
  for (const x of a) {
    const k = keyOf(x);
    if (k === null || m.has(k)) return null;
    m.set(k, x);
  }
  return m;
}

const isKeyedArray = (v: unknown): boolean => Array.isArray(v) && v.length > 0 && keyed(v) !== null;

/**
 * An object is diffed field by field when it holds named objects somewhere below (the document, a remote schema
 * with permissions) or is a table or function entry (`tables[public.author].configuration` changed); other named
 * objects (a permission, a relationship, a trigger) are compared whole and reported at their own path.
 */
function isContainer(v: unknown): boolean {
  return isObj(v) && ('table' in v || 'function' in v || Object.values(v).some((x) => isKeyedArray(x) || isContainer(x)));
}

/** Deep equality of JSON values, ignoring object key order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => jsonEqual(a[k], b[k]));
  }
  return false;
}

const child = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/** The changes that turn export document `a` into `b`, in document order (a's order, then b's additions). */
export function diffExports(a: unknown, b: unknown): Change[] {
  const out: Change[] = [];
  diffValue('', a, b, out);
  return out;
}

function diffValue(path: string, a: unknown, b: unknown, out: Change[]): void {
  if (jsonEqual(a, b)) return;
  // The export leaves out empty lists: a missing list is an empty one when the other side has named objects.
  if (a === undefined && isKeyedArray(b)) a = [];
  if (b === undefined && isKeyedArray(a)) b = [];
  if (a === undefined) return void out.push({ kind: 'added', path, after: b });
  if (b === undefined) return void out.push({ kind: 'removed', path, before: a });
  if (Array.isArray(a) && Array.isArray(b)) {
    const ma = keyed(a);
    const mb = keyed(b);
    if (ma && mb) {
      for (const [k, x] of ma) diffElement(`${path}[${k}]`, x, mb.get(k), out);
      for (const [k, y] of mb) if (!ma.has(k)) out.push({ kind: 'added', path: `${path}[${k}]`, after: y });
      return;
    }
  }
  if (isObj(a) && isObj(b) && (isContainer(a) || isContainer(b))) {
    for (const k of Object.keys(a)) diffValue(child(path, k), a[k], b[k], out);
    for (const k of Object.keys(b)) if (!(k in a)) diffValue(child(path, k), undefined, b[k], out);
    return;
  }
  out.push({ kind: 'changed', path, before: a, after: b });
}

function diffElement(path: string, a: unknown, b: unknown, out: Change[]): void {
  if (b === undefined) return void out.push({ kind: 'removed', path, before: a });
  diffValue(path, a, b, out);
}

// ---------------------------------------------------------------------------------------------------------------
// Summaries

interface Summarised {
  type: string;
  data: unknown;
}

const firstLine = (s: string, max = 80): string => {
  const line = s.trim().split('\n')[0].replace(/\s+/g, ' ');
  return line.length > max || s.trim().includes('\n') ? `${line.slice(0, max)}…` : line;
};

/** One line saying what an event did, e.g. "tracked table public.author". */
export function summarize(e: Summarised): string {
  const d = (isObj(e.data) ? e.data : {}) as Obj;
  const t = qualified(d.table) ?? '';
  switch (e.type) {
    case 'table_tracked': return `tracked table ${t}`;
    case 'table_untracked': return `untracked table ${t}`;
    case 'table_enum_set': return `${d.is_enum ? 'set' : 'unset'} enum on table ${t}`;
    case 'table_custom_fields_set': return `set custom fields of table ${t}`;
    case 'table_renamed': return `table ${qualified(d.from)} renamed to ${qualified(d.to)}`;
    case 'column_renamed': return `column ${String(d.from)} of ${t} renamed to ${String(d.to)}`;
    case 'function_tracked': return `tracked function ${qualified(d.function)}`;
    case 'function_untracked': return `untracked function ${qualified(d.function)}`;
    case 'relationship_created': {
      const r = (d.relationship ?? {}) as Obj;
      return `created ${String(d.kind)} relationship ${String(r.name)} on ${t}`;
    }
    case 'relationship_dropped': return `dropped relationship ${String(d.name)} on ${t}`;
    case 'relationship_renamed': return `renamed relationship ${String(d.name)} on ${t} to ${String(d.new_name)}`;
    case 'relationship_comment_set': return `set comment of relationship ${String(d.name)} on ${t}`;
    case 'computed_field_added': return `added computed field ${String(((d.computed_field ?? {}) as Obj).name)} on ${t}`;
    case 'computed_field_dropped': return `dropped computed field ${String(d.name)} on ${t}`;
    case 'permission_created': return `created ${String(d.kind)} permission for role ${String(d.role)} on ${t}`;
    case 'permission_updated': return `updated ${String(d.kind)} permission for role ${String(d.role)} on ${t}`;
    case 'permission_dropped': return `dropped ${String(d.kind)} permission for role ${String(d.role)} on ${t}`;
    case 'permission_comment_set': return `set comment of ${String(d.kind)} permission for role ${String(d.role)} on ${t}`;
    case 'sql_ran': {
      const m = isObj(d.migration) ? d.migration : null;
      if (m === null) return `ran SQL: ${firstLine(String(d.sql ?? ''))}`;
      const what = `migration ${String(m.version)}_${String(m.name)}`;
      const down = m.direction === 'down';
      if (m.skip_execution === true) return `marked ${what} as ${down ? 'rolled back' : 'applied'} (execution skipped)`;
      return `${down ? 'rolled back' : 'applied'} ${what}${typeof m.file === 'string' ? ` (${m.file})` : ''}: ${firstLine(String(d.sql ?? ''), 60)}`;
    }
    case 'metadata_replaced': {
      const m = (d.metadata ?? {}) as { tables?: unknown };
      const n = isObj(m.tables) ? Object.keys(m.tables).length : Array.isArray(m.tables) ? m.tables.length : 0;
      return `replaced metadata (${n} table${n === 1 ? '' : 's'})`;
    }
    case 'metadata_cleared': return 'cleared metadata';
    case 'metadata_reloaded': return 'reloaded metadata';
    case 'event_trigger_created': return `created event trigger ${String(((d.trigger ?? {}) as Obj).name)} on ${t}`;
    case 'event_trigger_deleted': return `deleted event trigger ${String(d.name)}`;
    case 'remote_schema_added': return `added remote schema ${String(((d.remote_schema ?? {}) as Obj).name)}`;
    case 'remote_schema_removed': return `removed remote schema ${String(d.name)}`;
    case 'remote_schema_reloaded': return `reloaded remote schema ${String(d.name)}`;
    case 'remote_relationship_created': return `created remote relationship ${String(((d.relationship ?? {}) as Obj).name)} on ${t}`;
    case 'remote_relationship_updated': return `updated remote relationship ${String(((d.relationship ?? {}) as Obj).name)} on ${t}`;
    case 'remote_relationship_deleted': return `deleted remote relationship ${String(d.name)} on ${t}`;
    case 'query_collection_created': return `created query collection ${String(((d.collection ?? {}) as Obj).name)}`;
    case 'query_collection_dropped': return `dropped query collection ${String(d.name)}`;
    case 'collection_query_added': return `added query ${String(((d.query ?? {}) as Obj).name)} to collection ${String(d.collection)}`;
    case 'collection_query_dropped': return `dropped query ${String(d.query_name)} from collection ${String(d.collection)}`;
    case 'allowlist_collection_added': return `added collection ${String(d.collection)} to the allow-list`;
    case 'allowlist_collection_dropped': return `dropped collection ${String(d.collection)} from the allow-list`;
    case 'custom_types_set': return 'set custom types';
    case 'action_created': return `created action ${String(((d.action ?? {}) as Obj).name)}`;
    case 'action_updated': return `updated action ${String(d.name)}`;
    case 'action_dropped': return `dropped action ${String(d.name)}`;
    case 'action_permission_created': return `created permission for role ${String(d.role)} on action ${String(d.action)}`;
    case 'action_permission_dropped': return `dropped permission for role ${String(d.role)} on action ${String(d.action)}`;
    case 'cron_trigger_created': return `created cron trigger ${String(((d.trigger ?? {}) as Obj).name)}`;
    case 'cron_trigger_updated': return `replaced cron trigger ${String(((d.trigger ?? {}) as Obj).name)}`;
    case 'cron_trigger_deleted': return `deleted cron trigger ${String(d.name)}`;
    default: return e.type.replace(/_/g, ' ');
  }
}
