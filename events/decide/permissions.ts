// decide for permissions: create/drop per kind and set_permission_comment. The rules themselves (columns,
// operators, relationships) are checked when the schema cache is rebuilt, as in the original.
import { EngineError } from '../../src/core/errors.js';
import type { QualifiedName } from '../../src/core/names.js';
import { ev, own, permissionsOf, type Event, type Permission, type PermKind, type TableMeta } from '../types.js';
import { quote as q, quoteName as qt } from '../../src/core/names.js';
import { trackedTable, type DecideContext } from './context.js';

export type PermissionCommand =
  | { op: 'create_permission'; kind: PermKind; table: QualifiedName; role: string; permission: Permission; comment: string | null }
  | { op: 'drop_permission'; kind: PermKind; table: QualifiedName; role: string }
  | { op: 'set_permission_comment'; kind: PermKind; table: QualifiedName; role: string; comment: string | null };

const permMessage = (kind: PermKind, t: TableMeta, role: string, what: string) =>
  `'${kind}' permission on ${qt(t.table)} for role ${q(role)} ${what}`;

export function decidePermission(cmd: PermissionCommand, ctx: DecideContext): Event[] {
  const t = trackedTable(ctx.metadata, cmd.table, '$.args.table');
  const existing = own(permissionsOf(t, cmd.kind), cmd.role);
  switch (cmd.op) {
    case 'create_permission':
      // The admin role's permissions are implicit: defining one reads as "already exists".
      if (existing || cmd.role === 'admin') throw new EngineError('already-exists', permMessage(cmd.kind, t, cmd.role, 'already exists'), { path: '$.args' });
      return [ev('permission_created', { table: cmd.table, kind: cmd.kind, role: cmd.role, permission: cmd.permission, comment: cmd.comment })];
    case 'drop_permission':
      // The original's drop path words it differently (spelling included) from set_permission_comment's.
      if (!existing) {
        throw new EngineError('permission-denied', `${cmd.kind} permisison on ${qt(t.table)} for role ${q(cmd.role)} does not exist`, { path: '$.args' });
      }
      return [ev('permission_dropped', { table: cmd.table, kind: cmd.kind, role: cmd.role })];
    case 'set_permission_comment':
      if (!existing) throw new EngineError('permission-denied', permMessage(cmd.kind, t, cmd.role, 'does not exist'), { path: '$.args' });
      return [ev('permission_comment_set', { table: cmd.table, kind: cmd.kind, role: cmd.role, comment: cmd.comment })];
  }
}
