// Resolving one table's objects against the catalog: enum tables, relationships, computed fields, and tracked
// functions. A reason an object does not resolve is thrown as a Failure (fail) and recorded by the build.
import { qualifiedKey, quote as q, quoteName as qt, sameName, type QualifiedName } from '../core/names.js';
import type { PgCatalog, PgColumn, PgFunction, PgTable } from '../catalog/types.js';
import type { RelationshipMeta, ComputedFieldMeta } from '../../projections/metadata.js';
import { own } from '../../events/types.js';
import type { ComputedFieldInfo, FunctionInfo, RelationshipInfo, TableInfo } from './types.js';
import { reasonMessage } from './objects.js';

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

export class Failure extends Error {}
export const fail = (reason: string): never => {
  throw new Failure(reason);
};

function isText(c: PgColumn): boolean {
  return !c.isArray && (c.type === 'text' || c.type === 'varchar') && c.typeSchema === 'pg_catalog';
}

export function enumIntegrity(
  table: QualifiedName,
  pg: PgTable,
  values: Array<{ value: string; comment: string | null }> | undefined,
): string | Array<{ value: string; comment: string | null }> {
  const errors: string[] = [];
  const pk = pg.primaryKey?.columns ?? [];
  if (pk.length === 0) errors.push('the table must have a primary key');
  else if (pk.length > 1) errors.push(`the table’s primary key must not span multiple columns (${[...pk].sort().join(', ')})`);
  else {
    const col = pg.columns.find((c) => c.name === pk[0])!;
    if (!isText(col)) errors.push(`the table’s primary key (${q(col.name)}) must have type "text", not type ${q(col.formattedType)}`);
  }
  const others = pg.columns.filter((c) => !(pk.length === 1 && c.name === pk[0]));
  if (others.length === 1 && pk.length === 1) {
    if (!isText(others[0])) errors.push(`the table’s comment column (${q(others[0].name)}) must have type "text", not type ${q(others[0].formattedType)}`);
  } else if (others.length > 1) {
    errors.push(`the table must have exactly one primary key and optionally one comment column, not ${pg.columns.length} columns (${pg.columns.map((c) => c.name).sort().join(', ')})`);
  }
  if (!errors.length && values) {
    if (values.length === 0) errors.push('the table must have at least one row');
    const bad = values.map((v) => v.value).filter((v) => !GRAPHQL_NAME.test(v) || v === 'true' || v === 'false' || v === 'null').sort();
    if (bad.length === 1) errors.push(`the value ${q(bad[0])} is not a valid GraphQL enum value name`);
    else if (bad.length === 2) errors.push(`the values ${q(bad[0])} and ${q(bad[1])} are not valid GraphQL enum value names`);
    else if (bad.length > 2) {
      errors.push(`the values ${bad.slice(0, -1).map(q).join(', ')}, and ${q(bad[bad.length - 1])} are not valid GraphQL enum value names`);
    }
  }
  if (errors.length) return `the table ${qt(table)} cannot be used as an enum ${reasonMessage(errors)}`;
  return values ?? [];
}

function fieldConflict(info: TableInfo, name: string): void {
  if (info.columns.some((c) => c.name === name)) fail('field definition conflicts with postgres column');
  const custom = info.columns.find((c) => c.graphqlName === name);
  if (custom) fail(`field definition conflicts with custom field name for postgres column ${q(custom.name)}`);
}

