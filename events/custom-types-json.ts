// Custom types written out as the original writes them, in its two forms: the export's (key order fixed, a null
// description left out, but every enum value with its `description` and `is_deprecated`, null or not) and the
// full form of an inconsistent object's `definition` (every optional key present, null when unset).
import type { CustomTypes } from './actions.js';

type Field = { name: string; type: string; description?: string | null; arguments?: unknown };
type Relationship = { name: string; type: string; remote_table: { schema: string; name: string }; field_mapping: Record<string, string> };
type EnumValue = { value: string; description?: string | null; is_deprecated?: boolean | null };

/** `description` when set: the export leaves a null one out. */
const described = <T extends Record<string, unknown>>(out: T, description: string | null | undefined): T =>
  description != null ? { ...out, description } : out;

const table = (t: { schema: string; name: string }) => ({ schema: t.schema, name: t.name });
const relationship = (r: Relationship) => ({ name: r.name, type: r.type, remote_table: table(r.remote_table), field_mapping: { ...r.field_mapping } });

// Note [Enum values in the export]
// The original writes every other part of the custom types through its ordered export, which leaves a null
// description out; enum values it writes with their own JSON instance, which keeps `description` and
// `is_deprecated` even when null. A document exported by the original carries them, and must export the same here.
const enumValue = (v: EnumValue) => ({ value: v.value, description: v.description ?? null, is_deprecated: v.is_deprecated ?? null });

/** export_metadata's `custom_types` (kinds left out when empty; lists in the order they were set). */
export function exportCustomTypes(ct: CustomTypes): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (ct.input_objects?.length) {
    out.input_objects = ct.input_objects.map((i) =>
      described({ name: i.name, fields: i.fields.map((f: Field) => described({ name: f.name, type: f.type }, f.description)) }, i.description));
  }
  if (ct.objects?.length) {
    out.objects = ct.objects.map((o) => {
      const fields = o.fields.map((f: Field) => {
        const field: Record<string, unknown> = { name: f.name, type: f.type };
        if (f.arguments != null) field.arguments = f.arguments;
        return described(field, f.description);
      });
      const entry: Record<string, unknown> = described({ name: o.name, fields }, o.description);
      if (o.relationships?.length) entry.relationships = o.relationships.map(relationship);
      return entry;
    });
  }
  if (ct.scalars?.length) out.scalars = ct.scalars.map((s) => described({ name: s.name }, s.description));
  if (ct.enums?.length) out.enums = ct.enums.map((e) => described({ name: e.name, values: e.values.map(enumValue) }, e.description));
  return out;
}

/** The custom types as the `definition` of an inconsistent `custom_types` object: the original's full JSON. */
export function customTypesDefinition(ct: CustomTypes): Record<string, unknown> {
  const nullable = <T>(v: T | null | undefined): T | null => v ?? null;
  return {
    input_objects: ct.input_objects?.map((i) => ({
      name: i.name,
      description: nullable(i.description),
      fields: i.fields.map((f: Field) => ({ name: f.name, description: nullable(f.description), type: f.type })),
    })) ?? null,
    objects: ct.objects?.map((o) => ({
      name: o.name,
      description: nullable(o.description),
      fields: o.fields.map((f: Field) => ({ name: f.name, arguments: nullable(f.arguments), description: nullable(f.description), type: f.type })),
      relationships: o.relationships?.map(relationship) ?? null,
    })) ?? null,
    scalars: ct.scalars?.map((s) => ({ name: s.name, description: nullable(s.description) })) ?? null,
    enums: ct.enums?.map((e) => ({ name: e.name, description: nullable(e.description), values: e.values.map(enumValue) })) ?? null,
  };
}
