// decide for custom types and actions: set_custom_types (validated here, against Postgres too), create/update/drop
// action and action permissions. Action types are checked against custom types when the cache is built.
import { EngineError } from '../../src/core/errors.js';
import { qualifiedKey, quote as q, quoteName as qt } from '../../src/core/names.js';
import { baseTypeName, isListType, type ActionDefinition, type ActionMeta, type CustomTypes } from '../actions.js';
import { customTypesDefinition } from '../custom-types-json.js';
import { ev, type Event } from '../types.js';
import { type DecideContext } from './context.js';

export type ActionCommand =
  | { op: 'set_custom_types'; custom_types: CustomTypes }
  | { op: 'create_action'; action: ActionMeta }
  | { op: 'update_action'; name: string; definition: ActionDefinition }
  | { op: 'drop_action'; name: string; clear_data: boolean }
  | { op: 'create_action_permission'; action: string; role: string; comment: string | null }
  | { op: 'drop_action_permission'; action: string; role: string };

export const BUILTIN_SCALARS = new Set(['Int', 'Float', 'String', 'Boolean', 'ID']);
/** Postgres base types usable as custom-type fields and action arguments. */
export const PG_SCALARS = new Set([
  'uuid', 'timestamptz', 'timestamp', 'date', 'time', 'timetz', 'interval', 'numeric', 'bigint', 'int8', 'int4', 'int2',
  'integer', 'smallint', 'float4', 'float8', 'real', 'json', 'jsonb', 'text', 'varchar', 'bpchar', 'bool', 'money',
  'inet', 'citext', 'bytea', 'geometry', 'geography',
]);

const actions = (ctx: DecideContext): ActionMeta[] => ctx.metadata.actions;

function findAction(ctx: DecideContext, name: string, message: string): ActionMeta {
  const a = actions(ctx).find((x) => x.name === name);
  if (!a) throw new EngineError('not-exists', message, { path: '$.args' });
  return a;
}

export function decideAction(cmd: ActionCommand, ctx: DecideContext): Event[] {
  switch (cmd.op) {
    case 'set_custom_types': {
      const reasons = customTypeProblems(cmd.custom_types, ctx);
      if (reasons.length) {
        const why = reasons.length === 1 ? `because ${reasons[0]}` : `for the following reasons:\n${reasons.map((r) => `  • ${r}\n`).join('')}`;
        const reason = `validation for the given custom types failed ${why}`;
        // As the original, which stores the types and rebuilds: the custom types are the inconsistent object.
        throw new EngineError('constraint-violation', reason, {
          path: '$.args',
          internal: [{ definition: customTypesDefinition(cmd.custom_types), reason, type: 'custom_types' }],
        });
      }
      return [ev('custom_types_set', { custom_types: cmd.custom_types })];
    }
    case 'create_action':
      if (actions(ctx).some((a) => a.name === cmd.action.name)) {
        throw new EngineError('already-exists', `action with name ${q(cmd.action.name)} already exists`, { path: '$.args' });
      }
      return [ev('action_created', { action: cmd.action })];
    case 'update_action':
      findAction(ctx, cmd.name, `action with name ${q(cmd.name)} not exists`);
      return [ev('action_updated', { name: cmd.name, definition: cmd.definition })];
    case 'drop_action':
      findAction(ctx, cmd.name, `action with name ${q(cmd.name)} does not exist`);
      return [ev('action_dropped', { name: cmd.name, clear_data: cmd.clear_data })];
    case 'create_action_permission': {
      const a = findAction(ctx, cmd.action, `action with name ${q(cmd.action)} does not exist`);
      if (a.permissions.some((p) => p.role === cmd.role)) {
        throw new EngineError('already-exists', `permission for role ${q(cmd.role)} is already defined on ${q(cmd.action)}`, { path: '$.args' });
      }
      return [ev('action_permission_created', { action: cmd.action, role: cmd.role, comment: cmd.comment })];
    }
    case 'drop_action_permission': {
      const a = findAction(ctx, cmd.action, `action with name ${q(cmd.action)} does not exist`);
      if (!a.permissions.some((p) => p.role === cmd.role)) {
        throw new EngineError('not-exists', `permission for role: ${q(cmd.role)} is not defined on ${q(cmd.action)}`, { path: '$.args' });
      }
      return [ev('action_permission_dropped', { action: cmd.action, role: cmd.role })];
    }
  }
}