export function resolveRelationship(
  info: TableInfo,
  kind: 'object' | 'array',
  rel: RelationshipMeta,
  tables: Record<string, TableInfo>,
  catalog: PgCatalog,
): RelationshipInfo {
  const ctx = `in table ${qt(info.name)}: in relationship ${q(rel.name)}: `;
  const using = rel.using as Record<string, unknown>;
  const tracked = (t: QualifiedName): TableInfo => tables[qualifiedKey(t)] ?? fail(`table ${qt(t)} is not tracked`);
  let remote: QualifiedName;
  let mapping: Array<[string, string]>;
  if ('manual_configuration' in using) {
    const m = using.manual_configuration as { remote_table: QualifiedName; column_mapping: Record<string, string> };
    const r = tracked(m.remote_table);
    for (const [l, rc] of Object.entries(m.column_mapping)) {
      if (!info.columns.some((c) => c.name === l)) fail(`${ctx}no such column exists : ${q(l)}`);
      if (!r.columns.some((c) => c.name === rc)) fail(`${ctx}no such column exists : ${q(rc)}`);
    }
    remote = m.remote_table;
    mapping = Object.entries(m.column_mapping);
  } else if (kind === 'object') {
    const col = using.foreign_key_constraint_on as string;
    const fks = info.pg.foreignKeys.filter((k) => k.columns.length === 1 && k.columns[0] === col);
    if (fks.length === 0) fail(`${ctx}no foreign constraint exists on the given column`);
    if (fks.length > 1) fail(`${ctx}more than one foreign key constraint exists on the given column`);
    remote = tracked(fks[0].refTable).name;
    mapping = [[col, fks[0].refColumns[0]]];
  } else {
    const f = using.foreign_key_constraint_on as { table: QualifiedName; column: string };
    const r = tracked(f.table);
    const fks = r.pg.foreignKeys.filter((k) => k.columns.length === 1 && k.columns[0] === f.column && sameName(k.refTable, info.name));
    if (fks.length === 0) fail(`${ctx}no foreign constraint exists on the given column`);
    if (fks.length > 1) fail(`${ctx}more than one foreign key constraint exists on the given column`);
    remote = r.name;
    mapping = [[fks[0].refColumns[0], f.column]];
  }
  void catalog;
  fieldConflict(info, rel.name);
  // The original inserts the row of every object relationship (foreign key or manual) before its parent.
  return { name: rel.name, kind, remoteTable: remote, mapping, insertRemoteFirst: kind === 'object', comment: rel.comment };
}

function inputArgs(fn: PgFunction) {
  return fn.args.filter((a) => a.mode === 'in' || a.mode === 'inout' || a.mode === 'variadic');
}

export function resolveComputedField(
  info: TableInfo,
  cf: ComputedFieldMeta,
  tables: Record<string, TableInfo>,
  catalog: PgCatalog,
): ComputedFieldInfo {
  const ctx = `in table ${qt(info.name)}: in computed field ${q(cf.name)}: `;
  if (info.columns.some((c) => c.name === cf.name)) fail('field definition conflicts with postgres column');
  if (own(info.relationships, cf.name)) fail('field definition conflicts with relationship');
  const fname = cf.definition.function;
  const fns = catalog.functions[qualifiedKey(fname)];
  if (!fns || fns.length === 0) fail(`${ctx}no such function exists in postgres : ${qt(fname)}`);
  if (fns.length > 1) fail(`${ctx}function ${qt(fname)} is overloaded. Overloaded functions are not supported`);
  const fn = fns[0];
  const errors: string[] = [];
  if (!GRAPHQL_NAME.test(cf.name)) errors.push(`${q(cf.name)} is not valid GraphQL name`);
  if (fn.volatility === 'volatile') errors.push(`the function ${qt(fname)} is of type VOLATILE; cannot be added as a computed field`);
  let returns: ComputedFieldInfo['returns'] | null = null;
  if (fn.returnTypeKind === 'base' || fn.returnTypeKind === 'enum' || fn.returnTypeKind === 'domain') {
    returns = { kind: 'scalar', type: fn.returnType.name, typeSchema: fn.returnType.schema };
  } else if (fn.returnsTable) {
    if (tables[qualifiedKey(fn.returnsTable)]) returns = { kind: 'table', table: fn.returnsTable, set: fn.returnsSet };
    else errors.push(`the function ${qt(fname)} returning set of table ${qt(fn.returnsTable)} is not tracked or not found in database`);
  } else {
    errors.push(`the function ${qt(fname)} returning type ${q(`${fn.returnType.schema}.${fn.returnType.name}`)} is not a BASE type`);
  }
  const args = inputArgs(fn);
  let tableArgIndex = -1;
  const argLabel = (i: number, named: boolean) => (named ? `${q(fn.args[i].name ?? '')} argument of the function ${qt(fname)}` : `first argument of the function ${qt(fname)}`);
  const checkTableArg = (i: number, named: boolean) => {
    const a = fn.args[i];
    const argType = catalogTypeKind(a.type, a.typeSchema, catalog);
    if (argType !== 'composite') errors.push(`${argLabel(i, named)} is not COMPOSITE type`);
    if (!(a.typeSchema === info.name.schema && a.type === info.name.name)) {
      errors.push(`${argLabel(i, named)} of type ${q(`${a.typeSchema}.${a.type}`)} is not the table to which the computed field is being added`);
    }
    tableArgIndex = i;
  };
  if (cf.definition.table_argument !== undefined) {
    const i = fn.args.findIndex((a) => a.name === cf.definition.table_argument);
    if (i < 0) errors.push(`${q(cf.definition.table_argument)} is not an input argument of the function ${qt(fname)}`);
    else checkTableArg(i, true);
  } else if (args.length === 0) {
    errors.push(`the function ${qt(fname)} has no input arguments`);
  } else checkTableArg(fn.args.indexOf(args[0]), false);
  let sessionArgIndex: number | null = null;
  if (cf.definition.session_argument !== undefined) {
    const i = fn.args.findIndex((a) => a.name === cf.definition.session_argument);
    if (i < 0) errors.push(`${q(cf.definition.session_argument)} is not an input argument of the function ${qt(fname)}`);
    else if (fn.args[i].type !== 'json' && fn.args[i].type !== 'jsonb') errors.push(`${q(cf.definition.session_argument)} argument of the function ${qt(fname)} is not of type JSON`);
    else sessionArgIndex = i;
  }
  if (errors.length) {
    fail(`${ctx}the computed field ${q(cf.name)} cannot be added to table ${qt(info.name)} ${reasonMessage(errors)}`);
  }
  return { name: cf.name, function: fname, pgFunction: fn, tableArgIndex, sessionArgIndex, returns: returns!, comment: cf.comment };
}

