// Relationships (object and array: create, drop, rename, comment) and computed fields (add, drop).
import { z } from 'zod';
import { computedFieldId, relationshipId } from '../../cache/objects.js';
import { arrRelUsing, comment, computedFieldDefinition, nonEmptyText, objRelUsing, optionalBool, tableName } from '../../../events/argument-shapes.js';
import { decideRelationship, type RelationshipCommand } from '../../../events/decide/relationships.js';
import { decideComputedField, type ComputedFieldCommand } from '../../../events/decide/computed-fields.js';
import type { RelKind } from '../../../events/types.js';
import { command, object, type Cmd, type Operations } from './entry.js';

const createRelationship = (kind: RelKind, using: typeof objRelUsing | typeof arrRelUsing) =>
  command({
    versions: {
      1: z
        .object({ table: tableName, name: nonEmptyText, using, comment })
        .transform((a): Cmd<RelationshipCommand, 'create_relationship'> => ({
          op: 'create_relationship',
          kind,
          table: a.table,
          relationship: { name: a.name, using: a.using, comment: a.comment ?? null },
        })),
    },
    decide: decideRelationship,
    check: (c) => object(relationshipId(c.table, c.relationship.name)),
  });

type ComputedFieldDefinition = { function: z.output<typeof computedFieldDefinition>['function']; table_argument?: string; session_argument?: string };

export const RELATIONSHIP_OPERATIONS: Operations = {
  create_object_relationship: createRelationship('object', objRelUsing),
  create_array_relationship: createRelationship('array', arrRelUsing),
  drop_relationship: command({
    versions: {
      1: z
        .object({ table: tableName, relationship: z.string(), cascade: optionalBool })
        .transform((a): Cmd<RelationshipCommand, 'drop_relationship'> => ({ op: 'drop_relationship', table: a.table, name: a.relationship, cascade: a.cascade ?? false })),
    },
    decide: decideRelationship,
  }),
  rename_relationship: command({
    versions: {
      1: z
        .object({ table: tableName, name: z.string(), new_name: nonEmptyText })
        .transform((a): Cmd<RelationshipCommand, 'rename_relationship'> => ({ op: 'rename_relationship', table: a.table, name: a.name, new_name: a.new_name })),
    },
    decide: decideRelationship,
  }),
  set_relationship_comment: command({
    versions: {
      1: z
        .object({ table: tableName, relationship: z.string(), comment })
        .transform((a): Cmd<RelationshipCommand, 'set_relationship_comment'> => ({
          op: 'set_relationship_comment',
          table: a.table,
          name: a.relationship,
          comment: a.comment ?? null,
        })),
    },
    decide: decideRelationship,
  }),

  add_computed_field: command({
    versions: {
      1: z
        .object({ table: tableName, name: nonEmptyText, definition: computedFieldDefinition, comment })
        .transform((a): Cmd<ComputedFieldCommand, 'add_computed_field'> => {
          const definition: ComputedFieldDefinition = { function: a.definition.function };
          if (a.definition.table_argument !== undefined) definition.table_argument = a.definition.table_argument;
          if (a.definition.session_argument !== undefined) definition.session_argument = a.definition.session_argument;
          return { op: 'add_computed_field', table: a.table, computed_field: { name: a.name, definition, comment: a.comment ?? null } };
        }),
    },
    decide: decideComputedField,
    check: (c) => object(computedFieldId(c.table, c.computed_field.name)),
  }),
  drop_computed_field: command({
    versions: {
      1: z
        .object({ table: tableName, name: z.string(), cascade: optionalBool })
        .transform((a): Cmd<ComputedFieldCommand, 'drop_computed_field'> => ({ op: 'drop_computed_field', table: a.table, name: a.name, cascade: a.cascade ?? false })),
    },
    decide: decideComputedField,
  }),
};
