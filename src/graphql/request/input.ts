// Input values: GraphQL literals (query text) and JSON variable values, checked against the role schema's input
// types with the original's messages, into a small tree the translator reads. Variables in leaf positions stay
// variables (so plans are reusable); consumers that need a concrete value call `concrete`, which marks the plan as
// shaped by variable values.
import {
  GraphQLEnumType, GraphQLInputObjectType, GraphQLScalarType, Kind,
  isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType,
  type GraphQLInputType, type ValueNode,
} from 'graphql';
import { EngineError } from '../../core/errors.js';
import { extendPath } from '../../core/json-path.js';
import { parsePgValue } from '../schema/scalars.js';

export type Parsed =
  | { kind: 'null' }
  /** `value` is what Postgres gets (text, or the JSON value for json/jsonb); `json` is the value as written. */
  | { kind: 'scalar'; value: unknown; json: unknown; scalar: string }
  | { kind: 'enum'; value: unknown; name: string }
  | { kind: 'list'; items: Parsed[] }
  | { kind: 'object'; fields: Array<[string, Parsed]> }
  /**
   * A variable in a leaf (scalar/enum or list of them) position; `value` is its value in this request. `path` points
   * inside the variable for a leaf of a variable given in a structural position (Note [Shape-keyed plans]).
   */
  | { kind: 'variable'; name: string; type: GraphQLInputType; value: Parsed; path?: Array<string | number> };

export const ve = (message: string, path: string): EngineError => new EngineError('validation-failed', message, { path });

/** Postgres type behind a GraphQL scalar name: built-ins, `_elem` arrays, else the name itself. */
export function scalarPgType(name: string): { type: string; array: boolean } {
  switch (name) {
    case 'Int': return { type: 'int4', array: false };
    case 'Float': return { type: 'float4', array: false };
    case 'String': case 'ID': return { type: 'text', array: false };
    case 'Boolean': return { type: 'bool', array: false };
    case 'bigint': return { type: 'int8', array: false };
    case 'smallint': return { type: 'int2', array: false };
    default: return name.startsWith('_') ? { type: name.slice(1), array: true } : { type: name, array: false };
  }
}

export const showType = (t: GraphQLInputType): string => String(t);

function scalarValue(t: GraphQLScalarType, json: unknown, path: string, raw?: string): Parsed {
  // Custom scalars of actions (set_custom_types) take any JSON value: it only goes to the handler.
  if (t.extensions.anyJson === true) return { kind: 'scalar', value: json, json, scalar: t.name };
  const pg = scalarPgType(t.name);
  return { kind: 'scalar', value: parsePgValue(pg.type, pg.array, json, path, raw), json, scalar: t.name };
}

function enumValue(t: GraphQLEnumType, name: string, path: string): Parsed {
  const v = t.getValue(name);
  if (!v) throw ve(`unexpected value "${name}" for enum: '${t.name}'`, path);
  return { kind: 'enum', value: v.value, name };
}

/** Checks a JSON value (a variable's value or default) against a type. */
export function coerceJson(type: GraphQLInputType, value: unknown, path: string): Parsed {
  if (isNonNullType(type)) {
    if (value === null || value === undefined) throw ve(`null value found for non-nullable type: ${showType(type)}`, path);
    return coerceJson(type.ofType, value, path);
  }
  if (value === null || value === undefined) return { kind: 'null' };
  // Scalars first, with a plain instanceof (graphql-js's isListType and the like are dear when they answer no).
  if (type instanceof GraphQLScalarType) return scalarValue(type, value, path);
  if (isListType(type)) {
    const items = Array.isArray(value) ? value : [value];
    return { kind: 'list', items: items.map((v, i) => coerceJson(type.ofType, v, Array.isArray(value) ? extendPath(path, i) : path)) };
  }
  if (isInputObjectType(type)) {
    if (typeof value !== 'object' || Array.isArray(value)) throw ve('expecting a JSON object', path);
    return coerceObject(type, Object.entries(value as Record<string, unknown>), path, (ft, v, p) => coerceJson(ft, v, p));
  }
  if (isEnumType(type)) {
    if (typeof value !== 'string') throw ve('expecting a JSON string for Enum', path);
    return enumValue(type, value, path);
  }
  return scalarValue(type as GraphQLScalarType, value, path);
}

