// Splitting one operation by the server that answers each root field: the database (the engine's own fields,
// __typename and introspection) and each remote schema. Every part is a document of its own holding only its root
// fields (root fragments and inline fragments filtered the same way, and renamed to the remote's root type), the
// other fragments it spreads and the variables it uses. graphql-js parses, visits and prints.
import {
  Kind, print, visit,
  type DocumentNode, type FragmentDefinitionNode, type NamedTypeNode, type OperationDefinitionNode, type SelectionNode, type SelectionSetNode,
} from 'graphql';

/** null: the database (the engine's own root fields). */
export type Owner = string | null;

export interface Part {
  owner: Owner;
  /** The part's document text. */
  query: string;
  /** The part's variables (only those it declares); null when the request had none. */
  variables: Record<string, unknown> | null;
  /** The names of the variables it declares (to pick another request's variables for the same text). */
  variableNames: ReadonlySet<string>;
}

/** The variables of a request that a part declares; null when the request had none. */
export const pickVariables = (variables: Record<string, unknown> | null, names: ReadonlySet<string>): Record<string, unknown> | null =>
  variables === null ? null : Object.fromEntries(Object.entries(variables).filter(([k]) => names.has(k)));

export interface Split {
  parts: Part[];
  /** Response keys of the root fields in request order (fragments expanded, directives not evaluated). */
  order: string[];
}

export interface SplitInput {
  doc: DocumentNode;
  op: OperationDefinitionNode;
  /** The engine's root type of the operation (query_root / mutation_root / subscription_root). */
  rootName: string;
  owner(fieldName: string): Owner;
  /** The remote's root type name for this operation (its fragments on the root are renamed to it). */
  remoteRoot(remote: string): string;
  variables: Record<string, unknown> | null;
}

const onRoot = (typeCondition: { name: { value: string } } | undefined, rootName: string): boolean =>
  typeCondition === undefined || typeCondition.name.value === rootName;

/** Owners of the root fields in first-occurrence order, and the response keys in order. */
export function rootOwners(input: Pick<SplitInput, 'doc' | 'op' | 'rootName' | 'owner'>): { owners: Owner[]; order: string[]; direct: boolean } {
  const fragments = fragmentMap(input.doc);
  const owners: Owner[] = [];
  const order: string[] = [];
  let direct = true;
  const seen = new Set<string>();
  const walk = (sel: SelectionSetNode): void => {
    for (const s of sel.selections) {
      if (s.kind === Kind.FIELD) {
        const o = input.owner(s.name.value);
        if (!owners.includes(o)) owners.push(o);
        const key = s.alias?.value ?? s.name.value;
        if (!order.includes(key)) order.push(key);
        continue;
      }
      direct = false;
      if (s.kind === Kind.INLINE_FRAGMENT) {
        if (onRoot(s.typeCondition, input.rootName)) walk(s.selectionSet);
      } else {
        const f = fragments.get(s.name.value);
        if (f && onRoot(f.typeCondition, input.rootName) && !seen.has(f.name.value)) {
          seen.add(f.name.value);
          walk(f.selectionSet);
        }
      }
    }
  };
  walk(input.op.selectionSet);
  return { owners, order, direct };
}

function fragmentMap(doc: DocumentNode): Map<string, FragmentDefinitionNode> {
  const m = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) m.set(d.name.value, d);
  return m;
}

/** The part of one owner; null when it has no root field. */
function partOf(input: SplitInput, owner: Owner, fragments: Map<string, FragmentDefinitionNode>): Part | null {
  const rename = owner === null ? null : input.remoteRoot(owner);
  const rootFragments = new Map<string, FragmentDefinitionNode | null>();
  const typeCond = <T extends NamedTypeNode | undefined>(tc: T): T =>
    (tc && rename ? { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: rename } } : tc) as T;

  const filter = (sel: SelectionSetNode): SelectionSetNode | null => {
    const kept: SelectionNode[] = [];
    for (const s of sel.selections) {
      if (s.kind === Kind.FIELD) {
        if (input.owner(s.name.value) === owner) kept.push(s);
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        if (!onRoot(s.typeCondition, input.rootName)) continue;
        const inner = filter(s.selectionSet);
        if (inner) kept.push({ ...s, typeCondition: typeCond(s.typeCondition), selectionSet: inner });
      } else {
        const name = s.name.value;
        const f = fragments.get(name);
        if (!f || !onRoot(f.typeCondition, input.rootName)) continue;
        if (!rootFragments.has(name)) {
          rootFragments.set(name, null); // a cycle spreads nothing more
          const inner = filter(f.selectionSet);
          rootFragments.set(name, inner ? { ...f, typeCondition: typeCond(f.typeCondition), selectionSet: inner } : null);
        }
        if (rootFragments.get(name)) kept.push(s);
      }
    }
    return kept.length ? { ...sel, selections: kept } : null;
  };

  const selectionSet = filter(input.op.selectionSet);
  if (!selectionSet) return null;
  // Fragments spread below the root, transitively, and the variables everything uses.
  const used = new Map<string, FragmentDefinitionNode>();
  const variables = new Set<string>();
  const scan = (node: SelectionSetNode | FragmentDefinitionNode): void => {
    visit(node, {
      Variable: (v) => { variables.add(v.name.value); },
      FragmentSpread: (s) => {
        const name = s.name.value;
        if (used.has(name)) return;
        const f = rootFragments.get(name) ?? fragments.get(name);
        if (!f) return;
        used.set(name, f);
        scan(f);
      },
    });
  };
  scan(selectionSet);
  for (const d of input.op.directives ?? []) visit(d, { Variable: (v) => { variables.add(v.name.value); } });
  const op: OperationDefinitionNode = {
    ...input.op,
    variableDefinitions: (input.op.variableDefinitions ?? []).filter((v) => variables.has(v.variable.name.value)),
    selectionSet,
  };
  const doc: DocumentNode = { kind: Kind.DOCUMENT, definitions: [op, ...used.values()] };
  return { owner, query: print(doc), variables: pickVariables(input.variables, variables), variableNames: variables };
}

/** The parts of an operation, in the order their first root field appears. */
export function splitOperation(input: SplitInput): Split {
  const fragments = fragmentMap(input.doc);
  const { owners, order } = rootOwners(input);
  const parts = owners.map((o) => partOf(input, o, fragments)).filter((p): p is Part => p !== null);
  return { parts, order };
}
