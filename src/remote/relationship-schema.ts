// Remote relationships in a role's schema: a field of the table's type for every role that can select the table
// (as the original v1.3: no column permission needed; the row filter applies to the rows as usual), typed as the
// remote's leaf field with the arguments the template leaves free. Added after the remote schemas are merged (their
// types are the ones the fields name); a relationship whose types this role's schema lacks is left out. Not on
// /v1beta1/relay (its schemas take no extensions), as the original.
import { Kind, extendSchema, parse, print, visit, type FieldNode, type FragmentDefinitionNode, type GraphQLObjectType, type SelectionSetNode } from 'graphql';
import type { SchemaCache } from '../cache/types.js';
import type { RoleSchema, Translator } from '../graphql/role-schema.js';
import type { TableView } from '../graphql/schema/context.js';
import type { CollectedField } from '../graphql/request/collect.js';
import type { FieldIR } from '../ir/types.js';
import { remoteRelationshipsOf, type RemoteRelationshipInfo } from './relationship-info.js';
import { sameName } from '../core/names.js';

/** A role schema's remote relationship fields: object type name → field name → relationship. */
type Fields = Map<string, Map<string, RemoteRelationshipInfo>>;

export function withRemoteRelationships(cache: SchemaCache, rs: RoleSchema): RoleSchema {
  const rels = remoteRelationshipsOf(cache);
  if (rels.length === 0) return rs;
  const fields: Fields = new Map();
  const sdl: string[] = [];
  const inputTypes = new Set<string>();
  for (const view of rs.ctx.tables.values()) {
    const typeName = view.names.object;
    const type = rs.schema.getType(typeName) as GraphQLObjectType | undefined;
    if (!type) continue;
    const taken = type.getFields();
    const mine = rels.filter((r) => sameName(r.table, view.info.name) && !Object.hasOwn(taken, r.name) && r.uses.every((n) => rs.schema.getType(n)));
    if (mine.length === 0) continue;
    fields.set(typeName, new Map(mine.map((r) => [r.name, r])));
    const defs = mine.map((r) => `${r.name}${r.arguments.length ? `(${r.arguments.map(([n, t]) => `${n}: ${t}`).join(', ')})` : ''}: ${r.type}`);
    sdl.push(`extend type ${typeName} { ${defs.join(' ')} }`);
    for (const r of mine) for (const t of r.inputTypes) inputTypes.add(t);
  }
  if (sdl.length === 0) return rs;
  const schema = extendSchema(rs.schema, parse([...inputTypes, ...sdl].join('\n')), { assumeValid: true, assumeValidSDL: true });
  // Note [Field order]: the engine lists a table type's fields by name; extendSchema appends the new ones. The
  // extended types are this schema's own (new objects), so their field maps are put in name order in place.
  for (const typeName of fields.keys()) {
    const map = (schema.getType(typeName) as GraphQLObjectType).getFields() as Record<string, unknown>;
    const entries = Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [k] of entries) delete map[k];
    for (const [k, v] of entries) map[k] = v;
  }
  const previous = rs.fieldHook;
  return {
    ...rs,
    schema,
    fieldHook: (t, view, f) => {
      const rel = fields.get(view.names.object)?.get(f.name);
      return rel ? remoteJoinField(t, view, rel, f) : (previous?.(t, view, f) ?? null);
    },
  };
}

/** The selection set with fragment spreads replaced by inline fragments (the remote gets no fragment definitions). */
function inlineFragments(set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, seen: string[] = []): SelectionSetNode {
  return visit(set, {
    FragmentSpread(node) {
      const frag = fragments.get(node.name.value);
      if (!frag || seen.includes(node.name.value)) return null;
      return {
        kind: Kind.INLINE_FRAGMENT,
        typeCondition: frag.typeCondition,
        directives: node.directives,
        selectionSet: inlineFragments(frag.selectionSet, fragments, [...seen, node.name.value]),
      };
    },
  });
}

function remoteJoinField(t: Translator, _view: TableView, rel: RemoteRelationshipInfo, f: CollectedField): FieldIR {
  const node: FieldNode = f.node;
  const args = node.arguments?.length ? `(${node.arguments.map((a) => print(a)).join(', ')})` : '';
  // Every node merged under the response key contributes its selections (`m { id } m { msg }` asks for both).
  const selections = f.nodes.flatMap((n) => n.selectionSet?.selections ?? []);
  const merged: SelectionSetNode = { kind: Kind.SELECTION_SET, selections };
  const selectionSet = selections.length ? print(inlineFragments(merged, t.cc.fragments)) : '';
  return {
    kind: 'remote_join',
    join: { remoteSchema: rel.remoteSchema, columns: rel.columns, path: rel.path, clientArguments: args, selectionSet },
  };
}
