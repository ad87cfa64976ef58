// The GraphQL text sent to a remote for remote joins, printed as the original prints it (one line, every field
// aliased, a space after each: `query  { a__0: message(id: 1) { msg: msg  } }`; error locations a remote reports
// point into this text). Values are printed from JSON with enum values kept apart; the client's arguments (and
// variables) are merged into the template's with the row's join values substituted for its "$column"s.
import { Kind, parse, type ArgumentNode, type FieldNode, type SelectionNode, type SelectionSetNode, type ValueNode } from 'graphql';
import { templateVariable } from '../../events/remote-relationships.js';
import { RawNumber } from './json-lossless.js';

/** An enum value of a client's argument (printed bare, unlike a string). */
export class EnumValue {
  constructor(readonly name: string) {}
}

/** A GraphQL input value: JSON plus enum values. */
export type GValue = null | boolean | number | string | EnumValue | RawNumber | GValue[] | { [k: string]: GValue };

const isPlainObject = (v: unknown): v is Record<string, GValue> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof EnumValue) && !(v instanceof RawNumber);

/** A literal with the request's variables substituted (an absent variable leaves its field out). */
export function valueOf(node: ValueNode, variables: Record<string, unknown>): GValue | undefined {
  switch (node.kind) {
    case Kind.VARIABLE: {
      const v = variables[node.name.value];
      return v === undefined ? undefined : (v as GValue);
    }
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.STRING:
      return node.value;
    case Kind.BOOLEAN:
      return node.value;
    case Kind.NULL:
      return null;
    case Kind.ENUM:
      return new EnumValue(node.value);
    case Kind.LIST:
      return node.values.map((v) => valueOf(v, variables)).filter((v): v is GValue => v !== undefined);
    case Kind.OBJECT: {
      const out: Record<string, GValue> = {};
      for (const f of node.fields) {
        const v = valueOf(f.value, variables);
        if (v !== undefined) out[f.name.value] = v;
      }
      return out;
    }
  }
}

/** A template with the row's values for its "$column"s. */
export function substitute(template: unknown, row: Record<string, unknown>): GValue {
  const column = templateVariable(template);
  if (column !== null) return (row[column] ?? null) as GValue;
  if (Array.isArray(template)) return template.map((v) => substitute(v, row));
  if (template !== null && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, substitute(v, row)]));
  }
  return template as GValue;
}

/** The client's value merged into the template's: objects field by field, lists concatenated, else the template's. */
export function merge(template: GValue, client: GValue): GValue {
  if (isPlainObject(template) && isPlainObject(client)) {
    const out: Record<string, GValue> = { ...template };
    for (const [k, v] of Object.entries(client)) out[k] = Object.hasOwn(template, k) ? merge(template[k], v) : v;
    return out;
  }
  if (Array.isArray(template) && Array.isArray(client)) return [...template, ...client];
  return template;
}

