// Collecting the fields of a selection set: fragment spreads (with cycle detection), inline fragments, @include /
// @skip, aliases, and fields merged under one response key. Paths follow the original:
// `$.selectionSet.<field>.selectionSet.<fragment>.selectionSet.<field>`.
import {
  GraphQLBoolean, GraphQLNonNull, Kind, SchemaMetaFieldDef, TypeMetaFieldDef, isLeafType, isObjectType, getNamedType, print,
  type ArgumentNode, type DirectiveNode, type FieldNode, type FragmentDefinitionNode, type GraphQLField, type GraphQLInputType,
  type GraphQLObjectType, type SelectionSetNode,
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

/** @include / @skip of a selection (path: `<selection>.directives.<name>.args.if`). */
function included(node: { directives?: readonly DirectiveNode[] }, path: string, cc: CollectContext): boolean {
  const dirs = node.directives ?? [];
  if (dirs.length === 0) return true;
  const dpath = extendPath(path, 'directives');
  const seen = new Set<string>();
  const dups = dirs.map((d) => d.name.value).filter((n) => (seen.has(n) ? true : (seen.add(n), false)));
  if (dups.length > 0) throw ve(`the following directives are used more than once: ${dups.join(', ')}`, dpath);
  let keep = true;
  for (const d of dirs) {
    const name = d.name.value;
    const p = extendPath(dpath, name);
    if (name !== 'include' && name !== 'skip') throw ve(`unexpected directive: "${name}"`, p);
    const args = parseArgs([{ name: 'if', type: IF_TYPE }], d.arguments ?? [], extendPath(p, 'args'), cc);
    const v = concrete(args.get('if') as Parsed, cc.lc);
    const b = v.kind === 'scalar' && (v.json === true || v.value === 'true');
    if ((name === 'include' && !b) || (name === 'skip' && b)) keep = false;
  }
  return keep;
}

const sameArgs = (a: FieldNode, b: FieldNode): boolean =>
  JSON.stringify((a.arguments ?? []).map((x) => [x.name.value, print(x.value)])) ===
  JSON.stringify((b.arguments ?? []).map((x) => [x.name.value, print(x.value)]));

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
        const def = name === '__typename' ? null
          : (fields[name] ?? (type.name === 'query_root' ? META_FIELDS.get(name) : undefined));
        if (def === undefined) throw ve(`field "${name}" not found in type: '${type.name}'`, fpath);
        checkSelection(name, def, s, fpath);
        const sub: SubSelection[] = s.selectionSet ? [{ selectionSet: s.selectionSet, path: extendPath(fpath, 'selectionSet'), fragStack }] : [];
        if (!included(s, fpath, cc)) {
          validateSkipped(def, s, fpath, sub, cc);
          continue;
        }
        const prev = out.get(alias);
        if (prev) {
          if (prev.name !== name) throw ve(`cannot merge different fields under the same alias ("${alias}"): ${prev.name}, ${name}`, path);
          if (!sameArgs(prev.node, s)) throw ve(`cannot merge fields with different arguments under the same alias: "${alias}"`, path);
          prev.nodes.push(s);
          prev.subSelections.push(...sub);
          continue;
        }
        out.set(alias, { alias, name, node: s, nodes: [s], path: fpath, def, subSelections: sub });
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        const ipath = extendPath(path, 'inlineFragment');
        const on = s.typeCondition?.name.value ?? type.name;
        if (on !== type.name) throw ve(`cannot spread fragment  defined on '${on}' when selecting fields of type '${type.name}'`, ipath);
        if (!included(s, ipath, cc)) continue;
        visit(s.selectionSet, extendPath(ipath, 'selectionSet'), fragStack);
      } else {
        const fname = s.name.value;
        if (fragStack.includes(fname)) {
          throw ve(`cannot spread fragment "${fname}" within itself via ${[...fragStack].reverse().join(',')}`, path);
        }
        const frag = cc.fragments.get(fname);
        if (!frag) throw ve(`fragment '${fname}' not found`, path);
        const fpath = extendPath(path, fname);
        const on = frag.typeCondition.name.value;
        if (on !== type.name) throw ve(`cannot spread fragment  defined on '${on}' when selecting fields of type '${type.name}'`, fpath);
        if (!included(s, fpath, cc)) continue;
        visit(frag.selectionSet, extendPath(fpath, 'selectionSet'), [...fragStack, fname]);
      }
    }
  };
  for (const sub of subs) visit(sub.selectionSet, sub.path, sub.fragStack);
  return [...out.values()];
}

/** A skipped field is still checked, arguments and sub-selections, as the original does. */
function validateSkipped(
  def: GraphQLField<unknown, unknown> | null, node: FieldNode, path: string, sub: SubSelection[], cc: CollectContext,
): void {
  parseArgs(def?.args ?? [], node.arguments ?? [], extendPath(path, 'args'), cc);
  const named = def ? getNamedType(def.type) : null;
  if (!named || !isObjectType(named)) return;
  for (const f of collectFields(named, sub, cc)) validateSkipped(f.def, f.node, f.path, f.subSelections, cc);
}

/** Object fields need a sub-selection, leaf fields must not have one. */
function checkSelection(name: string, def: GraphQLField<unknown, unknown> | null, node: FieldNode, path: string): void {
  const leaf = def === null || isLeafType(getNamedType(def.type));
  const typeText = def === null ? 'String!' : String(def.type);
  if (leaf && node.selectionSet) throw ve(`field "${name}" must not have a selection since type ${typeText} has no subfields`, path);
  if (!leaf && !node.selectionSet) throw ve(`field "${name}" of type ${typeText} must have a selection of subfields`, path);
}

interface ArgDef {
  name: string;
  type: GraphQLInputType;
  defaultValue?: unknown;
}

function parseArgs(defs: readonly ArgDef[], nodes: readonly ArgumentNode[], path: string, cc: CollectContext): Map<string, Parsed> {
  const seen = new Set<string>();
  const dups = nodes.map((a) => a.name.value).filter((n) => (seen.has(n) ? true : (seen.add(n), false)));
  if (dups.length > 0) throw ve(`the following arguments are defined more than once: ${dups.join(', ')}`, path);
  const byName = new Map(defs.map((d) => [d.name, d]));
  const out = new Map<string, Parsed>();
  for (const a of nodes) {
    const name = a.name.value;
    const p = extendPath(path, name);
    const def = byName.get(name);
    if (!def) throw ve(`no such argument "${name}" is expected`, p);
    out.set(name, coerceLiteral(def.type, a.value, p, cc.lc));
  }
  for (const def of defs) {
    if (def.type instanceof GraphQLNonNull && def.defaultValue === undefined && !out.has(def.name)) {
      throw ve(`the required argument "${def.name}" is missing`, path);
    }
  }
  return out;
}

/** Checks and parses a field's arguments (path `<field>.args.<name>`). */
export function fieldArgs(f: CollectedField, cc: CollectContext): Map<string, Parsed> {
  return parseArgs(f.def?.args ?? [], f.node.arguments ?? [], extendPath(f.path, 'args'), cc);
}