function coerceObject<V>(
  type: GraphQLInputObjectType, entries: Array<[string, V]>, path: string,
  each: (t: GraphQLInputType, v: V, p: string) => Parsed,
): Parsed {
  const defs = type.getFields();
  const seen = new Set<string>();
  const dups = entries.map(([k]) => k).filter((k) => (seen.has(k) ? true : (seen.add(k), false)));
  if (dups.length > 0) {
    throw ve(`when parsing a value of type: '${type.name}', the following fields are duplicated: ${dups.join(', ')}`, path);
  }
  const fields: Array<[string, Parsed]> = [];
  for (const [k, v] of entries) {
    const p = extendPath(path, k);
    const def = defs[k];
    if (!def) throw ve(`field "${k}" not found in type: '${type.name}'`, type.extensions.functionArgs === true ? path : p);
    fields.push([k, each(def.type, v, p)]);
  }
  for (const def of Object.values(defs)) {
    if (isNonNullType(def.type) && def.defaultValue === undefined && !seen.has(def.name)) {
      throw ve(`field ${def.name} of type ${showType(def.type)} is required, but not found`, path);
    }
  }
  return { kind: 'object', fields };
}

export interface VariableInfo {
  type: GraphQLInputType;
  /** The coerced value for this request (default applied); null when absent. */
  value: Parsed;
}

export interface LiteralContext {
  variables: Map<string, VariableInfo>;
  /** Set when a variable's value shaped the result (see Note [Reusable plans] in src/ir/types.ts). */
  markShaped(): void;
  /** Set when any variable is referenced (leaf use). */
  used: Set<string>;
  /**
   * Called for a variable in a structural position (Note [Shape-keyed plans]); its leaves then stay variables (with
   * paths). Without it, such a variable's value is inlined and the plan marked as shaped.
   */
  markStructural?(name: string): void;
}

const unwrapNonNull = (t: GraphQLInputType): GraphQLInputType => (isNonNullType(t) ? t.ofType : t);

function isLeafPosition(t: GraphQLInputType): boolean {
  let u = unwrapNonNull(t);
  if (isListType(u)) u = unwrapNonNull(u.ofType);
  return isScalarType(u) || isEnumType(u);
}

/**
 * Whether a variable of type `varType` may be used where `locType` is expected: the same shape and names, and a
 * non-null position needs a non-null variable (as the original: no list coercion of a variable).
 */
function compatible(varType: GraphQLInputType, locType: GraphQLInputType): boolean {
  const vNonNull = isNonNullType(varType);
  const lNonNull = isNonNullType(locType);
  if (lNonNull && !vNonNull) return false;
  const v = unwrapNonNull(varType);
  const l = unwrapNonNull(locType);
  if (isListType(v) || isListType(l)) return isListType(v) && isListType(l) && compatible(v.ofType, l.ofType);
  return (v as { name: string }).name === (l as { name: string }).name;
}

/** Checks a literal from the query text against a type. */
export function coerceLiteral(type: GraphQLInputType, node: ValueNode, path: string, lc: LiteralContext): Parsed {
  if (node.kind === Kind.VARIABLE) {
    const name = node.name.value;
    const v = lc.variables.get(name);
    if (!v) throw ve(`no such variable defined in the operation: "${name}"`, path);
    if (!compatible(v.type, type)) {
      throw ve(`variable ${name} of type ${showType(v.type)} is used in position expecting ${showType(type)}`, path);
    }
    lc.used.add(name);
    if (isLeafPosition(type)) return { kind: 'variable', name, type: v.type, value: v.value };
    if (lc.markStructural) {
      lc.markStructural(name);
      return variableShape(v.type, v.value, name, [], []);
    }
    lc.markShaped();
    return v.value;
  }
  if (isNonNullType(type)) {
    if (node.kind === Kind.NULL) throw ve(`null value found for non-nullable type: ${showType(type)}`, path);
    return coerceLiteral(type.ofType, node, path, lc);
  }
  if (node.kind === Kind.NULL) return { kind: 'null' };
  if (isListType(type)) {
    if (node.kind === Kind.LIST) {
      return { kind: 'list', items: node.values.map((v, i) => coerceLiteral(type.ofType, v, extendPath(path, i), lc)) };
    }
    return { kind: 'list', items: [coerceLiteral(type.ofType, node, path, lc)] };
  }
  if (isInputObjectType(type)) {
    if (node.kind !== Kind.OBJECT) throw ve('expecting an object', path);
    return coerceObject(type, node.fields.map((f) => [f.name.value, f.value] as [string, ValueNode]), path, (ft, v, p) => coerceLiteral(ft, v, p, lc));
  }
  if (isEnumType(type)) {
    if (node.kind !== Kind.ENUM) throw ve('expecting an enum', path);
    return enumValue(type, node.value, path);
  }
  const st = type as GraphQLScalarType;
  switch (node.kind) {
    case Kind.ENUM: throw ve('unexpected enum for a scalar', path);
    // object and list literals are JSON values for json/jsonb/geometry... scalars
    case Kind.OBJECT: case Kind.LIST: return scalarValue(st, literalJson(node, path), path);
    case Kind.INT: case Kind.FLOAT: return scalarValue(st, Number(node.value), path, node.value);
    case Kind.STRING: return scalarValue(st, node.value, path);
    case Kind.BOOLEAN: return scalarValue(st, node.value, path);
    default: throw ve('unexpected value', path);
  }
}

