// Remote relationships in the schema cache: each one checked against its remote schema's introspection as the
// original checks it (Hasura's RemoteRelationship.Validate: the join columns, every level's field and arguments,
// "$column" variables and their types), and resolved into what the role schemas need: the leaf field's type and its
// arguments not fixed by the template (input objects the template fixes partly are cloned as
// `<Type>_remote_rel_<schema>_<table><name>` without the fixed fields). A relationship that fails is an inconsistent
// object ("cannot validate remote relationship because ..."): the write that stored it is refused, a remote
// reloaded without its field makes it inconsistent, never a crash.
import {
  GraphQLList, GraphQLNonNull, getNamedType, isEnumType, isInputObjectType, isInterfaceType, isListType, isNonNullType, isObjectType,
  isScalarType, isUnionType, type GraphQLField, type GraphQLInputType, type GraphQLObjectType, type GraphQLSchema,
} from 'graphql';
import type { CacheCheck } from '../cache/build.js';
import type { InconsistentObject, SchemaCache, TableInfo } from '../cache/types.js';
import { qualifiedKey, quote as q, quoteName, type QualifiedName } from '../core/names.js';
import { scalarName } from '../graphql/schema/scalars.js';
import { remoteFieldPath, templateVariable, type RemoteRelationshipMeta } from '../../events/remote-relationships.js';
import { introspected } from './introspections.js';

export const remoteRelationshipId = (table: QualifiedName, name: string): string =>
  JSON.stringify(['remote_relationship', table.schema, table.name, name]);

/** A consistent remote relationship, resolved against its remote schema. */
export interface RemoteRelationshipInfo {
  name: string;
  table: QualifiedName;
  remoteSchema: string;
  columns: string[];
  path: Array<{ name: string; arguments: Record<string, unknown> }>;
  /** The leaf field's type as SDL (`[Message]`) and its named type. */
  type: string;
  typeName: string;
  /** The leaf's arguments left to the client, as SDL (`where: MessageWhereInpObj_remote_rel_...`), by name. */
  arguments: Array<[string, string]>;
  /** Cloned input types, as SDL definitions, and the remote types every SDL here names. */
  inputTypes: string[];
  uses: string[];
}

class Invalid extends Error {}
const fail = (message: string): never => {
  throw new Invalid(message);
};

const nesting = (t: GraphQLInputType): number => {
  let n = 0;
  let cur: GraphQLInputType = t;
  for (;;) {
    if (isNonNullType(cur)) cur = cur.ofType;
    else if (isListType(cur)) {
      n += 1;
      cur = cur.ofType as GraphQLInputType;
    } else return n;
  }
};

const ID_JOINABLE = new Set(['ID', 'Int', 'String', 'bigint', 'smallint', 'uuid']);

/** The original's isTypeCoercible: a join value of named type `actual` (a scalar, no list) passed where `expected` goes. */
function coercible(actual: string, expected: GraphQLInputType): void {
  const base = getNamedType(expected).name;
  if (base === 'ID') {
    if (!ID_JOINABLE.has(actual)) fail(`Only ID, Int, uuid or String scalar types can be joined to the ID type, but received ${q(actual)}`);
    return;
  }
  if (actual !== base) fail(`expected type ${q(base)} but got ${q(actual)}`);
}

const unwrapList = (t: GraphQLInputType): GraphQLInputType => {
  const n = isNonNullType(t) ? t.ofType : t;
  return isListType(n) ? (n.ofType as GraphQLInputType) : t;
};

