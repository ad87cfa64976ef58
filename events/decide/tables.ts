// decide for table tracking: track_table (v1/v2), untrack_table, set_table_is_enum, set_table_custom_fields.
import { EngineError } from '../../src/core/errors.js';
import { qualifiedKey, sameName, quoteName as qt, type QualifiedName } from '../../src/core/names.js';
import { ev, type Event, type TableConfiguration } from '../types.js';
import { trackedTable, type DecideContext } from './context.js';
import { dependencyError, dependentsOf, dropEvents } from './dependencies.js';

export type TableCommand =
  | { op: 'track_table'; table: QualifiedName; is_enum: boolean; configuration: TableConfiguration }
  | { op: 'untrack_table'; table: QualifiedName; cascade: boolean }
  | { op: 'set_table_is_enum'; table: QualifiedName; is_enum: boolean }
  | { op: 'set_table_custom_fields'; table: QualifiedName; configuration: TableConfiguration };

export function decideTable(cmd: TableCommand, ctx: DecideContext): Event[] {
  const { metadata: m } = ctx;
  switch (cmd.op) {
    case 'track_table': {
      if (m.tables[qualifiedKey(cmd.table)]) {
        throw new EngineError('already-tracked', `view/table already tracked : ${qt(cmd.table)}`, { path: '$.args' });
      }
      if (m.functions[qualifiedKey(cmd.table)]) {
        throw new EngineError('not-supported', `function with name ${qt(cmd.table)} already exists`, { path: '$.args' });
      }
      // SPEC.md gives this call's own error (the inconsistent object's reason, written without the space, is
      // another text: src/cache/build.ts).
      if (!ctx.catalog.tables[qualifiedKey(cmd.table)]) {
        throw new EngineError('not-exists', `no such table/view exists in postgres : ${qt(cmd.table)}`, { path: '$.args' });
      }
      return [ev('table_tracked', { table: cmd.table, is_enum: cmd.is_enum, configuration: cmd.configuration })];
    }
    case 'untrack_table': {
      if (!m.tables[qualifiedKey(cmd.table)]) {
        throw new EngineError('already-untracked', `view/table already untracked : ${qt(cmd.table)}`, { path: '$.args' });
      }
      // The table's own objects go with it; anything else that uses it is a dependent.
      const deps = dependentsOf([{ kind: 'table', table: cmd.table }], m, ctx.catalog).filter(
        (o) => !('table' in o && sameName(o.table, cmd.table)),
      );
      if (deps.length && !cmd.cascade) throw dependencyError(deps);
      return [...dropEvents(deps), ev('table_untracked', { table: cmd.table })];
    }
    case 'set_table_is_enum': {
      trackedTable(m, cmd.table);
      return [ev('table_enum_set', { table: cmd.table, is_enum: cmd.is_enum })];
    }
    case 'set_table_custom_fields': {
      trackedTable(m, cmd.table);
      return [ev('table_custom_fields_set', { table: cmd.table, configuration: cmd.configuration })];
    }
  }
}
