// Permissions as metadata stores them, per kind: the shapes create_<kind>_permission's args and replace_metadata
// read them with (defaults filled in, absent ones left out, keys in the export's order), and the types they give.
import { z } from 'zod';
import { pickedUnion, stringFirst } from './argument-shapes.js';

const boolExp = z.record(z.unknown());
const columns = pickedUnion([z.literal('*'), z.array(z.string())], stringFirst);

export const insertPermission = z
  .object({
    check: boolExp,
    set: z.record(z.unknown()).optional().nullable(),
    columns: columns.optional().nullable(),
    backend_only: z.boolean().optional().nullable(),
  })
  .transform((p) => ({
    check: p.check,
    ...(p.set != null ? { set: p.set } : {}),
    ...(p.columns != null ? { columns: p.columns } : {}),
    ...(p.backend_only != null ? { backend_only: p.backend_only } : {}),
  }));

export const selectPermission = z
  .object({
    columns,
    computed_fields: z.array(z.string()).optional().nullable(),
    filter: boolExp,
    limit: z.number().int().optional().nullable(),
    allow_aggregations: z.boolean().optional().nullable(),
  })
  .transform((p) => ({
    columns: p.columns,
    computed_fields: p.computed_fields ?? [],
    filter: p.filter ?? {},
    allow_aggregations: p.allow_aggregations ?? false,
    ...(p.limit != null ? { limit: p.limit } : {}),
  }));

export const updatePermission = z
  .object({
    columns,
    filter: boolExp,
    check: boolExp.optional().nullable(),
    set: z.record(z.unknown()).optional().nullable(),
  })
  .transform((p) => ({
    columns: p.columns,
    filter: p.filter ?? {},
    ...(p.check != null ? { check: p.check } : {}),
    ...(p.set != null ? { set: p.set } : {}),
  }));

export const deletePermission = z.object({ filter: boolExp }).transform((p) => ({ filter: p.filter ?? {} }));

export const permissionSchemas = {
  insert: insertPermission,
  select: selectPermission,
  update: updatePermission,
  delete: deletePermission,
} as const;

export type Columns = z.output<typeof columns>;
export type InsertPermission = z.output<typeof insertPermission>;
export type SelectPermission = z.output<typeof selectPermission>;
export type UpdatePermission = z.output<typeof updatePermission>;
export type DeletePermission = z.output<typeof deletePermission>;

/** Each kind's rules. */
export type PermissionDefs = { [K in keyof typeof permissionSchemas]: z.output<(typeof permissionSchemas)[K]> };
