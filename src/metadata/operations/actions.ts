// Custom types and actions: set_custom_types, create / update / drop an action, action permissions.
import { z } from 'zod';
import { actionId, customTypesId } from '../../cache/objects.js';
import { comment, nonEmptyText } from '../../../events/argument-shapes.js';
import { actionDefinition, customTypes, graphqlName, normaliseCustomTypes } from '../../../events/actions.js';
import { decideAction, type ActionCommand } from '../../../events/decide/actions.js';
import { command, object, type Cmd, type Operations } from './entry.js';

export const ACTION_OPERATIONS: Operations = {
  set_custom_types: command({
    versions: {
      1: customTypes.transform((t): Cmd<ActionCommand, 'set_custom_types'> => ({ op: 'set_custom_types', custom_types: normaliseCustomTypes(t) })),
    },
    decide: decideAction,
    check: () => object(customTypesId()),
  }),
  create_action: command({
    versions: {
      1: z
        .object({ name: graphqlName, definition: actionDefinition, comment })
        .transform((a): Cmd<ActionCommand, 'create_action'> => ({
          op: 'create_action',
          action: { name: a.name, definition: a.definition, comment: a.comment ?? null, permissions: [] },
        })),
    },
    decide: decideAction,
    check: (c) => object(actionId(c.action.name)),
  }),
  update_action: command({
    versions: {
      1: z
        .object({ name: graphqlName, definition: actionDefinition })
        .transform((a): Cmd<ActionCommand, 'update_action'> => ({ op: 'update_action', name: a.name, definition: a.definition })),
    },
    decide: decideAction,
    check: (c) => object(actionId(c.name)),
  }),
  drop_action: command({
    versions: {
      1: z
        .object({ name: graphqlName, clear_data: z.boolean().nullable().optional() })
        .transform((a): Cmd<ActionCommand, 'drop_action'> => ({ op: 'drop_action', name: a.name, clear_data: a.clear_data ?? true })),
    },
    decide: decideAction,
  }),
  create_action_permission: command({
    versions: {
      1: z
        .object({ action: graphqlName, role: nonEmptyText, comment, definition: z.unknown().optional() })
        .transform((a): Cmd<ActionCommand, 'create_action_permission'> => ({
          op: 'create_action_permission',
          action: a.action,
          role: a.role,
          comment: a.comment ?? null,
        })),
    },
    decide: decideAction,
  }),
  drop_action_permission: command({
    versions: {
      1: z
        .object({ action: graphqlName, role: nonEmptyText })
        .transform((a): Cmd<ActionCommand, 'drop_action_permission'> => ({ op: 'drop_action_permission', action: a.action, role: a.role })),
    },
    decide: decideAction,
  }),
};
