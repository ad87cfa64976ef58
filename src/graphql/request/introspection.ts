// __schema / __type root fields: checked like any selection, then answered by graphql-js `executeSync` against the
// role schema; the result becomes raw JSON spliced into the response.
import {
  Kind, executeSync, getNamedType, isObjectType, visit,
  type DocumentNode, type FieldNode, type GraphQLObjectType, type OperationDefinitionNode,
} from 'graphql';
import { collectFields, fieldArgs, type CollectContext, type CollectedField } from './collect.js';
import { ve } from './input.js';
import type { RoleSchema } from '../role-schema.js';

/** Validates a selection over introspection types (field names, arguments, sub-selections). */
function check(type: GraphQLObjectType, f: CollectedField, cc: CollectContext): void {
  for (const cf of collectFields(type, f.subSelections, cc)) {
    fieldArgs(cf, cc);
    if (!cf.def) continue;
    const named = getNamedType(cf.def.type);
    if (isObjectType(named)) check(named, cf, cc);
  }
}

// Note [Sorted introspection]
// The original lists types, fields, arguments, input fields and enum values in name order, built-in introspection
// types included (graphql-js keeps definition order). Each such list gets a hidden `name` selection to sort on,
// removed afterwards.
const SORTED = new Set(['types', 'fields', 'args', 'inputFields', 'enumValues']);
const SORT_KEY = '__engine_sort_name';

function withSortKeys(doc: DocumentNode): DocumentNode {
  return visit(doc, {
    Field(node) {
      if (!SORTED.has(node.name.value) || !node.selectionSet) return undefined;
      const key: FieldNode = { kind: Kind.FIELD, alias: { kind: Kind.NAME, value: SORT_KEY }, name: { kind: Kind.NAME, value: 'name' } };
      return { ...node, selectionSet: { ...node.selectionSet, selections: [...node.selectionSet.selections, key] } };
    },
  });
}

function sortLists(v: unknown): unknown {
  if (Array.isArray(v)) {
    const items = v.map(sortLists);
    if (items.length > 0 && items.every((x) => x !== null && typeof x === 'object' && SORT_KEY in (x as object))) {
      const keyed = items as Array<Record<string, unknown>>;
      keyed.sort((a, b) => (String(a[SORT_KEY]) < String(b[SORT_KEY]) ? -1 : String(a[SORT_KEY]) > String(b[SORT_KEY]) ? 1 : 0));
      for (const x of keyed) delete x[SORT_KEY];
    }
    return items;
  }
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) o[k] = sortLists(o[k]);
  }
  return v;
}

export function introspectionJson(
  rs: RoleSchema, f: CollectedField, cc: CollectContext, op: OperationDefinitionNode, doc: DocumentNode,
  variables: Record<string, unknown> | null | undefined,
): string {
  fieldArgs(f, cc);
  check(getNamedType(f.def!.type) as GraphQLObjectType, f, cc);
  const node: FieldNode = { ...f.node, alias: { kind: Kind.NAME, value: 'r' }, selectionSet: f.node.selectionSet };
  const document: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [
      { kind: Kind.OPERATION_DEFINITION, operation: op.operation, variableDefinitions: op.variableDefinitions, selectionSet: { kind: Kind.SELECTION_SET, selections: f.nodes.map((n, i) => (i === 0 ? node : { ...n, alias: node.alias })) } },
      ...doc.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION),
    ],
  };
  const result = executeSync({ schema: rs.schema, document: withSortKeys(document), variableValues: variables ?? {} });
  if (result.errors && result.errors.length > 0) throw ve(result.errors[0].message, f.path);
  return JSON.stringify(sortLists((result.data as Record<string, unknown> | null)?.r ?? null));
}
