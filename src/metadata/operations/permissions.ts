// Permissions: create and drop, per kind (insert, select, update, delete), and their comments.
import { z } from 'zod';
import { permissionId } from '../../cache/objects.js';
import { comment, nonEmptyText, tableName } from '../../../events/argument-shapes.js';
import { permissionSchemas } from '../../../events/permissions.js';
import { decidePermission, type PermissionCommand } from '../../../events/decide/permissions.js';
import type { PermKind } from '../../../events/types.js';
import { command, object, type Cmd, type Operations } from './entry.js';

const kindOps = (kind: PermKind): Operations => ({
  [`create_${kind}_permission`]: command({
    versions: {
      1: z
        .object({ table: tableName, role: nonEmptyText, permission: permissionSchemas[kind], comment })
        .transform((a): Cmd<PermissionCommand, 'create_permission'> => ({
          op: 'create_permission',
          kind,
          table: a.table,
          role: a.role,
          permission: a.permission,
          comment: a.comment ?? null,
        })),
    },
    decide: decidePermission,
    check: (c) => object(permissionId(c.table, c.role, c.kind)),
  }),
  [`drop_${kind}_permission`]: command({
    versions: {
      1: z
        .object({ table: tableName, role: nonEmptyText })
        .transform((a): Cmd<PermissionCommand, 'drop_permission'> => ({ op: 'drop_permission', kind, table: a.table, role: a.role })),
    },
    decide: decidePermission,
  }),
});

export const PERMISSION_OPERATIONS: Operations = {
  ...kindOps('insert'),
  ...kindOps('select'),
  ...kindOps('update'),
  ...kindOps('delete'),
  set_permission_comment: command({
    versions: {
      1: z
        .object({
          table: tableName,
          role: nonEmptyText,
          type: z.enum(['insert', 'select', 'update', 'delete']),
          comment,
        })
        .transform((a): Cmd<PermissionCommand, 'set_permission_comment'> => ({
          op: 'set_permission_comment',
          kind: a.type,
          table: a.table,
          role: a.role,
          comment: a.comment ?? null,
        })),
    },
    decide: decidePermission,
  }),
};
