// Choosing the operation of a document (operationName rules) and checking its variables against the role schema.
import { Kind, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, type TypeNode, type GraphQLInputType, isInputType, GraphQLList, GraphQLNonNull, GraphQLScalarType } from 'graphql';
import { extendPath } from '../../core/json-path.js';
import { coerceJson, coerceLiteral, scalarPgType, showType, toJson, ve, type LiteralContext, type Parsed, type VariableInfo } from './input.js';
import { parsePgValue } from '../schema/scalars.js';
import type { SchemaTypes } from '../schema-types.js';

/** A `{ ... }` query without the `query` keyword (the original treats it apart in the operationName rules). */
const isShorthand = (op: OperationDefinitionNode): boolean =>
  !!op.loc && op.loc.source.body.charAt(op.loc.start) === '{';

export function pickOperation(doc: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode {
  const all = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const shorthand = all.filter(isShorthand);
  const typed = all.filter((o) => !isShorthand(o));
  if (operationName !== null && operationName !== undefined) {
    if (shorthand.length > 0) throw ve('operationName cannot be used when an anonymous operation exists in the document', '$');
    const op = typed.find((o) => o.name?.value === operationName);
    if (!op) throw ve(`no such operation found in the document: "${operationName}"`, '$');
    return op;
  }
  if (shorthand.length === 1 && typed.length === 0) return shorthand[0];
  if (shorthand.length === 0 && typed.length === 1) return typed[0];
  throw ve('exactly one operation has to be present in the document when operationName is not specified', '$');
}

/** Fragment definitions by name (duplicates and directives on definitions are errors, as in the original). */
export function fragmentsOf(doc: DocumentNode): Map<string, FragmentDefinitionNode> {
  const out = new Map<string, FragmentDefinitionNode>();
  const dups: string[] = [];
  for (const d of doc.definitions) {
    if (d.kind !== Kind.FRAGMENT_DEFINITION) continue;
    if (out.has(d.name.value)) dups.push(d.name.value);
    out.set(d.name.value, d);
  }
  if (dups.length > 0) throw ve(`the following fragments are defined more than once: ${dups.join(', ')}`, '$');
  for (const d of out.values()) {
    if ((d.directives ?? []).length > 0) throw ve('unexpected directives at fragment definition', '$');
  }
  return out;
}

function resolveType(schema: SchemaTypes, node: TypeNode, path: string): GraphQLInputType {
  switch (node.kind) {
    case Kind.NON_NULL_TYPE: return new GraphQLNonNull(resolveType(schema, node.type, path) as never);
    case Kind.LIST_TYPE: return new GraphQLList(resolveType(schema, node.type, path));
    default: {
      const t = schema.getType(node.name.value);
      if (!t) throw ve(`no such type exists in the schema: '${node.name.value}'`, path);
      if (!isInputType(t)) throw ve(`variables can only be defined on input types(enums, scalars, input objects), but '${t.name}' is an object type`, path);
      return t;
    }
  }
}

export interface VariableDef {
  name: string;
  type: GraphQLInputType;
  /** The checked default (null when the variable is nullable and has none); undefined when required. */
  defaultValue: Parsed | undefined;
  /** Its value's path in error messages (`$.variableValues.name`), made once per plan rather than per request. */
  path?: string;
}

/** The operation's variable definitions, checked once per plan (types and defaults). */
export function variableDefinitions(schema: SchemaTypes, op: OperationDefinitionNode): VariableDef[] {
  const path = '$.variableValues';
  const defs: VariableDef[] = [];
  const seen = new Set<string>();
  const dups: string[] = [];
  for (const vd of op.variableDefinitions ?? []) {
    const name = vd.variable.name.value;
    if (seen.has(name)) dups.push(name);
    seen.add(name);
  }
  if (dups.length > 0) throw ve(`the following variables are defined more than once: ${dups.join(', ')}`, path);
  const noVars: LiteralContext = { variables: new Map(), markShaped: () => {}, used: new Set() };
  for (const vd of op.variableDefinitions ?? []) {
    const name = vd.variable.name.value;
    const type = resolveType(schema, vd.type, path);
    let defaultValue: Parsed | undefined;
    if (vd.defaultValue) defaultValue = coerceLiteral(type, vd.defaultValue, extendPath(path, 'defaultValue'), noVars);
    else if (!(type instanceof GraphQLNonNull)) defaultValue = { kind: 'null' };
    defs.push({ name, type, defaultValue, path: extendPath(path, name) });
  }
  return defs;
}

function isDefined(defs: VariableDef[], name: string): boolean {
  for (let i = 0; i < defs.length; i++) if (defs[i].name === name) return true;
  return false;
}

/** Values for variables the operation does not define are refused, all of them named. */
function checkNoUnexpected(defs: VariableDef[], vals: Record<string, unknown>, path: string): void {
  // Object.keys: own enumerable keys, as the message lists them (a plain loop: no arrays or closures per request).
  const keys = Object.keys(vals);
  for (let i = 0; i < keys.length; i++) {
    if (!isDefined(defs, keys[i])) {
      const unexpected = keys.filter((k) => !isDefined(defs, k));
      throw ve(`unexpected variables in variableValues: ${unexpected.join(', ')}`, path);
    }
  }
}

/**
 * What checkVariables and then `toJson` of each value give, for an operation whose variables all have scalar types
 * (possibly non-null): the same checks, errors and values, without the Map of Parsed trees in between (they are
 * the hot path of every request with variables). Null when a variable has another type (lists, input objects,
 * enums, an action's custom scalars): those take checkVariables.
 */
export function scalarVariablesCoercer(defs: VariableDef[]): ((values: Record<string, unknown> | null | undefined) => Record<string, unknown>) | null {
  const path = '$.variableValues';
  // Per variable: its path, Postgres type, and the value it takes when absent (undefined: required).
  const steps: Array<{ def: VariableDef; path: string; pg: { type: string; array: boolean }; missing: unknown }> = [];
  for (const def of defs) {
    const inner = def.type instanceof GraphQLNonNull ? (def.type.ofType as GraphQLInputType) : def.type;
    if (!(inner instanceof GraphQLScalarType) || inner.extensions.anyJson === true) return null;
    steps.push({ def, path: def.path ?? extendPath(path, def.name), pg: scalarPgType(inner.name), missing: def.defaultValue === undefined ? undefined : toJson(def.defaultValue) });
  }
  return (values) => {
    const vals = values ?? {};
    checkNoUnexpected(defs, vals, path);
    const out: Record<string, unknown> = {};
    for (const { def, path: at, pg, missing } of steps) {
      const { name, type } = def;
      if (!Object.prototype.hasOwnProperty.call(vals, name)) {
        if (missing === undefined) throw ve(`expecting a value for non-nullable variable: ${name} of type: ${String(type)} in variableValues`, path);
        out[name] = missing;
        continue;
      }
      const v = vals[name];
      if (v === null || v === undefined) {
        if (type instanceof GraphQLNonNull) throw ve(`null value found for non-nullable type: ${showType(type)}`, at);
        out[name] = null;
      } else out[name] = parsePgValue(pg.type, pg.array, v, at);
    }
    return out;
  };
}

/** Checks a request's variable values: unexpected keys, missing required ones, types. */
export function checkVariables(defs: VariableDef[], values: Record<string, unknown> | null | undefined): Map<string, VariableInfo> {
  const path = '$.variableValues';
  const vals = values ?? {};
  checkNoUnexpected(defs, vals, path);
  const out = new Map<string, VariableInfo>();
  for (const d of defs) {
    let value: Parsed | undefined;
    if (Object.prototype.hasOwnProperty.call(vals, d.name)) value = coerceJson(d.type, vals[d.name], d.path ?? extendPath(path, d.name));
    else value = d.defaultValue;
    if (!value) {
      throw ve(`expecting a value for non-nullable variable: ${d.name} of type: ${String(d.type)} in variableValues`, path);
    }
    out.set(d.name, { type: d.type, value });
  }
  return out;
}
