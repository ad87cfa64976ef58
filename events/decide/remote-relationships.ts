// decide for remote relationships: create, update, delete. What needs no remote schema is checked here (the table,
// the name); the relationship against its remote schema (fields, arguments, types, "$column"s) is checked by the
// schema cache (src/remote/relationships.ts): the write path refuses the request when the stored relationship comes
// out inconsistent (its constraint-violation carries the "cannot validate remote relationship because ..." reason).
import { EngineError } from '../../src/core/errors.js';
import type { QualifiedName } from '../../src/core/names.js';
import { quote as q, quoteName as qt } from '../../src/core/names.js';
import type { RemoteRelationshipMeta } from '../remote-relationships.js';
import { ev, type Event, type TableMeta } from '../types.js';
import { trackedTable, type DecideContext } from './context.js';
import { fieldExists } from './relationships.js';

export type RemoteRelationshipCommand =
  | { op: 'create_remote_relationship'; table: QualifiedName; relationship: RemoteRelationshipMeta }
  | { op: 'update_remote_relationship'; table: QualifiedName; relationship: RemoteRelationshipMeta }
  | { op: 'delete_remote_relationship'; table: QualifiedName; name: string };

export const remoteRelationshipOf = (t: TableMeta, name: string): RemoteRelationshipMeta | undefined =>
  t.remote_relationships.find((r) => r.name === name);

/** The original's askRemoteRel: the field must exist and be a remote relationship. */
function existing(ctx: DecideContext, t: TableMeta, name: string): void {
  if (remoteRelationshipOf(t, name)) return;
  if (fieldExists(ctx, t, name)) throw new EngineError('unexpected-payload', 'expecting a remote relationship', { path: '$.args' });
  throw new EngineError('not-exists', `${q(name)} does not exist`, { path: '$.args' });
}

export function decideRemoteRelationship(cmd: RemoteRelationshipCommand, ctx: DecideContext): Event[] {
  const t = trackedTable(ctx.metadata, cmd.table);
  switch (cmd.op) {
    case 'create_remote_relationship': {
      const name = cmd.relationship.name;
      if (remoteRelationshipOf(t, name) || fieldExists(ctx, t, name)) {
        throw new EngineError('already-exists', `field ${q(name)} of table ${qt(cmd.table)} already exists`, { path: '$.args' });
      }
      return [ev('remote_relationship_created', { table: cmd.table, relationship: cmd.relationship })];
    }
    case 'update_remote_relationship':
      existing(ctx, t, cmd.relationship.name);
      return [ev('remote_relationship_updated', { table: cmd.table, relationship: cmd.relationship })];
    case 'delete_remote_relationship':
      existing(ctx, t, cmd.name);
      return [ev('remote_relationship_deleted', { table: cmd.table, name: cmd.name })];
  }
}
