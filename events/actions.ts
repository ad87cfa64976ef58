// Actions and custom types as metadata: the shapes shared by the operations' args (src/metadata/operations/
// actions.ts) and the export, with the original's defaults and messages, and the stored shapes. Validation
// against each other and Postgres happens in decide (custom types) and in the schema-cache build (actions).
import { z } from 'zod';
import { headerConf, tableName } from './argument-shapes.js';

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
export const graphqlName = z.string().refine((s) => GRAPHQL_NAME.test(s), { message: 'not a valid GraphQL name' });
const description = z.string().nullable().optional();

/** A GraphQL type expression: Name, [T], T! (the base name is what the checks look at). */
export const graphqlType = z.string().refine((s) => /^\s*(\[\s*)*[_A-Za-z][_0-9A-Za-z]*\s*!?(\s*\]\s*!?)*\s*$/.test(s), {
  message: 'not a valid GraphQL type',
});
export const baseTypeName = (t: string): string => t.replace(/[[\]!\s]/g, '');
export const isListType = (t: string): boolean => t.includes('[');

// Note [Kind of a query action]
// The original reads `kind` only when the action is a mutation (absent or null: synchronous); a query action's
// kind is never looked at. Its CLI writes `kind: ""` into every query action it saves, so that must apply.
const mutationKind = z.enum(['synchronous', 'asynchronous']).nullable().optional();

export const actionDefinition = z
  .object({
    arguments: z.array(z.object({ name: graphqlName, type: graphqlType, description })).nullable().optional(),
    output_type: graphqlType,
    // Read for mutations only (Note [Kind of a query action]).
    kind: z.unknown().optional(),
    headers: z.array(headerConf).nullable().optional(),
    forward_client_headers: z.boolean().optional(),
    handler: z.string(),
    type: z.string().optional(),
    timeout: z.number().int().nonnegative().optional(),
  })
  .superRefine((d, ctx) => {
    if (d.type !== undefined && d.type !== 'mutation' && d.type !== 'query') {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['type'], message: `expected mutation or query, but found ${d.type}` });
    } else if (d.type !== 'query') {
      const kind = mutationKind.safeParse(d.kind);
      if (!kind.success) for (const issue of kind.error.issues) ctx.addIssue({ ...issue, path: ['kind', ...issue.path] });
    }
  })
  .transform((d) => {
    const type = (d.type ?? 'mutation') as 'mutation' | 'query';
    return {
      arguments: (d.arguments ?? []).map((a) => ({ name: a.name, type: a.type, ...(a.description != null ? { description: a.description } : {}) })),
      output_type: d.output_type,
      // A query action has no kind (a given one is ignored).
      ...(type === 'mutation' ? { kind: mutationKind.parse(d.kind) ?? 'synchronous' } : {}),
      headers: d.headers ?? [],
      forward_client_headers: d.forward_client_headers ?? false,
      handler: d.handler,
      type,
      timeout: d.timeout ?? 30,
    };
  });

export type ActionDefinition = z.output<typeof actionDefinition>;

export interface ActionMeta {
  name: string;
  definition: ActionDefinition;
  comment: string | null;
  permissions: Array<{ role: string; comment: string | null }>;
}

const field = z.object({ name: graphqlName, type: graphqlType, description, arguments: z.unknown().optional() });

export const customTypes = z.object({
  input_objects: z.array(z.object({ name: graphqlName, description, fields: z.array(field).nonempty() })).nullable().optional(),
  objects: z
    .array(
      z.object({
        name: graphqlName,
        description,
        fields: z.array(field).nonempty(),
        relationships: z
          .array(z.object({ name: graphqlName, type: z.enum(['object', 'array']), remote_table: tableName, field_mapping: z.record(z.string()) }))
          .nullable()
          .optional(),
      }),
    )
    .nullable()
    .optional(),
  scalars: z.array(z.object({ name: graphqlName, description })).nullable().optional(),
  enums: z
    .array(
      z.object({
        name: graphqlName,
        description,
        values: z.array(z.object({ value: graphqlName, description, is_deprecated: z.boolean().nullable().optional() })).nonempty(),
      }),
    )
    .nullable()
    .optional(),
});

export type CustomTypes = z.output<typeof customTypes>;

/** Custom types as stored and exported: empty kinds and null descriptions left out. */
export function normaliseCustomTypes(ct: CustomTypes): CustomTypes {
  const strip = <T extends object>(x: T): T =>
    JSON.parse(JSON.stringify(x, (_k, v) => (v === null ? undefined : v))) as T;
  const out: Record<string, unknown> = {};
  for (const k of ['input_objects', 'objects', 'scalars', 'enums'] as const) {
    const list = ct[k];
    if (list && list.length) out[k] = strip(list);
  }
  return out as CustomTypes;
}
