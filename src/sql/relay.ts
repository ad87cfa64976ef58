// Relay connections and node ids → SQL, built like the other selects (Postgres builds the JSON).
// Note [Connection shape]: four levels over one row alias, so compiled expressions (order-by targets, node fields)
// mean the same row at every level:
//   rows:  SELECT [DISTINCT ON (...)] "a".* FROM <source> AS "a" WHERE <join, where, permission> [ORDER BY ...]
//   base:  SELECT "a".*, <cursor json> AS "__cursor", <order value i> AS "__ob_i",
//                 row_number() OVER (ORDER BY ...) AS "__rn", count(*) OVER () AS "__total" FROM (rows) AS "a"
//   page:  SELECT * FROM (base) AS "a" WHERE <after/before split> [ORDER BY "__rn" [DESC] LIMIT n]
//   json:  SELECT json_build_object('edges', json_agg(...ORDER BY "__rn"), 'pageInfo', ...) FROM (page) AS "a" <laterals>
// hasPreviousPage: a base row comes before the page (the first page row is not row 1); hasNextPage: one comes after
// it (its last row is not the base's last), as the original compares row numbers of the base and the page.
import type { ConnectionIR, FieldIR, NodeIdIR, ValueIR } from '../ir/types.js';
import { empty, ident, join, literal, raw, sql, type SQL } from './builder.js';
import { compileBoolExp, typedParam } from './boolexp.js';
import type { CompileContext } from './context.js';
import { sourceSql } from './functions.js';
import { targetExpr } from './orderby.js';
import { jsonObject, type Nesting } from './json.js';

/** Builds a row's JSON object (select.ts rowObject: passed in, as selects and connections nest in each other). */
export type RowObject = (fields: ReadonlyArray<readonly [string, FieldIR]>, alias: string, ctx: CompileContext, laterals: SQL[]) => SQL;

/** base64 of a json value's text without the line breaks Postgres's encoder adds every 76 characters. */
const base64 = (json: SQL): SQL => sql`translate(encode(convert_to((${json})::text, 'UTF8'), 'base64'), chr(10), '')`;

/** The global id of the row under `alias`. */
export function nodeIdExpr(f: NodeIdIR, alias: string): SQL {
  const values = f.columns.map((c) => (c.stringify ? sql`(${ident(alias, c.column)})::text` : ident(alias, c.column)));
  return base64(sql`json_build_array(1, ${literal(f.table.schema)}::text, ${literal(f.table.name)}::text, ${join(values, ', ')})`);
}

/** A literal count is written into the text (a checked integer), a variable stays a parameter. */
function countSql(v: ValueIR): SQL {
  if (v.kind === 'literal') {
    const n = typeof v.value === 'string' && /^\d+$/.test(v.value) ? Number(v.value) : v.value;
    if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) return raw(String(n));
  }
  return typedParam(v);
}

/** `{"k1": {"k2": value}}` for a cursor path. */
function nestedPair(path: readonly string[], v: SQL): [string, SQL] {
  const [head, ...rest] = path;
  if (rest.length === 0) return [head, v];
  return [head, jsonObject([nestedPair(rest, v)])];
}

const OB = (i: number): string => `__ob_${i}`;

/**
 * The after/before condition over the order values: (o1 > v1) OR (o1 = v1 AND ((o2 > v2) OR (o2 = v2 AND false)))
 * with `<` where the direction and the split kind say so (nulls order is not considered, as in the original).
 */
function splitCondition(c: ConnectionIR, alias: string): SQL | null {
  if (!c.split) return null;
  const { kind, values } = c.split;
  const items = c.args.orderBy.map((o, i) => {
    const forward = (kind === 'after') === (o.direction === 'asc');
    return { col: ident(alias, OB(i)), op: raw(forward ? '>' : '<'), v: typedParam(values[i]) };
  });
  const build = (i: number): SQL => {
    if (i >= items.length) return raw('false');
    const it = items[i];
    return sql`((${it.col} ${it.op} ${it.v}) OR ((${it.col} = ${it.v}) AND ${build(i + 1)}))`;
  };
  return build(0);
}

