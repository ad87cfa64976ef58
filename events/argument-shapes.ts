// The metadata API's shared argument shapes (each operation's own schema is in its entry of the operation table,
// src/metadata/operations/), used by the operations and by the export's parser too, and decode: the mapping of
// zod issues to the original engine's decoder messages (Aeson style: `key "x" not found`, `parsing Object failed, ...`).
import { z } from 'zod';
import { EngineError } from '../src/core/errors.js';
import { formatPath, type PathSegment } from '../src/core/json-path.js';
import { toQualifiedName, type QualifiedName } from '../src/core/names.js';
import { jsonKind } from '../src/core/json-kind.js';

// ---------------------------------------------------------------------------------------------------------------
// Decoding with the original's messages

const expectedKind = (t: string): string =>
  ({ object: 'Object', array: 'Array', string: 'String', number: 'Number', integer: 'Number', boolean: 'Bool', null: 'Null' })[t] ?? t;

function valueAt(root: unknown, path: readonly PathSegment[]): unknown {
  let v: unknown = root;
  for (const s of path) v = v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[s] : undefined;
  return v;
}

/** Parses `value` with `schema`; failures become 400 parse-failed with the path of the bad value (relative to value). */
export function decode<S extends z.ZodTypeAny>(schema: S, value: unknown, base: readonly PathSegment[] = []): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = pickIssue(r.error.issues);
  const path = [...base, ...issue.path];
  let message = issue.message;
  if (issue.code === 'invalid_type') {
    const actual = valueAt(value, issue.path);
    if (actual === undefined && issue.path.length > 0) {
      const key = issue.path[issue.path.length - 1];
      throw new EngineError('parse-failed', `key "${String(key)}" not found`, { path: formatPath(path.slice(0, -1)) });
    }
    const exp = expectedKind(issue.expected);
    message = `parsing ${exp === 'Bool' ? 'Bool' : exp} failed, expected ${exp === 'Bool' ? 'Boolean' : exp}, but encountered ${jsonKind(actual)}`;
  } else if (issue.code === 'invalid_union') {
    const actual = valueAt(value, issue.path);
    if (actual === undefined && issue.path.length > 0) {
      const key = issue.path[issue.path.length - 1];
      throw new EngineError('parse-failed', `key "${String(key)}" not found`, { path: formatPath(path.slice(0, -1)) });
    }
    // Every branch rejected the value's kind: report it against the last (most general) branch, as Aeson does.
    const last = issue.unionErrors[issue.unionErrors.length - 1]?.issues[0];
    message = last && last.code === 'invalid_type'
      ? `parsing ${expectedKind(last.expected)} failed, expected ${expectedKind(last.expected)}, but encountered ${jsonKind(actual)}`
      : 'unexpected input';
  } else if (issue.code === 'unrecognized_keys') {
    message = `unexpected keys: ${issue.keys.join(', ')}`;
  }
  throw new EngineError('parse-failed', message, { path: formatPath(path) });
}

/** The deepest, first issue: what Aeson would have stopped at. */
function pickIssue(issues: z.ZodIssue[]): z.ZodIssue {
  const flat: z.ZodIssue[] = [];
  const visit = (i: z.ZodIssue) => {
    if (i.code === 'invalid_union' && i.message === 'Invalid input') {
      // Prefer the branch that got furthest.
      let best: z.ZodIssue | null = null;
      for (const e of i.unionErrors) for (const sub of e.issues) if (!best || sub.path.length > best.path.length) best = sub;
      if (best && best.path.length > i.path.length) flat.push(best);
      else flat.push(i);
    } else flat.push(i);
  };
  issues.forEach(visit);
  return flat[0];
}

// ---------------------------------------------------------------------------------------------------------------
// Unions picked by kind

// Note [Picked unions]
// zod's union tries its options in order and builds an issue, message and all, for each one that fails before the
// one that takes the value: a table name given as an object fails the string option first. A 40,000-element bulk
// spent a second on those issues. A picked union first tries the one option `pick` names for the value (its
// options take values of different kinds, so no other could take it); a value it takes is the union's answer, as
// zod's union would have given it, and any other value goes through the whole union, whose issues decode() reads.

type Options = readonly [z.ZodTypeAny, z.ZodTypeAny, ...z.ZodTypeAny[]];

interface PickedUnionDef<T extends Options> extends z.ZodUnionDef<T> {
  pick: (value: unknown) => number;
}

class PickedUnion<T extends Options> extends z.ZodUnion<T> {
  declare _def: PickedUnionDef<T>;

  constructor(def: PickedUnionDef<T>) {
    super(def);
  }