/** Composite when the type is some relation's row type; base types otherwise (the catalog has no type list). */
function catalogTypeKind(type: string, schema: string, catalog: PgCatalog): 'composite' | 'base' {
  return catalog.tables[`${schema}.${type}`] ? 'composite' : 'base';
}

export function resolveFunction(
  name: QualifiedName,
  sessionArgument: string | null,
  tables: Record<string, TableInfo>,
  catalog: PgCatalog,
): FunctionInfo {
  const fns = catalog.functions[qualifiedKey(name)];
  if (!fns || fns.length === 0) fail(`no such function exists in postgres : ${qt(name)}`);
  if (fns.length > 1) fail(`function ${qt(name)} is overloaded. Overloaded functions are not supported`);
  const fn = fns[0];
  const reasons: string[] = [];
  if (!GRAPHQL_NAME.test(name.name)) reasons.push('function name is not a legal GraphQL identifier');
  if (fn.args.some((a) => a.mode === 'variadic')) reasons.push('function with "VARIADIC" parameters are not supported');
  if (fn.returnTypeKind !== 'composite' && !fn.returnsTable) reasons.push('the function does not return a "COMPOSITE" type');
  if (!fn.returnsSet) reasons.push('the function does not return a SETOF');
  if (fn.returnsTable && !tables[qualifiedKey(fn.returnsTable)]) reasons.push('the function does not return a SETOF table');
  if (fn.volatility === 'volatile') reasons.push('function of type "VOLATILE" is not supported now');
  if (sessionArgument !== null) {
    const a = fn.args.find((x) => x.name === sessionArgument);
    if (!a) reasons.push(`given session argument ${q(sessionArgument)} not the input argument of the function`);
    else if (a.type !== 'json') reasons.push(`given session argument ${q(sessionArgument)} is not of type json`);
  }
  const badArgs = fn.args.filter((a) => a.name !== null && a.name !== sessionArgument && !GRAPHQL_NAME.test(a.name)).map((a) => a.name);
  if (badArgs.length) reasons.push(`the function arguments ${badArgs.join(',')} are not in compliance with GraphQL spec`);
  if (reasons.length) fail(`the function ${qt(name)} cannot be tracked ${reasonMessage(reasons)}`);
  return { name, pg: fn, returnsTable: fn.returnsTable!, sessionArgument, comment: fn.comment };
}

