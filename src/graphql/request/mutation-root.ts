// mutation_root fields → RootFieldIR: dispatch on the field's meta (insert / update / delete, multi-row or single
// row), update operators with the original's validation, and the output (`<t>_mutation_response` or the row).
import { extendPath } from '../../core/json-path.js';
import type { ColumnInfo, TableInfo } from '../../cache/types.js';
import type { MutationIR, MutationOutputIR, MutationResponseFieldIR, UpdateIR, UpdateOpKind } from '../../ir/mutation.js';
import type { BoolExpIR, PgTypeRef } from '../../ir/types.js';
import type { RootFieldIR } from '../../ir/operation.js';
import type { GraphQLObjectType } from 'graphql';
import type { RoleContext } from '../schema/context.js';
import { deleteAccess, mutationFieldMetas, updateAccess, type MutationFieldMeta } from '../schema/mutation-access.js';
import { collectFields, fieldArgs, type CollectedField } from './collect.js';
import { ve, type Parsed } from './input.js';
import { andIR } from '../../ir/permission.js';
import { tableFields, whereIR } from './translate.js';
import type { Translator } from '../role-schema.js';
import { insertIR } from './mutation-insert.js';
import { leafValue, objectFields, permissionIR, pgTypeOf, presetValues, TEXT, viewOrStub } from './mutation-values.js';
import { schemaTypes } from '../schema-types.js';

/**
 * Insert fields of backend_only permissions exist only for requests with backend-only privileges, and (as in the
 * original, where such requests get the role's backend schema) other insert fields only for requests without them.
 */
const visible = (m: MutationFieldMeta, backendOnly: boolean): boolean => m.backendOnly === backendOnly || m.kind !== 'insert' && m.kind !== 'insert_one';

/** Whether the role schema has mutation fields usable by this request. */
export function hasVisibleMutations(ctx: RoleContext, backendOnly: boolean): boolean {
  if (ctx.role === 'admin') return mutationFieldMetas(ctx).size > 0;
  for (const m of mutationFieldMetas(ctx).values()) if (visible(m, backendOnly)) return true;
  return false;
}

/** A mutation_root field → IR (the executor keeps plans of backend-only requests apart: the fields differ). */
export function mutationRootField(t: Translator, f: CollectedField, backendOnly: boolean): RootFieldIR {
  const meta = mutationFieldMetas(t.rs.ctx).get(f.name);
  if (!meta || (t.rs.ctx.role !== 'admin' && !visible(meta, backendOnly))) {
    throw ve(`field "${f.name}" not found in type: 'mutation_root'`, f.path);
  }
  return mutationRootFieldIR(t, meta, f);
}

function output(t: Translator, meta: MutationFieldMeta, f: CollectedField): MutationOutputIR {
  if (meta.kind === 'insert_one' || meta.kind === 'update_by_pk' || meta.kind === 'delete_by_pk') {
    return { kind: 'single', fields: tableFields(t, meta.view!, f) };
  }
  const typeName = `${meta.view?.names.object ?? (meta.table.name.schema === 'public' ? meta.table.name.name : `${meta.table.name.schema}_${meta.table.name.name}`)}_mutation_response`;
  const type = schemaTypes(t.rs).getType(typeName) as GraphQLObjectType;
  const fields: Array<[string, MutationResponseFieldIR]> = [];
  for (const cf of collectFields(type, f.subSelections, t.cc)) {
    if (cf.name === '__typename') fields.push([cf.alias, { kind: 'typename', name: typeName }]);
    else if (cf.name === 'affected_rows') fields.push([cf.alias, { kind: 'affected_rows' }]);
    else fields.push([cf.alias, { kind: 'returning', fields: tableFields(t, meta.view!, cf) }]);
  }
  return { kind: 'response', fields };
}

const pkWhere = (t: Translator, pk: ColumnInfo[], values: Map<string, Parsed>): BoolExpIR | null =>
  andIR(pk.map((c): BoolExpIR => ({ kind: 'column', column: c.name, op: '_eq', value: leafValue(t, values.get(c.graphqlName) as Parsed, pgTypeOf(c)) })));

const OPERATORS: Array<[string, UpdateOpKind]> = [
  ['_set', 'set'], ['_inc', 'inc'], ['_append', 'append'], ['_prepend', 'prepend'],
  ['_delete_key', 'delete_key'], ['_delete_elem', 'delete_elem'], ['_delete_at_path', 'delete_at_path'],
];

const INT4: PgTypeRef = { type: 'int4', typeSchema: 'pg_catalog', array: false };