export function connectionQuery(c: ConnectionIR, alias: string, nest: Nesting, ctx: CompileContext, rowObject: RowObject): SQL {
  const a = ident(alias);
  const items = c.args.orderBy;
  const dir = (i: number): SQL => raw(`${items[i].direction === 'asc' ? 'ASC' : 'DESC'} ${items[i].nulls === 'first' ? 'NULLS FIRST' : 'NULLS LAST'}`);
  const orderList = (): SQL => join(items.map((o, i) => sql`${targetExpr(o.target, alias, ctx)} ${dir(i)}`), ', ');

  // rows
  const conds: SQL[] = [];
  if (nest.joinCond) conds.push(nest.joinCond);
  if (c.args.where && c.args.where.kind !== 'true') conds.push(compileBoolExp(c.args.where, alias, ctx));
  const where = conds.length === 0 ? empty : sql` WHERE ${join(conds, ' AND ')}`;
  const distinctCols = c.args.distinctOn && c.args.distinctOn.length > 0 ? join(c.args.distinctOn.map((col) => ident(alias, col)), ', ') : null;
  const rows = distinctCols
    // DISTINCT ON needs its columns first in ORDER BY (without an order_by the rest is the primary key)
    ? sql`SELECT DISTINCT ON (${distinctCols}) ${a}.* FROM ${sourceSql(c.source, nest.parentAlias)} AS ${a}${where} ORDER BY ${distinctCols}, ${orderList()}`
    : sql`SELECT ${a}.* FROM ${sourceSql(c.source, nest.parentAlias)} AS ${a}${where}`;

  // base
  const values = items.map((o) => targetExpr(o.target, alias, ctx));
  const cursor = jsonObject(items.map((_, i) => nestedPair(c.cursorPaths[i], values[i])));
  const obCols = values.map((v, i) => sql`, ${v} AS ${ident(OB(i))}`);
  const base = sql`SELECT ${a}.*, ${cursor} AS "__cursor"${obCols}, row_number() OVER (ORDER BY ${orderList()}) AS "__rn", count(*) OVER () AS "__total" FROM (${rows}) AS ${a}`;

  // page
  const split = splitCondition(c, alias);
  const perm = c.args.permissionLimit === null ? null : raw(String(Math.trunc(c.args.permissionLimit)));
  const n = c.slice ? countSql(c.slice.count) : null;
  const limit = n && perm ? sql`least(${n}, ${perm})` : n ?? perm;
  const backwards = c.slice?.kind === 'last';
  const slice = limit ? sql` ORDER BY ${ident(alias, '__rn')} ${raw(backwards ? 'DESC' : 'ASC')} LIMIT ${limit}` : empty;
  const page = sql`SELECT * FROM (${base}) AS ${a}${split ? sql` WHERE ${split}` : empty}${slice}`;

  // json
  const rn = ident(alias, '__rn');
  const laterals: SQL[] = [];
  const pairs = c.fields.map(([key, f]): [string, SQL] => {
    switch (f.kind) {
      case 'typename':
        return [key, sql`${literal(f.name)}::text`];
      case 'page_info':
        return [key, jsonObject(f.fields.map(([k, p]): [string, SQL] => {
          switch (p.kind) {
            case 'typename': return [k, sql`${literal(p.name)}::text`];
            case 'hasPreviousPage': return [k, sql`coalesce(min(${rn}) > 1, false)`];
            case 'hasNextPage': return [k, sql`coalesce(max(${rn}) < max(${ident(alias, '__total')}), false)`];
            case 'startCursor': return [k, base64(sql`(array_agg(${ident(alias, '__cursor')} ORDER BY ${rn} ASC))[1]`)];
            case 'endCursor': return [k, base64(sql`(array_agg(${ident(alias, '__cursor')} ORDER BY ${rn} DESC))[1]`)];
          }
        }))];
      case 'edges': {
        const edge = jsonObject(f.fields.map(([k, e]): [string, SQL] => {
          switch (e.kind) {
            case 'typename': return [k, sql`${literal(e.name)}::text`];
            case 'cursor': return [k, base64(ident(alias, '__cursor'))];
            case 'node': return [k, rowObject(e.fields, alias, ctx, laterals)];
          }
        }));
        return [key, sql`coalesce(json_agg(${edge} ORDER BY ${rn}), '[]')`];
      }
    }
  });
  return sql`SELECT ${jsonObject(pairs)} AS "json" FROM (${page}) AS ${a}${laterals}`;
}

