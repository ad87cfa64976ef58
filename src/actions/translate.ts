// Action root fields → IR: the arguments as an input template (variables read at execution time), the output
// selection (custom-type fields, relationships with the caller's select permission filter and limit), and the async
// forms (enqueue; `<action>(id:)`).
import type { GraphQLObjectType } from 'graphql';
import type { ActionInfo } from '../cache/types.js';
import type { ActionCallIR, ActionOutputFieldIR, ActionOutputIR, ActionRootIR, InputTemplate } from '../ir/action.js';
import { collectFields, fieldArgs, type CollectedField } from '../graphql/request/collect.js';
import type { Parsed } from '../graphql/request/input.js';
import { selectArgsIR, tableFields } from '../graphql/request/translate.js';
import type { Translator } from '../graphql/role-schema.js';
import { permFilter } from '../graphql/request/values.js';
import { baseName, isListExpr, objectDef, parseTypeExpr, relationshipView } from './schema.js';
import { schemaTypes } from '../graphql/schema-types.js';

export function inputTemplate(p: Parsed): InputTemplate {
  switch (p.kind) {
    case 'null': return { kind: 'json', value: null };
    case 'scalar': return { kind: 'json', value: p.json };
    case 'enum': return { kind: 'json', value: p.name };
    case 'list': return { kind: 'list', items: p.items.map(inputTemplate) };
    case 'object': return { kind: 'object', fields: p.fields.map(([k, v]) => [k, inputTemplate(v)]) };
    case 'variable': return { kind: 'variable', name: p.name, path: p.path ?? [] };
  }
}

export function callIR(t: Translator, a: ActionInfo, f: CollectedField): ActionCallIR {
  const args = fieldArgs(f, t.cc);
  return {
    name: a.name,
    handler: a.handler,
    headers: a.definition.headers,
    forwardClientHeaders: a.definition.forward_client_headers,
    timeout: a.definition.timeout,
    input: [...args].map(([k, v]) => [k, inputTemplate(v)]),
  };
}

/** The output selection of a field whose type is the action's output type (or `output` of the async type). */
export function outputIR(t: Translator, a: ActionInfo, f: CollectedField): ActionOutputIR {
  const typeNode = parseTypeExpr(a.definition.output_type);
  const typeName = baseName(typeNode);
  const def = objectDef(t.rs.ctx, typeName);
  const spec = (def?.fields ?? []).map((x) => ({ name: x.name, nullable: !x.type.trim().endsWith('!') }));
  const type = schemaTypes(t.rs).getType(typeName) as GraphQLObjectType;
  const fields: Array<[string, ActionOutputFieldIR]> = [];
  for (const cf of collectFields(type, f.subSelections, t.cc)) {
    if (cf.name === '__typename') {
      fields.push([cf.alias, { kind: 'typename', name: typeName }]);
      continue;
    }
    const rel = def?.relationships?.find((r) => r.name === cf.name);
    const view = rel ? relationshipView(t.rs.ctx, rel) : undefined;
    if (!rel || !view) {
      fields.push([cf.alias, { kind: 'field', name: cf.name }]);
      continue;
    }
    const mapping = Object.entries(rel.field_mapping).map(([field, column]) => {
      const c = view.info.columns.find((x) => x.name === column);
      return { field, column, pgType: { type: c?.type ?? 'text', typeSchema: c?.typeSchema ?? 'pg_catalog', array: false } };
    });
    const args = fieldArgs(cf, t.cc);
    const select = rel.type === 'object'
      ? {
        source: { kind: 'table' as const, table: view.info.name },
        args: { where: permFilter(t, view), orderBy: [], limit: null, permissionLimit: null, offset: null, distinctOn: null },
        fields: tableFields(t, view, cf),
      }
      : { source: { kind: 'table' as const, table: view.info.name }, args: selectArgsIR(t, view, args, cf.path), fields: tableFields(t, view, cf) };
    fields.push([cf.alias, { kind: 'relationship', array: rel.type === 'array', mapping, select }]);
  }
  return { typeName, list: isListExpr(typeNode), spec, fields };
}

export function syncActionIR(t: Translator, a: ActionInfo, f: CollectedField): ActionRootIR {
  return { kind: 'action', call: callIR(t, a, f), output: outputIR(t, a, f) };
}

export function enqueueActionIR(t: Translator, a: ActionInfo, f: CollectedField): ActionRootIR {
  return { kind: 'action_enqueue', call: callIR(t, a, f) };
}

export function statusIR(t: Translator, a: ActionInfo, f: CollectedField): ActionRootIR {
  const id = fieldArgs(f, t.cc).get('id') as Parsed;
  const type = schemaTypes(t.rs).getType(a.name) as GraphQLObjectType;
  const fields: Extract<ActionRootIR, { kind: 'action_status' }>['fields'] = [];
  for (const cf of collectFields(type, f.subSelections, t.cc)) {
    if (cf.name === '__typename') fields.push([cf.alias, { kind: 'typename', name: a.name }]);
    else if (cf.name === 'output') fields.push([cf.alias, { kind: 'output', output: outputIR(t, a, cf) }]);
    else fields.push([cf.alias, { kind: cf.name as 'id' | 'created_at' | 'errors' }]);
  }
  return { kind: 'action_status', action: a.name, id: inputTemplate(id), admin: t.rs.ctx.role === 'admin', fields };
}