function opValueType(op: UpdateOpKind, c: ColumnInfo): PgTypeRef {
  switch (op) {
    case 'append': case 'prepend': return { type: 'jsonb', typeSchema: 'pg_catalog', array: false };
    case 'delete_key': return TEXT;
    case 'delete_elem': return INT4;
    case 'delete_at_path': return { ...TEXT, array: true };
    default: return pgTypeOf(c);
  }
}

function updateIR(t: Translator, table: TableInfo, args: Map<string, Parsed>, where: BoolExpIR | null): UpdateIR {
  const access = updateAccess(table, t.rs.ctx.role)!;
  const byField = new Map(access.columns.map((c) => [c.graphqlName, c]));
  const presets = presetValues(table, access.presets);
  const items: Array<{ column: string; op: UpdateOpKind; value: UpdateIR['ops'][number]['value']; opName: string }> = [];
  let given = false;
  for (const [argName, op] of OPERATORS) {
    const p = args.get(argName);
    if (p === undefined || (p.kind === 'null')) continue;
    given = true;
    for (const [k, v] of objectFields(t, p)) {
      const c = byField.get(k);
      if (c) items.push({ column: c.name, op, value: leafValue(t, v, opValueType(op, c)), opName: argName });
    }
  }
  if (!given && presets.length === 0) {
    throw ve(`at least any one of ${OPERATORS.map(([n]) => n).join(', ')} is expected`, '$');
  }
  const byColumn = new Map<string, string[]>();
  for (const it of items) byColumn.set(it.column, [...(byColumn.get(it.column) ?? []), it.opName]);
  const multi = [...byColumn].filter(([, ops]) => ops.length > 1);
  if (multi.length > 0) {
    throw ve(`column found in multiple operators; ${multi.map(([c, ops]) => `"${c}" in ${ops.join(', ')}`).join('. ')}`, '$');
  }
  // Presets first; with neither presets nor items the original runs nothing (affected_rows 0).
  const ops = [
    ...presets.map(([column, value]) => ({ column, op: 'set' as const, value })),
    ...items.map(({ column, op, value }) => ({ column, op, value })),
  ];
  return {
    table: table.name,
    columns: table.columns.map((c) => c.name),
    where: andIR([where, permissionIR(t, table, access.filter)]),
    ops,
    check: permissionIR(t, table, access.check),
  };
}

export function mutationRootFieldIR(t: Translator, meta: MutationFieldMeta, f: CollectedField): RootFieldIR {
  const args = fieldArgs(f, t.cc);
  const table = meta.table;
  const argPath = (n: string) => extendPath(f.path, 'args', n);
  let mutation: MutationIR;
  switch (meta.kind) {
    case 'insert':
    case 'insert_one': {
      const many = meta.kind === 'insert';
      const objs = many ? listOf(t, args.get('objects')) : [args.get('object') as Parsed];
      const paths = objs.map((_, i) => (many ? extendPath(argPath('objects'), i) : argPath('object')));
      const insert = insertIR(t, table, objs, paths, args.get('on_conflict'), argPath('on_conflict'));
      mutation = { kind: 'insert', insert, output: output(t, meta, f), errorPath: argPath(many ? 'objects' : 'object') };
      break;
    }
    case 'update':
    case 'update_by_pk': {
      const where = meta.kind === 'update'
        ? whereIR(t, viewOrStub(t, table), args.get('where'), argPath('where'))
        : pkWhere(t, meta.pk, new Map(objectFields(t, args.get('pk_columns'))));
      mutation = { kind: 'update', update: updateIR(t, table, args, where), output: output(t, meta, f) };
      break;
    }
    case 'delete':
    case 'delete_by_pk': {
      const where = meta.kind === 'delete' ? whereIR(t, viewOrStub(t, table), args.get('where'), argPath('where')) : pkWhere(t, meta.pk, args);
      const access = deleteAccess(table, t.rs.ctx.role)!;
      mutation = {
        kind: 'delete',
        delete: { table: table.name, columns: table.columns.map((c) => c.name), where: andIR([where, permissionIR(t, table, access.filter)]) },
        output: output(t, meta, f),
      };
      break;
    }
  }
  return { kind: 'mutation', mutation };
}

function listOf(t: Translator, p: Parsed | undefined): Parsed[] {
  if (p === undefined) return [];
  if (p.kind === 'variable') return listOf(t, (t.cc.lc.markShaped(), p.value));
  if (p.kind === 'null') return [];
  return p.kind === 'list' ? p.items : [p];
}
