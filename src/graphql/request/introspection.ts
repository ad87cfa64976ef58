// __schema / __type root fields: checked like any selection, then answered by graphql-js `executeSync` against the
// role schema; the result becomes raw JSON spliced into the response.
import {
  Kind, executeSync, getNamedType, isObjectType,
  type DocumentNode, type FieldNode, type GraphQLObjectType, type OperationDefinitionNode,
} from 'graphql';
import { collectFields, fieldArgs, type CollectContext, type CollectedField } from './collect.js';
import { ve } from './input.js';
import type { RoleSchema } from '../schema/build.js';

/** Validates a selection over introspection types (field names, arguments, sub-selections). */
function check(type: GraphQLObjectType, f: CollectedField, cc: CollectContext): void {
  for (const cf of collectFields(type, f.subSelections, cc)) {
    fieldArgs(cf, cc);
    if (!cf.def) continue;
    const named = getNamedType(cf.def.type);
    if (isObjectType(named)) check(named, cf, cc);
  }
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
  const result = executeSync({ schema: rs.schema, document, variableValues: variables ?? {} });
  if (result.errors && result.errors.length > 0) throw ve(result.errors[0].message, f.path);
  return JSON.stringify((result.data as Record<string, unknown> | null)?.r ?? null);
}
