// Merging a remote's schema into a role's schema as the original does: the remote's query-root fields join
// query_root and its mutation-root fields join mutation_root (the remote's root type names do not matter), its
// other types are added, and a type it shares with the schema must have the same structure (it is then one type).
// Conflicts use the original's remote-schema-conflicts messages. graphql-js does the printing and the extension.
import {
  GraphQLObjectType, Kind, extendSchema, isIntrospectionType, isSpecifiedScalarType, parse, print, printType, visit,
  type DefinitionNode, type DocumentNode, type GraphQLNamedType, type GraphQLSchema, type ObjectTypeDefinitionNode,
} from 'graphql';

export const QUERY_ROOT = 'query_root';
export const MUTATION_ROOT = 'mutation_root';
const ENGINE_ROOTS = new Set([QUERY_ROOT, MUTATION_ROOT, 'subscription_root']);

/** Which remote answers each root field it added, per operation. */
export interface RemoteRoutes {
  query: Map<string, string>;
  mutation: Map<string, string>;
}

export const emptyRoutes = (): RemoteRoutes => ({ query: new Map(), mutation: new Map() });

/**
 * The remote's types: all but built-in scalars and introspection types. Its root types are merged as the original
 * merges them (introspection lists e.g. `Hello`) but never conflict (two remotes may both call theirs `Query`: the
 * first one stays); `withRoots: false` leaves them out. Roots named like the engine's never join.
 */
function ownTypes(remote: GraphQLSchema, withRoots: boolean): GraphQLNamedType[] {
  const roots = new Set([remote.getQueryType(), remote.getMutationType(), remote.getSubscriptionType()].filter(Boolean));
  return Object.values(remote.getTypeMap()).filter((t) => {
    if (isIntrospectionType(t) || isSpecifiedScalarType(t)) return false;
    return !roots.has(t as GraphQLObjectType) || (withRoots && !ENGINE_ROOTS.has(t.name));
  });
}

const byName = (a: { name: { value: string } }, b: { name: { value: string } }): number => (a.name.value < b.name.value ? -1 : a.name.value > b.name.value ? 1 : 0);

/** A type's structure as text: no descriptions, members in name order (the original compares them as sets). */
export function structure(t: GraphQLNamedType): string {
  const doc = visit(parse(printType(t)), {
    enter(node) {
      if ('description' in node && node.description) return { ...node, description: undefined };
      return undefined;
    },
    leave(node) {
      const n: Readonly<Record<string, unknown>> = { ...node };
      let changed: Record<string, unknown> | null = null;
      for (const key of ['fields', 'arguments', 'values', 'interfaces', 'types']) {
        const v = n[key];
        if (Array.isArray(v) && v.length > 1 && v.every((x) => x && typeof x === 'object' && 'name' in x)) {
          changed ??= { ...n };
          changed[key] = [...(v as Array<{ name: { value: string } }>)].sort(byName);
        }
      }
      return changed ?? undefined;
    },
  });
  return print(doc);
}

const nodesConflict = (names: string[]) =>
  `top-level nodes: [ ${names.join(', ')} ] already exist in current graphql schema. HINT: Top-level nodes can't be same.`;
const typesConflict = (names: string[]) =>
  `types: [ ${names.join(', ')} ] have mismatch with current graphql schema. HINT: Types must be same.`;

/** The original's conflict message when `remote` cannot join `base`, else null. */
export function mergeConflict(base: GraphQLSchema, remote: GraphQLSchema): string | null {
  const taken = (root: GraphQLObjectType | null | undefined, other: GraphQLObjectType | null | undefined): string[] => {
    const have = root?.getFields() ?? {};
    return Object.keys(other?.getFields() ?? {}).filter((n) => n in have);
  };
  const nodes = [...taken(base.getQueryType(), remote.getQueryType()), ...taken(base.getMutationType(), remote.getMutationType())];
  if (nodes.length) return nodesConflict(nodes);
  const mismatched = ownTypes(remote, false).filter((t) => {
    const mine = base.getType(t.name);
    return mine !== undefined && structure(mine) !== structure(t);
  });
  return mismatched.length ? typesConflict(mismatched.map((t) => t.name)) : null;
}

/** `type <root> { ...the remote root's fields }` as an AST definition (printed by graphql-js, not by hand). */
function rootDefinition(name: string, remoteRoot: GraphQLObjectType): ObjectTypeDefinitionNode {
  const t = new GraphQLObjectType({ name, fields: remoteRoot.toConfig().fields });
  return parse(printType(t)).definitions[0] as ObjectTypeDefinitionNode;
}

/**
 * `base` with the remote's types and root fields; the caller checked mergeConflict first. Types already in `base`
 * (same structure) are kept as they are. Adds the remote's root fields to `routes` under `remoteName`.
 */
export function mergeRemote(base: GraphQLSchema, remote: GraphQLSchema, remoteName: string, routes: RemoteRoutes): GraphQLSchema {
  const definitions: DefinitionNode[] = [];
  for (const t of ownTypes(remote, true)) if (!base.getType(t.name)) definitions.push(...parse(printType(t)).definitions);
  const q = remote.getQueryType();
  if (q && Object.keys(q.getFields()).length) {
    definitions.push({ ...rootDefinition(QUERY_ROOT, q), kind: Kind.OBJECT_TYPE_EXTENSION } as DefinitionNode);
  }
  const m = remote.getMutationType();
  if (m && Object.keys(m.getFields()).length) {
    if (base.getMutationType()) {
      definitions.push({ ...rootDefinition(MUTATION_ROOT, m), kind: Kind.OBJECT_TYPE_EXTENSION } as DefinitionNode);
    } else {
      definitions.push(rootDefinition(MUTATION_ROOT, m), ...parse(`extend schema { mutation: ${MUTATION_ROOT} }`).definitions);
    }
  }
  const doc: DocumentNode = { kind: Kind.DOCUMENT, definitions };
  const merged = extendSchema(base, doc, { assumeValid: true, assumeValidSDL: true });
  for (const f of Object.keys(q?.getFields() ?? {})) routes.query.set(f, remoteName);
  for (const f of Object.keys(m?.getFields() ?? {})) routes.mutation.set(f, remoteName);
  return merged;
}
