// decide for the whole-metadata operations: clear_metadata, reload_metadata, replace_metadata and
// drop_inconsistent_metadata. Their I/O (re-reading the catalog, checking a replacement's triggers and remote
// schemas) happens before; the consistency rule (none may be left inconsistent) after, in the write path.
import { EngineError } from '../../src/core/errors.js';
import { ev, type Event, type Metadata, type PermKind } from '../types.js';
import { type DecideContext } from './context.js';
import { dropEvents, type ObjId } from './dependencies.js';
import { cronTriggers } from '../types.js';

export type MetadataCommand =
  | { op: 'clear_metadata' }
  | { op: 'reload_metadata'; reload_remote_schemas: boolean }
  | { op: 'replace_metadata'; metadata: Metadata }
  | { op: 'drop_inconsistent_metadata' };

export function decideMetadata(cmd: MetadataCommand, ctx: DecideContext): Event[] {
  switch (cmd.op) {
    case 'clear_metadata':
      return [ev('metadata_cleared', {})];
    case 'reload_metadata':
      // A fact other instances act on: the catalog was re-read (they re-read theirs when they fold it).
      return [ev('metadata_reloaded', { reload_remote_schemas: cmd.reload_remote_schemas })];
    case 'replace_metadata':
      return [ev('metadata_replaced', { metadata: withKeptCronTriggers(cmd.metadata, ctx.metadata) })];
    case 'drop_inconsistent_metadata':
      return dropInconsistent(ctx.inconsistent ?? []);
    default: {
      const never: never = cmd;
      throw new EngineError('unexpected', `unknown command ${JSON.stringify(never)}`);
    }
  }
}

/**
 * The replacement, plus the current cron triggers kept out of the metadata (include_in_metadata false): as the
 * original's replace, which clears only the included ones. A trigger of the document of the same name wins.
 */
function withKeptCronTriggers(next: Metadata, current: Metadata): Metadata {
  const named = new Set(cronTriggers(next).map((c) => c.name));
  const kept = cronTriggers(current).filter((c) => !c.include_in_metadata && !named.has(c.name));
  return kept.length ? { ...next, cron_triggers: [...next.cron_triggers, ...kept] } : next;
}

/**
 * Drops for the inconsistent objects (by their schema-cache ids): dependents first, then actions, then remote
 * schemas (unreachable, invalid or conflicting ones, as the original purges them).
 */
function dropInconsistent(ids: readonly string[]): Event[] {
  const parsed = ids.map((id) => JSON.parse(id) as string[]);
  return [
    ...dropEvents(parsed.map(idToObj).filter((o): o is ObjId => o !== null)),
    ...parsed.filter((a) => a[0] === 'action').map((a) => ev('action_dropped', { name: a[1], clear_data: false })),
    ...parsed.filter((a) => a[0] === 'remote_schema').map((a) => ev('remote_schema_removed', { name: a[1] })),
    ...parsed.filter((a) => a[0] === 'cron_trigger').map((a) => ev('cron_trigger_deleted', { name: a[1] })),
  ];
}

/** A schema-cache object id (["table", schema, name], ["permission", schema, name, role, kind], ...) as an ObjId. */
function idToObj(a: string[]): ObjId | null {
  const table = { schema: a[1], name: a[2] };
  switch (a[0]) {
    case 'table': return { kind: 'table', table };
    case 'relationship': return { kind: 'relationship', table, name: a[3] };
    case 'computed_field': return { kind: 'computed_field', table, name: a[3] };
    case 'permission': return { kind: 'permission', table, role: a[3], perm: a[4] as PermKind };
    case 'function': return { kind: 'function', fn: table };
    case 'event_trigger': return { kind: 'event_trigger', table, name: a[3] };
    case 'remote_relationship': return { kind: 'remote_relationship', table, name: a[3] };
    default: return null;
  }
}
