// Collecting the fields of a selection set: fragment spreads (with cycle detection), inline fragments, @include /
// @skip, aliases, and fields merged under one response key. Paths follow the original:
// `$.selectionSet.<field>.selectionSet.<fragment>.selectionSet.<field>`.
import {
  GraphQLBoolean, GraphQLNonNull, Kind, SchemaMetaFieldDef, TypeMetaFieldDef, isLeafType, getNamedType,
  type DirectiveNode, type FieldNode, type FragmentDefinitionNode, type GraphQLField, type GraphQLObjectType, type SelectionSetNode,
} from 'graphql';
import { extendPath } from '../../core/json-path.js';
import { coerceLiteral, concrete, ve, type LiteralContext, type Parsed } from './input.js';

export interface SubSelection {
  selectionSet: SelectionSetNode;
  /** Path of this selection set (ends in `.selectionSet`). */
  path: string;
  fragStack: string[];
}

export interface CollectedField {
  alias: string;
  name: string;
  node: FieldNode;
  /** Nodes merged under this response key (the first one is `node`). */
  nodes: FieldNode[];
  path: string;
  /** null for __typename. */
  def: GraphQLField<unknown, unknown> | null;
  subSelections: SubSelection[];
}

export interface CollectContext {
  fragments: Map<string, FragmentDefinitionNode>;
  lc: LiteralContext;
}

const META_FIELDS = new Map<string, GraphQLField<unknown, unknown>>([['__schema', SchemaMetaFieldDef], ['__type', TypeMetaFieldDef]]);

const IF_TYPE = new GraphQLNonNull(GraphQLBoolean);

function included(node: { directives?: readonly DirectiveNode[] }, path: string, cc: CollectContext): boolean {
  for (const d of node.directives ?? []) {
    const name = d.name.value;
    if (name !== 'include' && name !== 'skip') throw ve(`directive "${name}" is not defined in the schema`, path);
    const arg = d.arguments?.find((a) => a.name.value === 'if');
    if (!arg) throw ve(`the required argument "if" is missing on directive "${name}"`, path);
    const v = concrete(coerceLiteral(IF_TYPE, arg.value, extendPath(path, 'directives', name, 'args', 'if'), cc.lc), cc.lc);
    const b = v.kind === 'scalar' && (v.json === true || v.value === 'true');
    if (name === 'include' && !b) return false;
    if (name === 'skip' && b) return false;
  }
  return true;
}

/** Fields of `type` selected by the given selection sets, in response order, merged by response key. */
export function collectFields(type: GraphQLObjectType, subs: SubSelection[], cc: CollectContext): CollectedField[] {
  const out = new Map<string, CollectedField>();
  const fields = type.getFields();
  const visit = (sel: SelectionSetNode, path: string, fragStack: string[]): void => {
    for (const s of sel.selections) {
      if (s.kind === Kind.FIELD) {
        const name = s.name.value;
        const alias = s.alias?.value ?? name;
        const fpath = extendPath(path, name);
        if (!included(s, fpath, cc)) continue;
        const def = name === '__typename' ? null
          : (fields[name] ?? (type.name === 'query_root' ? META_FIELDS.get(name) : undefined));
        if (def === undefined) throw ve(`field "${name}" not found in type: '${type.name}'`, fpath);
        const sub: SubSelection[] = s.selectionSet ? [{ selectionSet: s.selectionSet, path: extendPath(fpath, 'selectionSet'), fragStack }] : [];
        const prev = out.get(alias);
        if (prev) {
          if (prev.name !== name) {
            throw ve(`cannot merge different fields under the same alias "${alias}": "${prev.name}" and "${name}"`, fpath);
          }
          prev.nodes.push(s);
          prev.subSelections.push(...sub);
          continue;
        }
        out.set(alias, { alias, name, node: s, nodes: [s], path: fpath, def, subSelections: sub });
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        if (!included(s, path, cc)) continue;
        const on = s.typeCondition?.name.value;
        if (on && on !== type.name) throw ve(`inline fragment is expected on type '${type.name}' but found '${on}'`, path);
        visit(s.selectionSet, path, fragStack);
      } else {
        const fname = s.name.value;
        if (!included(s, path, cc)) continue;
        if (fragStack.includes(fname)) {
          throw ve(`cannot spread fragment "${fname}" within itself via ${[...fragStack].reverse().join(',')}`, path);
        }
        const frag = cc.fragments.get(fname);
        if (!frag) throw ve(`reference to undefined fragment "${fname}"`, path);
        const on = frag.typeCondition.name.value;
        if (on !== type.name) throw ve(`fragment "${fname}" is defined on '${on}' but is spread on type '${type.name}'`, path);
        visit(frag.selectionSet, extendPath(path, fname, 'selectionSet'), [...fragStack, fname]);
      }
    }
  };
  for (const sub of subs) visit(sub.selectionSet, sub.path, sub.fragStack);
  for (const f of out.values()) {
    const leaf = f.def === null || isLeafType(getNamedType(f.def.type));
    if (leaf && f.subSelections.length > 0) throw ve(`unexpected selection set for non-object field "${f.name}"`, f.path);
    if (!leaf && f.subSelections.length === 0) throw ve(`missing selection set for field "${f.name}" of type '${String(getNamedType(f.def!.type))}'`, f.path);
  }
  return [...out.values()];
}

/** Checks and parses a field's arguments (path `<field>.args.<name>`), in definition order of the query. */
export function fieldArgs(f: CollectedField, cc: CollectContext): Map<string, Parsed> {
  const out = new Map<string, Parsed>();
  if (!f.def) {
    if ((f.node.arguments ?? []).length > 0) throw ve(`"__typename" has no arguments`, f.path);
    return out;
  }
  const defs = new Map(f.def.args.map((a) => [a.name, a]));
  for (const a of f.node.arguments ?? []) {
    const name = a.name.value;
    const p = extendPath(f.path, 'args', name);
    const def = defs.get(name);
    if (!def) throw ve(`no such argument "${name}" is expected for field "${f.name}"`, p);
    if (out.has(name)) throw ve(`the argument "${name}" is given more than once`, p);
    out.set(name, coerceLiteral(def.type, a.value, p, cc.lc));
  }
  for (const def of f.def.args) {
    if (def.type instanceof GraphQLNonNull && def.defaultValue === undefined && !out.has(def.name)) {
      throw ve(`the required argument "${def.name}" is missing on field "${f.name}"`, f.path);
    }
  }
  return out;
}
