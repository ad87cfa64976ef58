// Remote relationships as metadata stores them (a table's `remote_relationships`), and the shape
// create/update_remote_relationship's args, replace_metadata and the export read them with. `remote_field` is the
// original's RemoteFields: one field name per level with its `arguments` (strings "$column" name a join column)
// and an optional nested `field`. What the remote schema says about it is checked in the schema cache
// (src/remote/relationships.ts): an unknown field there is an inconsistency, not a parse error.
import { z } from 'zod';
import type { QualifiedName } from '../src/core/names.js';
import { nonEmptyText, tableName } from './argument-shapes.js';

/** One level of a remote field: its arguments (a GraphQL value template as JSON) and the field under it. */
export interface RemoteFieldCall {
  arguments: Record<string, unknown>;
  field?: RemoteFieldTemplate;
}

/** `{ <field name>: { arguments, field? } }`: exactly one key. */
export type RemoteFieldTemplate = Record<string, RemoteFieldCall>;

export interface RemoteRelationshipDef {
  remote_schema: string;
  engine_fields: string[];
  remote_field: RemoteFieldTemplate;
}

export interface RemoteRelationshipMeta {
  name: string;
  definition: RemoteRelationshipDef;
}

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** The column a template string names (`"$id"` → `id`), or null for a plain string. */
export function templateVariable(v: unknown): string | null {
  return typeof v === 'string' && v.startsWith('$') ? v.slice(1) : null;
}

/** Every "$variable" of an arguments template (any depth). */
export function templateVariables(v: unknown, out: string[] = []): string[] {
  const name = templateVariable(v);
  if (name !== null) out.push(name);
  else if (Array.isArray(v)) for (const x of v) templateVariables(x, out);
  else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) templateVariables(x, out);
  return out;
}

/** The levels of a remote field, outermost first: [name, arguments]. */
export function remoteFieldPath(f: RemoteFieldTemplate): Array<{ name: string; arguments: Record<string, unknown> }> {
  const out: Array<{ name: string; arguments: Record<string, unknown> }> = [];
  let cur: RemoteFieldTemplate | undefined = f;
  while (cur) {
    const [name, call]: [string, RemoteFieldCall] = Object.entries(cur)[0];
    out.push({ name, arguments: call.arguments });
    cur = call.field;
  }
  return out;
}

/** Renames "$from" to "$to" in a template (a join column renamed). */
export function renameTemplateVariable(v: unknown, from: string, to: string): unknown {
  if (templateVariable(v) === from) return `$${to}`;
  if (Array.isArray(v)) return v.map((x) => renameTemplateVariable(x, from, to));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, renameTemplateVariable(x, from, to)]));
  return v;
}

const jsonObject = z.record(z.unknown());

/** A template's "$names" must be GraphQL names (the original's "Invalid variable name."). */
const argumentsTemplate = jsonObject.superRefine((args, ctx) => {
  for (const name of templateVariables(args)) {
    if (!GRAPHQL_NAME.test(name)) ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'Invalid variable name.' });
  }
});

export const remoteFieldTemplate: z.ZodType<RemoteFieldTemplate> = z.lazy(() =>
  jsonObject
    .superRefine((o, ctx) => {
      const n = Object.keys(o).length;
      if (n !== 1) ctx.addIssue({ code: z.ZodIssueCode.custom, message: n === 0 ? 'An empty remote field is not allowed.' : 'Only one field allowed, not multiple.' });
    })
    .pipe(z.record(z.object({ arguments: argumentsTemplate, field: remoteFieldTemplate.optional() }).strip())),
) as z.ZodType<RemoteFieldTemplate>;

const args = z.object({
  name: nonEmptyText,
  table: tableName,
  engine_fields: z.array(z.string()),
  remote_schema: nonEmptyText,
  remote_field: remoteFieldTemplate,
});

/** create/update_remote_relationship's args: the table and the stored relationship. */
export const remoteRelationshipArgs = args.transform((a): { table: QualifiedName; relationship: RemoteRelationshipMeta } => ({
  table: a.table,
  relationship: storedRemoteRelationship(a.name, a.remote_schema, a.engine_fields, a.remote_field),
}));

/** The stored (and exported) relationship: keys in the export's order, fields de-duplicated as the original's set. */
export function storedRemoteRelationship(name: string, remote_schema: string, fields: string[], remote_field: RemoteFieldTemplate): RemoteRelationshipMeta {
  return { name, definition: { remote_schema, engine_fields: [...new Set(fields)], remote_field } };
}

/** A table's remote relationship as replace_metadata reads it (the export's shape). */
export const storedRemoteRelationshipShape = z
  .object({
    name: nonEmptyText,
    definition: z.object({ remote_schema: nonEmptyText, engine_fields: z.array(z.string()), remote_field: remoteFieldTemplate }),
  })
  .transform((r) => storedRemoteRelationship(r.name, r.definition.remote_schema, r.definition.engine_fields, r.definition.remote_field));