/** A literal object or list given for a scalar (json, jsonb, geometry...) as plain JSON. */
function literalJson(node: ValueNode, path: string): unknown {
  switch (node.kind) {
    case Kind.OBJECT: return Object.fromEntries(node.fields.map((f) => [f.name.value, literalJson(f.value, extendPath(path, f.name.value))]));
    case Kind.LIST: return node.values.map((v, i) => literalJson(v, extendPath(path, i)));
    case Kind.INT: case Kind.FLOAT: return Number(node.value);
    case Kind.STRING: case Kind.ENUM: return node.value;
    case Kind.BOOLEAN: return node.value;
    case Kind.NULL: return null;
    case Kind.VARIABLE:
      throw ve('variables are not allowed in scalars', path);
  }
}

/*
 * Note [Shape-keyed plans]
 * A variable given where an input object or a list of them is expected (`objects: $objects`, `where: $w`) shapes
 * the statement: its keys, list lengths and nulls decide the SQL. Such a plan is cached per the variable's SHAPE:
 * the token list `variableShape` writes (object keys in order, list brackets, `n` for null, `s` for a scalar that
 * stays a `$n` parameter, and the value itself for what is inlined: enums, Booleans, and numbers in exponent
 * notation, which the translator rewrites). Its leaves become variables with a path into the (coerced) variable, so
 * requests of the same shape share one prepared statement. The tokens and the tree come from the same walk, so a
 * value that is inlined is always part of the key. A leaf read through `concrete` still marks the plan as shaped.
 */

const EXPONENT = /^[+-]?[\d.]+[eE][+-]?\d+$/;

/**
 * The parse tree of a structural variable with its parameter leaves as variables; appends its shape to `out`.
 * With `path` null only the shape is written (a cache lookup) and `p` is returned as it is.
 */
export function variableShape(type: GraphQLInputType, p: Parsed, name: string, path: Array<string | number> | null, out: string[]): Parsed {
  if (p.kind === 'null') {
    out.push('n');
    return p;
  }
  const t = unwrapNonNull(type);
  if (isLeafPosition(t)) {
    const base = isListType(t) ? unwrapNonNull(t.ofType) : t;
    const value = p.kind === 'scalar' ? p.value : null;
    if (isEnumType(base) || (base as GraphQLScalarType).name === 'Boolean' || (typeof value === 'string' && EXPONENT.test(value))) {
      out.push(`=${JSON.stringify(toJson(p))}`);
      return p;
    }
    out.push('s');
    return path ? { kind: 'variable', name, type: t, value: p, path } : p;
  }
  if (p.kind === 'list' && isListType(t)) {
    out.push('[');
    const items = p.items.map((x, i) => variableShape(t.ofType, x, name, path && [...path, i], out));
    out.push(']');
    return path ? { kind: 'list', items } : p;
  }
  if (p.kind === 'object' && isInputObjectType(t)) {
    const defs = t.getFields();
    out.push('{');
    const fields = p.fields.map(([k, v]): [string, Parsed] => {
      out.push(`.${k}`);
      const def = defs[k];
      return [k, def ? variableShape(def.type, v, name, path && [...path, k], out) : v];
    });
    out.push('}');
    return path ? { kind: 'object', fields } : p;
  }
  // Not expected from coercion; inline it, with its value in the key.
  out.push(`=${JSON.stringify(toJson(p))}`);
  return p;
}

/** The concrete value behind a parse result: a variable's value is used (and the plan marked as shaped by it). */
export function concrete(p: Parsed, lc: LiteralContext): Exclude<Parsed, { kind: 'variable' }> {
  if (p.kind === 'variable') {
    lc.markShaped();
    return concrete(p.value, lc);
  }
  return p;
}

/** Plain JSON of a parse result (variables resolved), e.g. to pass on. */
export function toJson(p: Parsed): unknown {
  switch (p.kind) {
    case 'null': return null;
    case 'scalar': return p.value;
    case 'enum': return p.value;
    case 'list': return p.items.map(toJson);
    case 'object': return Object.fromEntries(p.fields.map(([k, v]) => [k, toJson(v)]));
    case 'variable': return toJson(p.value);
  }
}