export function printValue(v: GValue): string {
  if (v === null) return 'null';
  if (v instanceof RawNumber) return v.value;
  if (v instanceof EnumValue) return v.name;
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(printValue).join(',')}]`;
  return `{${Object.entries(v).map(([k, x]) => `${k}:${printValue(x)}`).join(',')}}`;
}

export function printArguments(args: Record<string, GValue>): string {
  const list = Object.entries(args);
  return list.length ? `(${list.map(([k, v]) => `${k}: ${printValue(v)}`).join(', ')})` : '';
}

function printArgumentNodes(args: readonly ArgumentNode[] | undefined, variables: Record<string, unknown>): string {
  const out: Record<string, GValue> = {};
  for (const a of args ?? []) {
    const v = valueOf(a.value, variables);
    if (v !== undefined) out[a.name.value] = v;
  }
  return printArguments(out);
}

function printDirectives(node: FieldNode | SelectionNode, variables: Record<string, unknown>): string {
  return (node.directives ?? []).map((d) => ` @${d.name.value}${printArgumentNodes(d.arguments, variables)}`).join('');
}

function printSelection(s: SelectionNode, variables: Record<string, unknown>): string {
  switch (s.kind) {
    case Kind.FIELD: {
      const alias = s.alias?.value ?? s.name.value;
      const sub = s.selectionSet ? ` ${printSelectionSet(s.selectionSet, variables)}` : '';
      return `${alias}: ${s.name.value}${printArgumentNodes(s.arguments, variables)}${printDirectives(s, variables)}${sub}`;
    }
    case Kind.INLINE_FRAGMENT:
      return `...${s.typeCondition ? ` on ${s.typeCondition.name.value}` : ''}${printDirectives(s, variables)} ${printSelectionSet(s.selectionSet, variables)}`;
    case Kind.FRAGMENT_SPREAD:
      // Inlined when the request was translated (src/remote/relationship-schema.ts).
      return '';
  }
}

export function printSelectionSet(set: SelectionSetNode, variables: Record<string, unknown>): string {
  return `{ ${set.selections.map((s) => `${printSelection(s, variables)}  `).join('')}}`;
}

/** The client's arguments and selection set of a join, parsed once per request. */
export interface ClientPart {
  arguments: Record<string, GValue>;
  /** The printed selection set (with a leading space), or empty. */
  selection: string;
}

export function clientPart(clientArguments: string, selectionSet: string, variables: Record<string, unknown>): ClientPart {
  const doc = parse(`{ f${clientArguments} ${selectionSet} }`);
  const field = (doc.definitions[0] as { selectionSet: SelectionSetNode }).selectionSet.selections[0] as FieldNode;
  const args: Record<string, GValue> = {};
  for (const a of field.arguments ?? []) {
    const v = valueOf(a.value, variables);
    if (v !== undefined) args[a.name.value] = v;
  }
  return { arguments: args, selection: field.selectionSet ? ` ${printSelectionSet(field.selectionSet, variables)}` : '' };
}

/** Printed arguments for a row: the template's text with its "$column"s left as holes, filled per row. */
function argumentPrinter(template: Record<string, unknown>): (row: Record<string, unknown>) => string {
  const marked = substitute(template, new Proxy({}, { get: (_t, column) => new EnumValue(`\u0000${String(column)}\u0000`) }));
  const pieces = printArguments(marked as Record<string, GValue>).split('\u0000');
  if (pieces.length === 1) return () => pieces[0];
  return (row) => {
    let out = pieces[0];
    for (let i = 1; i < pieces.length; i += 2) out += printValue((row[pieces[i]] ?? null) as GValue) + pieces[i + 1];
    return out;
  };
}

/**
 * The aliased top-level field of the query for one distinct set of join values: the template's levels, outermost
 * first, the client's arguments merged into the leaf's, the client's selection set under the leaf. Compiled once per
 * join: each level's arguments are printed once with holes for the join values (when the client adds none to it).
 */
export function joinFieldPrinter(
  path: ReadonlyArray<{ name: string; arguments: Record<string, unknown> }>, client: ClientPart,
): (alias: string, row: Record<string, unknown>) => string {
  const last = path.length - 1;
  const printers = path.map((level, i) => {
    if (i === last && Object.keys(client.arguments).length) {
      return (row: Record<string, unknown>) => printArguments(merge(substitute(level.arguments, row), client.arguments) as Record<string, GValue>);
    }
    return argumentPrinter(level.arguments);
  });
  return (alias, row) => {
    let inner = '';
    for (let i = last; i >= 0; i -= 1) {
      const sub = i === last ? client.selection : ` { ${inner}  }`;
      inner = `${i === 0 ? alias : path[i].name}: ${path[i].name}${printers[i](row)}${sub}`;
    }
    return inner;
  };
}

/** The whole query: `query  { <field> <field> }`. */
export const joinQuery = (fields: readonly string[]): string => `query  { ${fields.map((f) => `${f} `).join('')}}`;
