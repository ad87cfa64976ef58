// Tables: track (v1 and v2), untrack, enum flag, custom root fields and column names.
import { z } from 'zod';
import { toQualifiedName } from '../../core/names.js';
import { tableId } from '../../cache/objects.js';
import { customRootFields, optionalBool, tableConfiguration, tableName } from '../../../events/argument-shapes.js';
import { decideTable, type TableCommand } from '../../../events/decide/tables.js';
import { command, tableObject, type Cmd, type Operations } from './entry.js';

type TrackTable = Cmd<TableCommand, 'track_table'>;
const noConfiguration = () => ({ custom_root_fields: {}, custom_column_names: {} });

/** v1: a bare name, `{table, is_enum}` or `{schema, name}`. */
const trackTableV1 = z
  .union([
    z.string().transform((name) => ({ table: toQualifiedName(name), is_enum: false })),
    z.object({ table: tableName, is_enum: optionalBool }).transform((a) => ({ table: a.table, is_enum: a.is_enum ?? false })),
    z.object({ schema: z.string().optional(), name: z.string() }).transform((a) => ({ table: toQualifiedName(a), is_enum: false })),
  ])
  .transform((a): TrackTable => ({ op: 'track_table', table: a.table, is_enum: a.is_enum, configuration: noConfiguration() }));

const trackTableV2 = z
  .object({ table: tableName, is_enum: optionalBool, configuration: tableConfiguration.optional().nullable() })
  .transform((a): TrackTable => ({ op: 'track_table', table: a.table, is_enum: a.is_enum ?? false, configuration: a.configuration ?? noConfiguration() }));

export const TABLE_OPERATIONS: Operations = {
  track_table: command({ versions: { 1: trackTableV1, 2: trackTableV2 }, decide: decideTable, ...tableObject(tableId) }),
  add_existing_table_or_view: command({ versions: { 1: trackTableV1 }, decide: decideTable, ...tableObject(tableId) }),
  untrack_table: command({
    versions: {
      1: z
        .object({ table: tableName, cascade: optionalBool })
        .transform((a): Cmd<TableCommand, 'untrack_table'> => ({ op: 'untrack_table', table: a.table, cascade: a.cascade ?? false })),
    },
    decide: decideTable,
  }),
  set_table_is_enum: command({
    versions: {
      1: z
        .object({ table: tableName, is_enum: z.boolean() })
        .transform((a): Cmd<TableCommand, 'set_table_is_enum'> => ({ op: 'set_table_is_enum', table: a.table, is_enum: a.is_enum })),
    },
    decide: decideTable,
    ...tableObject(tableId),
  }),
  set_table_custom_fields: command({
    versions: {
      2: z
        .object({
          table: tableName,
          custom_root_fields: customRootFields.optional().nullable(),
          custom_column_names: z.record(z.string()).optional().nullable(),
        })
        .transform((a): Cmd<TableCommand, 'set_table_custom_fields'> => ({
          op: 'set_table_custom_fields',
          table: a.table,
          configuration: { custom_root_fields: a.custom_root_fields ?? {}, custom_column_names: a.custom_column_names ?? {} },
        })),
    },
    decide: decideTable,
    ...tableObject(tableId),
  }),
};
