// decide for computed fields: add_computed_field and drop_computed_field (cascade to permissions).
import { EngineError } from '../../src/core/errors.js';
import type { QualifiedName } from '../../src/core/names.js';
import { ev, own, type ComputedFieldMeta, type Event } from '../types.js';
import { quote as q } from '../../src/core/names.js';
import { trackedTable, type DecideContext } from './context.js';
import { dependencyError, dependentsOf, dropEvents } from './dependencies.js';

export type ComputedFieldCommand =
  | { op: 'add_computed_field'; table: QualifiedName; computed_field: ComputedFieldMeta }
  | { op: 'drop_computed_field'; table: QualifiedName; name: string; cascade: boolean };

export function decideComputedField(cmd: ComputedFieldCommand, ctx: DecideContext): Event[] {
  const t = trackedTable(ctx.metadata, cmd.table, '$.args.table');
  switch (cmd.op) {
    case 'add_computed_field': {
      const name = cmd.computed_field.name;
      if (own(t.computed_fields, name)) {
        throw new EngineError('already-exists', `computed field ${q(name)} already exists`, { path: '$.args' });
      }
      return [ev('computed_field_added', { table: cmd.table, computed_field: cmd.computed_field })];
    }
    case 'drop_computed_field': {
      if (!own(t.computed_fields, cmd.name)) {
        throw new EngineError('not-exists', `computed field ${q(cmd.name)} does not exist`, { path: '$.args.name' });
      }
      const deps = dependentsOf([{ kind: 'computed_field', table: cmd.table, name: cmd.name }], ctx.metadata, ctx.catalog);
      if (deps.length && !cmd.cascade) throw dependencyError(deps);
      return [...dropEvents(deps), ev('computed_field_dropped', { table: cmd.table, name: cmd.name })];
    }
  }
}
