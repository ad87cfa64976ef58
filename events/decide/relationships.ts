// decide for relationships: create (object/array), drop (cascade), rename, set comment.
import { EngineError } from '../../src/core/errors.js';
import type { QualifiedName } from '../../src/core/names.js';
import { ev, own, type Event, type RelKind, type RelationshipMeta, type TableMeta } from '../types.js';
import { quote as q, quoteName as qt } from '../../src/core/names.js';
import { relationshipOf, trackedTable, type DecideContext } from './context.js';
import { dependencyError, dependentsOf, dropEvents, permissionRenames, pgTableOf } from './dependencies.js';

export type RelationshipCommand =
  | { op: 'create_relationship'; kind: RelKind; table: QualifiedName; relationship: RelationshipMeta }
  | { op: 'drop_relationship'; table: QualifiedName; name: string; cascade: boolean }
  | { op: 'rename_relationship'; table: QualifiedName; name: string; new_name: string }
  | { op: 'set_relationship_comment'; table: QualifiedName; name: string; comment: string | null };

/** A field name is taken by a column, a relationship, a computed field or a remote relationship. */
export function fieldExists(ctx: DecideContext, t: TableMeta, name: string): boolean {
  const pg = pgTableOf(ctx.catalog, t.table);
  return Boolean(pg?.columns.some((c) => c.name === name) || relationshipOf(t, name) || own(t.computed_fields, name))
    || t.remote_relationships.some((r) => r.name === name);
}

function existingRelationship(ctx: DecideContext, t: TableMeta, name: string) {
  const r = relationshipOf(t, name);
  if (r) return r;
  if (pgTableOf(ctx.catalog, t.table)?.columns.some((c) => c.name === name)) {
    throw new EngineError('unexpected-payload', `expecting a relationship; but, ${name} is a postgres column; `, { path: '$.args' });
  }
  throw new EngineError('not-exists', `relationship ${q(name)} does not exist`, { path: '$.args' });
}

export function decideRelationship(cmd: RelationshipCommand, ctx: DecideContext): Event[] {
  const t = trackedTable(ctx.metadata, cmd.table);
  switch (cmd.op) {
    case 'create_relationship': {
      if (fieldExists(ctx, t, cmd.relationship.name)) {
        throw new EngineError(
          'already-exists',
          `column/relationship ${q(cmd.relationship.name)} of table ${qt(cmd.table)} already exists`,
          { path: '$.args' },
        );
      }
      return [ev('relationship_created', { table: cmd.table, kind: cmd.kind, relationship: cmd.relationship })];
    }
    case 'drop_relationship': {
      existingRelationship(ctx, t, cmd.name);
      const deps = dependentsOf([{ kind: 'relationship', table: cmd.table, name: cmd.name }], ctx.metadata, ctx.catalog);
      if (deps.length && !cmd.cascade) throw dependencyError(deps);
      return [...dropEvents(deps), ev('relationship_dropped', { table: cmd.table, name: cmd.name })];
    }
    case 'rename_relationship': {
      existingRelationship(ctx, t, cmd.name);
      if (cmd.new_name !== cmd.name && fieldExists(ctx, t, cmd.new_name)) {
        throw new EngineError(
          'already-exists',
          `cannot rename relationship ${q(cmd.name)} to ${q(cmd.new_name)} in table ${qt(cmd.table)} as a column/relationship with the name already exists`,
          { path: '$.args' },
        );
      }
      return [
        ev('relationship_renamed', { table: cmd.table, name: cmd.name, new_name: cmd.new_name }),
        ...permissionRenames(ctx.metadata, ctx.catalog, cmd.table, cmd.name, cmd.new_name, false),
      ];
    }
    case 'set_relationship_comment': {
      existingRelationship(ctx, t, cmd.name);
      return [ev('relationship_comment_set', { table: cmd.table, name: cmd.name, comment: cmd.comment })];
    }
  }
}
