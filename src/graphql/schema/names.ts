// GraphQL type and root-field names and the descriptions the original engine writes for them.
import { graphqlBaseName, quoteName, type QualifiedName } from '../../core/names.js';
import type { TableInfo } from '../../cache/types.js';

export const AGGREGATE_OPS = ['avg', 'max', 'min', 'stddev', 'stddev_pop', 'stddev_samp', 'sum', 'var_pop', 'var_samp', 'variance'] as const;
export type AggOp = (typeof AGGREGATE_OPS)[number];
/** Ops over numeric columns; max/min take every comparable column. */
export const NUMERIC_OPS: ReadonlySet<string> = new Set(['avg', 'stddev', 'stddev_pop', 'stddev_samp', 'sum', 'var_pop', 'var_samp', 'variance']);


export const typeNames = (q: QualifiedName) => {
  const b = graphqlBaseName(q);
  return {
    object: b,
    boolExp: `${b}_bool_exp`,
    orderBy: `${b}_order_by`,
    selectColumn: `${b}_select_column`,
    aggregate: `${b}_aggregate`,
    aggregateFields: `${b}_aggregate_fields`,
    aggregateOrderBy: `${b}_aggregate_order_by`,
    opFields: (op: string) => `${b}_${op}_fields`,
    opOrderBy: (op: string) => `${b}_${op}_order_by`,
    enumType: `${b}_enum`,
  };
};

export function rootFieldNames(t: TableInfo) {
  const b = graphqlBaseName(t.name);
  const c = t.customRootFields;
  return {
    select: c.select ?? b,
    selectByPk: c.select_by_pk ?? `${b}_by_pk`,
    selectAggregate: c.select_aggregate ?? `${b}_aggregate`,
  };
}

export const desc = {
  table: (t: TableInfo) => t.comment ?? `columns and relationships of ${quoteName(t.name)}`,
  select: (q: QualifiedName) => `fetch data from the table: ${quoteName(q)}`,
  selectByPk: (q: QualifiedName) => `fetch data from the table: ${quoteName(q)} using primary key columns`,
  selectAggregate: (q: QualifiedName) => `fetch aggregated fields from the table: ${quoteName(q)}`,
  fn: (f: QualifiedName, t: QualifiedName) => `execute function ${quoteName(f)} which returns ${quoteName(t)}`,
  fnAggregate: (f: QualifiedName, t: QualifiedName) =>
    `execute function ${quoteName(f)} and query aggregates on result of table type ${quoteName(t)}`,
  fnArgs: (f: QualifiedName) => `input type for function ${quoteName(f)}`,
  boolExp: (q: QualifiedName) =>
    `Boolean expression to filter rows from the table ${quoteName(q)}. All fields are combined with a logical 'AND'.`,
  comparison: (scalar: string) => `expression to compare columns of type ${scalar}. All fields are combined with logical 'AND'.`,
  orderBy: (q: QualifiedName) => `ordering options when selecting data from ${quoteName(q)}`,
  selectColumn: (q: QualifiedName) => `select columns of table ${quoteName(q)}`,
  aggregate: (q: QualifiedName) => `aggregated selection of ${quoteName(q)}`,
  aggregateFields: (q: QualifiedName) => `aggregate fields of ${quoteName(q)}`,
  opFields: (op: string, q: QualifiedName) => `aggregate ${op} on columns of table ${quoteName(q)}`,
  aggregateOrderBy: (q: QualifiedName) => `order by aggregate values of table ${quoteName(q)}`,
  opOrderBy: (op: string, q: QualifiedName) => `order by ${op}() on columns of table ${quoteName(q)}`,
  objRel: 'An object relationship',
  arrRel: 'An array relationship',
  arrRelAggregate: 'An aggregated array relationship',
  computedField: (f: QualifiedName) => `A computed field, executes function ${quoteName(f)}`,
  enumTable: (q: QualifiedName) => `expression to compare columns of type ${graphqlBaseName(q)}_enum. All fields are combined with logical 'AND'.`,
};