  override _parse(input: z.ParseInput): z.ParseReturnType<this['_output']> {
    const { ctx } = this._processInputParams(input);
    const option = ctx.common.async ? undefined : this._def.options[this._def.pick(ctx.data)];
    if (option) {
      // A context of its own, as zod's union gives each option: what it reports is dropped unless it takes the value.
      const own = { ...ctx, common: { ...ctx.common, issues: [] }, parent: null };
      const result = option._parseSync({ data: ctx.data, path: ctx.path, parent: own });
      if (result.status === 'valid') return result as z.ParseReturnType<this['_output']>;
    }
    return super._parse(input);
  }
}

/** z.union(options), trying first `options[pick(value)]` (Note [Picked unions]). */
export const pickedUnion = <T extends Options>(options: T, pick: (value: unknown) => number): z.ZodUnion<T> =>
  new PickedUnion<T>({ ...z.union(options)._def, pick });

/** For a union of a string option and an object (or array) option, in that order. */
export const stringFirst = (value: unknown): number => (typeof value === 'string' ? 0 : 1);

// ---------------------------------------------------------------------------------------------------------------
// Shared argument types

export const nonEmptyText = z.string().refine((s) => s.length > 0, { message: 'empty string not allowed' });

/** The free-text `comment` every metadata object may carry (null or absent: none). */
export const comment = z.string().nullable().optional();

export const tableName = pickedUnion([z.string(), z.object({ schema: z.string().optional(), name: z.string() })], stringFirst)
  .transform((v): QualifiedName => toQualifiedName(v));
export const functionName = tableName;

export const manualConfig = z.object({
  remote_table: tableName,
  column_mapping: z.record(z.string()),
});

const usingSchema = <F extends z.ZodTypeAny>(fk: F) =>
  z
    .object({ foreign_key_constraint_on: fk.optional(), manual_configuration: manualConfig.optional() })
    .superRefine((u, ctx) => {
      const n = Number(u.foreign_key_constraint_on !== undefined) + Number(u.manual_configuration !== undefined);
      if (n !== 1) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: n === 0
            ? 'atleast one of foreign_key_constraint_on/manual_configuration should be present'
            : 'only one of foreign_key_constraint_on/manual_configuration should be present',
        });
      }
    })
    .transform((u) =>
      u.manual_configuration !== undefined
        ? { manual_configuration: u.manual_configuration }
        : { foreign_key_constraint_on: u.foreign_key_constraint_on as z.output<F> },
    );

export const objRelUsing = usingSchema(z.string());
export const arrRelUsing = usingSchema(z.object({ table: tableName, column: z.string() }));

export const computedFieldDefinition = z.object({
  function: functionName,
  table_argument: z.string().optional(),
  session_argument: z.string().optional(),
});

export const customRootFields = z
  .object({
    select: z.string().nullable().optional(),
    select_by_pk: z.string().nullable().optional(),
    select_aggregate: z.string().nullable().optional(),
    insert: z.string().nullable().optional(),
    insert_one: z.string().nullable().optional(),
    update: z.string().nullable().optional(),
    update_by_pk: z.string().nullable().optional(),
    delete: z.string().nullable().optional(),
    delete_by_pk: z.string().nullable().optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    const names = Object.values(r).filter((v): v is string => typeof v === 'string');
    const dups = names.filter((n, i) => names.indexOf(n) !== i);
    if (dups.length) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `the following custom root field names are duplicated: ${[...new Set(dups)].map((d) => `"${d}"`).join(', ')}` });
    }
  })
  .transform((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => typeof v === 'string')) as Record<string, string>);

export const tableConfiguration = z
  .object({
    custom_root_fields: customRootFields.nullable().optional(),
    custom_column_names: z.record(z.string()).nullable().optional(),
  })
  .transform((c) => ({ custom_root_fields: c.custom_root_fields ?? {}, custom_column_names: c.custom_column_names ?? {} }));

// Shared by several operations' args ---------------------------------------------------------------------------

/** An optional flag (absent or null: the operation's default). */
export const optionalBool = z.boolean().optional().nullable();

/** A header sent to a webhook or remote: exactly one of a value and an env var (event triggers, remote schemas, actions). */
export const headerConf = z
  .object({ name: z.string(), value: z.string().optional(), value_from_env: z.string().optional() })
  .superRefine((h, ctx) => {
    if ((h.value === undefined) === (h.value_from_env === undefined)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'expecting exactly one of "value" and "value_from_env"' });
    } else if (h.value_from_env?.startsWith('ENGINE_GRAPHQL_')) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `env variables starting with "ENGINE_GRAPHQL_" are not allowed in value_from_env: ${h.value_from_env}`,
      });
    }
  })
  .transform((h): HeaderConf => (h.value !== undefined ? { name: h.name, value: h.value } : { name: h.name, value_from_env: h.value_from_env! }));

export type HeaderConf = { name: string; value: string } | { name: string; value_from_env: string };