/** The original's validateType: a template value against the argument's type. */
function validateValue(value: unknown, expected: GraphQLInputType, vars: Map<string, string>): void {
  const variable = templateVariable(value);
  if (variable !== null) {
    const t = vars.get(variable);
    if (t === undefined) fail(`variable ${q(variable)} is not found`);
    coercible(t as string, expected);
    return;
  }
  if (value === null) fail('null is not allowed here');
  if (typeof value === 'number') coercible(Number.isInteger(value) ? 'Int' : 'Float', expected);
  else if (typeof value === 'boolean') coercible('Boolean', expected);
  else if (typeof value === 'string') coercible('String', expected);
  else if (Array.isArray(value)) {
    if (value.length > 1) fail('multiple elements in list value is not supported');
    const n = isNonNullType(expected) ? expected.ofType : expected;
    if (!isListType(n)) fail(`type ${q(getNamedType(expected).name)} is not a list type`);
    for (const v of value) validateValue(v, unwrapList(expected), vars);
  } else if (typeof value === 'object') {
    const named = getNamedType(expected);
    if (!isInputObjectType(named)) return fail(`type ${q(named.name)} is not an input object type`);
    const fields = named.getFields();
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const f = Object.hasOwn(fields, k) ? fields[k] : undefined;
      if (!f) fail(`argument with name ${q(k)} not found in remote schema`);
      validateValue(v, f!.type, vars);
    }
  }
}

interface StripContext {
  suffix: string;
  types: Map<string, string>;
  uses: Set<string>;
}

/** SDL of an input type with the original's nullability and list wrappers, and the remote type it names noted. */
function sdlOf(t: GraphQLInputType, cx: StripContext): string {
  cx.uses.add(getNamedType(t).name);
  return String(t);
}

/**
 * The argument's type once the template's value is taken out (the original's stripValue): null when the template
 * fixes it whole; a list of the stripped item; a clone of a partly fixed input object.
 */
function stripValue(t: GraphQLInputType, value: unknown, cx: StripContext): string | null {
  if (value === null || typeof value !== 'object') return null;
  const nonNull = isNonNullType(t);
  const inner = nonNull ? (t as GraphQLNonNull<GraphQLInputType>).ofType : t;
  const wrap = (s: string) => (nonNull ? `${s}!` : s);
  if (Array.isArray(value)) {
    if (value.length === 0) return null;
    if (!isListType(inner)) return fail(`type ${q(getNamedType(t).name)} is invalid for stripping`);
    const item = stripValue((inner as GraphQLList<GraphQLInputType>).ofType, value[0], cx);
    return item === null ? null : wrap(`[${item}]`);
  }
  if (!isInputObjectType(inner)) return fail(`type ${q(getNamedType(t).name)} is invalid for stripping`);
  const name = `${inner.name}${cx.suffix}`;
  const fields = stripFields(Object.values(inner.getFields()).map((f) => [f.name, f.type]), value as Record<string, unknown>, cx);
  // graphql-js refuses an input object without fields: a template that fixes every field leaves nothing to clone.
  if (fields.length === 0) return null;
  cx.types.set(name, `input ${name} { ${fields.map(([n, s]) => `${n}: ${s}`).join(' ')} }`);
  return wrap(name);
}

function stripFields(defs: Array<[string, GraphQLInputType]>, template: Record<string, unknown>, cx: StripContext): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [name, type] of defs) {
    if (!Object.hasOwn(template, name)) out.push([name, sdlOf(type, cx)]);
    else {
      const s = stripValue(type, template[name], cx);
      if (s !== null) out.push([name, s]);
    }
  }
  return out;
}

const isOutputLeafish = (t: GraphQLField<unknown, unknown>['type']): boolean => {
  const n = getNamedType(t);
  return isScalarType(n) || isEnumType(n) || isInterfaceType(n) || isUnionType(n);
};