const dups = (xs: string[]): string[] => [...new Set(xs.filter((x, i) => xs.indexOf(x) !== i))];

/** Everything wrong with a set of custom types, in the original's order of checks. */
export function customTypeProblems(ct: CustomTypes, ctx: DecideContext): string[] {
  const reasons: string[] = [];
  const inputs = ct.input_objects ?? [];
  const objects = ct.objects ?? [];
  const scalars = ct.scalars ?? [];
  const enums = ct.enums ?? [];
  const all = [...inputs, ...objects, ...scalars, ...enums].map((t) => t.name);
  const dup = dups(all);
  if (dup.length) reasons.push(`the following types are defined more than once: ${dup.map(q).join(', ')}`);
  const scalarLike = new Set([...scalars.map((s) => s.name), ...enums.map((e) => e.name), ...BUILTIN_SCALARS, ...PG_SCALARS]);
  const inputNames = new Set(inputs.map((i) => i.name));
  const objectNames = new Set(objects.map((o) => o.name));
  for (const i of inputs) {
    const fd = dups(i.fields.map((f) => f.name));
    if (fd.length) reasons.push(`the following fields are defined more than once in input object type ${q(i.name)}: ${fd.map(q).join(', ')}`);
    for (const f of i.fields) {
      const base = baseTypeName(f.type);
      if (!scalarLike.has(base) && !inputNames.has(base)) {
        reasons.push(`the type ${q(base)} for field ${q(f.name)} in input object type ${q(i.name)} does not exist`);
      }
    }
  }
  for (const o of objects) {
    const rels = o.relationships ?? [];
    const fd = dups([...o.fields.map((f) => f.name), ...rels.map((r) => r.name)]);
    if (fd.length) reasons.push(`the following fields are defined more than once in object type ${q(o.name)}: ${fd.map(q).join(', ')}`);
    for (const f of o.fields) {
      if (f.arguments !== undefined && f.arguments !== null) reasons.push(`the object ${o.name} can't have arguments`);
      const base = baseTypeName(f.type);
      if (objectNames.has(base) || inputNames.has(base)) {
        reasons.push(`the type ${q(base)} for field ${q(f.name)} in object type ${q(o.name)} is not a scalar or an enum`);
      } else if (!scalarLike.has(base)) {
        reasons.push(`the type ${q(base)} for field ${q(f.name)} in object type ${q(o.name)} does not exist`);
      }
    }
    for (const r of rels) {
      const table = ctx.metadata.tables[qualifiedKey(r.remote_table)];
      const pg = ctx.catalog.tables[qualifiedKey(r.remote_table)];
      if (!table || !pg) {
        reasons.push(`the remote table ${qt(r.remote_table)} for relationship ${q(r.name)} of object type ${q(o.name)} does not exist`);
        continue;
      }
      for (const [fieldName, column] of Object.entries(r.field_mapping)) {
        const f = o.fields.find((x) => x.name === fieldName);
        if (!f) reasons.push(`the field ${q(fieldName)} for relationship ${q(r.name)} in object type ${q(o.name)} does not exist`);
        else if (isListType(f.type)) reasons.push(`the type of the field ${q(fieldName)} used in relationship ${q(r.name)} of object type ${q(o.name)} is a list type`);
        if (!pg.columns.some((c) => c.name === column)) {
          reasons.push(`the column ${q(column)} of remote table ${qt(r.remote_table)} for relationship ${q(r.name)} of object type ${q(o.name)} does not exist`);
        }
      }
    }
  }
  for (const e of enums) {
    const vd = dups(e.values.map((v) => v.value));
    if (vd.length) reasons.push(`the following values in enum type ${q(e.name)} are duplicated: ${vd.map(q).join(', ')}`);
  }
  return reasons;
}