/** Resolves one relationship against its table and its remote schema; throws Invalid with the original's reason. */
function resolve(table: TableInfo, rel: RemoteRelationshipMeta, remote: GraphQLSchema): RemoteRelationshipInfo {
  const vars = new Map<string, string>();
  for (const f of rel.definition.engine_fields) {
    const c = table.columns.find((x) => x.name === f);
    if (!c) fail(`field with name ${q(f)} not found in table ${quoteName(table.name)}`);
    vars.set(f, scalarName(c!.type, c!.isArray));
  }
  const path = remoteFieldPath(rel.definition.remote_field);
  let obj: GraphQLObjectType | null = remote.getQueryType() ?? null;
  if (!obj) fail('query root not found in remote schema');
  const cx: StripContext = { suffix: `_remote_rel_${table.name.schema}_${table.name.name}${rel.name}`, types: new Map(), uses: new Set() };
  let leaf: GraphQLField<unknown, unknown> | null = null;
  let leafArgs: Array<[string, string]> = [];
  path.forEach((level, i) => {
    if (obj === null) fail(`field with name ${q(level.name)} not found in remote schema`);
    const fields = obj!.getFields();
    const field = Object.hasOwn(fields, level.name) ? fields[level.name] : undefined;
    if (!field) fail(`field with name ${q(level.name)} not found in remote schema`);
    const argDefs = new Map(field!.args.map((a) => [a.name, a.type]));
    for (const [k, v] of Object.entries(level.arguments)) {
      const t = argDefs.get(k);
      if (!t) fail(`argument with name ${q(k)} not found in remote schema`);
      validateValue(v, t!, vars);
    }
    const named = getNamedType(field!.type);
    if (i === path.length - 1) {
      leaf = field!;
      leafArgs = stripFields(field!.args.map((a) => [a.name, a.type]), level.arguments, cx);
    } else if (isObjectType(named)) obj = named;
    else if (isOutputLeafish(field!.type)) obj = null;
    else fail(`type ${q(named.name)} only output type is expected`);
  });
  const f = leaf as unknown as GraphQLField<unknown, unknown>;
  const typeName = getNamedType(f.type).name;
  cx.uses.add(typeName);
  return {
    name: rel.name,
    table: table.name,
    remoteSchema: rel.definition.remote_schema,
    columns: rel.definition.engine_fields,
    path,
    type: String(f.type),
    typeName,
    arguments: leafArgs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    inputTypes: [...cx.types.values()],
    uses: [...cx.uses].filter((n) => !cx.types.has(n)),
  };
}

/** The relationships the check kept for a cache, for the role schemas built on it. */
const resolvedByCache = new WeakMap<SchemaCache, RemoteRelationshipInfo[]>();

export const remoteRelationshipsOf = (cache: SchemaCache): readonly RemoteRelationshipInfo[] => resolvedByCache.get(cache) ?? [];

/** Caches built while no tracked table had a remote relationship. */
const withoutAny = new WeakSet<SchemaCache>();

/**
 * The cache check of remote relationships (wired in by src/features.ts after the remote schemas' own). A delta build
 * whose previous cache had none and whose changed tables have none has none either: checked without reading the
 * other tables (a bulk builds a cache per element; reading 1,000 tables each time was most of its time).
 */
export const remoteRelationshipCheck: CacheCheck = (metadata, cache, introspections, delta) => {
  if (delta && withoutAny.has(delta.previous) && delta.changed.every((k) => !Object.hasOwn(metadata.tables, k) || metadata.tables[k].remote_relationships.length === 0)) {
    withoutAny.add(cache);
    return [];
  }
  let any = false;
  for (const k in metadata.tables) {
    if (metadata.tables[k].remote_relationships.length === 0) continue;
    any = true;
    break;
  }
  if (!any) {
    withoutAny.add(cache);
    return [];
  }
  const out: InconsistentObject[] = [];
  const kept: RemoteRelationshipInfo[] = [];
  const remoteInconsistent = new Set(cache.inconsistent.filter((o) => 'type' in o && o.type === 'remote_schema').map((o) => ('definition' in o ? (o.definition as { name?: string }).name : undefined)));
  for (const t of Object.values(metadata.tables)) {
    const table = cache.tables[qualifiedKey(t.table)];
    for (const rel of t.remote_relationships) {
      // A table that is itself inconsistent says so; its relationships go with it.
      if (!table) continue;
      try {
        const rs = metadata.remote_schemas.find((r) => r.name === rel.definition.remote_schema);
        const r = rs && !remoteInconsistent.has(rs.name) ? introspected(introspections, rs) : null;
        if (!r || !r.ok) fail(`remote schema with name ${q(rel.definition.remote_schema)} not found`);
        kept.push(resolve(table, rel, (r as { ok: true; schema: GraphQLSchema }).schema));
      } catch (e) {
        if (!(e instanceof Invalid)) throw e;
        out.push({
          type: 'remote_relationship',
          definition: { name: rel.name, table: t.table, ...rel.definition },
          reason: `cannot validate remote relationship because ${e.message}`,
          id: remoteRelationshipId(t.table, rel.name),
        });
      }
    }
  }
  resolvedByCache.set(cache, kept);
  return out;
};
