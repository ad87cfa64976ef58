// SelectIR / AggregateIR → one SELECT whose single column "json" is the field's JSON, built by Postgres.
// Shape (Note [Select shape]):
//   SELECT coalesce(json_agg(row_to_json("_2_e") ORDER BY ...), '[]') AS "json"
//   FROM (SELECT "_root"."c", ... FROM "s"."t" AS "_root" WHERE ... [ORDER BY ... LIMIT ... OFFSET ...]) AS "_root"
//   LEFT JOIN LATERAL (<nested select>) AS "_1_rel.j" ON true
//   CROSS JOIN LATERAL (SELECT "_root"."c" AS "k", "_1_rel.j"."json" AS "rel") AS "_2_e"   (Note [Row objects], json.ts)
// The base subquery selects the columns the levels above read (columns.ts), or `*` when a computed field takes the
// whole row (then the alias is a row of the table type); it orders only when LIMIT/OFFSET/DISTINCT ON need it, and
// json_agg orders the output. Order expressions only mention the alias, which names the table inside the base and
// the base outside, so one compiled ORDER BY serves both levels.
import type { AggregateIR, ConnectionIR, FieldIR, SelectArgsIR, SelectIR, SelectSource, ValueIR } from '../ir/types.js';
import { empty, ident, join, literal, raw, sql, value, type SQL } from './builder.js';
import type { CompileContext } from './context.js';
import { functionCall, sourceSql } from './functions.js';
import { compileOrderBy } from './orderby.js';
import { toPgParam } from './params.js';
import { compileBoolExp, relationshipJoin, typedParam } from './boolexp.js';
import { aggregateCall, countExpr } from './aggregate.js';
import { aggregateColumns, selectColumns } from './columns.js';
import { connectionQuery, nodeIdExpr } from './relay.js';
import { jsonObject, ROOT, rowJson, type Nesting } from './json.js';


/**
 * A literal LIMIT/OFFSET is written into the text (a checked integer): with `LIMIT $1` Postgres's generic plan
 * guesses the row count, the plan cache keeps re-planning, and every execution pays the planning time.
 */
function countValue(v: ValueIR): SQL {
  if (v.kind === 'literal') {
    const n = typeof v.value === 'string' && /^-?\d+$/.test(v.value) ? Number(v.value) : v.value;
    if (typeof n === 'number' && Number.isSafeInteger(n)) return raw(String(n));
  }
  return typedParam(v);
}

function limitOffset(args: SelectArgsIR): SQL {
  const user = args.limit === null ? null : countValue(args.limit);
  const perm = args.permissionLimit === null ? null : raw(String(Math.trunc(args.permissionLimit)));
  const limit = user && perm ? sql` LIMIT least(${user}, ${perm})` : user ? sql` LIMIT ${user}` : perm ? sql` LIMIT ${perm}` : empty;
  const offset = args.offset === null ? empty : sql` OFFSET ${countValue(args.offset)}`;
  return sql`${limit}${offset}`;
}

/**
 * Note [Single-row bases]: an object relationship's base gets LIMIT 1. Without it Postgres may pull the lateral
 * subquery up into the parent's join tree and, on small tables, hash-join a sequential scan, building the JSON of
 * every remote row for every parent row (seen on the bench's Q6: 4x slower). With it the base stays a parameterised
 * per-row index lookup, and a relationship that matches several rows cannot duplicate the parent row.
 */
function baseFrom(
  source: SelectSource, args: SelectArgsIR, alias: string, orderBy: SQL | null, nest: Nesting, ctx: CompileContext, single: boolean,
  columns: string[] | null,
): SQL {
  const conds: SQL[] = [];
  if (nest.joinCond) conds.push(nest.joinCond);
  if (args.where && args.where.kind !== 'true') conds.push(compileBoolExp(args.where, alias, ctx));
  const where = conds.length === 0 ? empty : sql` WHERE ${join(conds, ' AND ')}`;
  const distinctCols = args.distinctOn && args.distinctOn.length > 0 ? join(args.distinctOn.map((c) => ident(alias, c)), ', ') : null;
  const distinct = distinctCols ? sql`DISTINCT ON (${distinctCols}) ` : empty;
  const needsOrder = args.limit !== null || args.permissionLimit !== null || args.offset !== null || distinctCols !== null;
  const order = !needsOrder ? empty : orderBy ? sql` ORDER BY ${orderBy}` : distinctCols ? sql` ORDER BY ${distinctCols}` : empty;
  const one = single && nest.parentAlias !== null && args.limit === null && args.permissionLimit === null && args.offset === null ? raw(' LIMIT 1') : empty;
  const list = columns === null ? raw('*') : join(columns.map((c) => ident(alias, c)), ', ');
  return sql`(SELECT ${distinct}${list} FROM ${sourceSql(source, nest.parentAlias)} AS ${ident(alias)}${where}${order}${limitOffset(args)}${one}) AS ${ident(alias)}`;
}

const JSON_PATH_TYPE = { type: 'text', typeSchema: 'pg_catalog', array: true };

function columnValue(f: Extract<FieldIR, { kind: 'column' }>, alias: string): SQL {
  let e = ident(alias, f.column);
  if (f.jsonPath && f.jsonPath.length > 0) e = sql`(${e} #> ${value(toPgParam(f.jsonPath, JSON_PATH_TYPE))}::text[])`;
  if (f.stringify) return sql`(${e})::text`;
  if (!f.isArray && (f.type === 'geometry' || f.type === 'geography')) return sql`ST_AsGeoJSON(${e}, 15, 4)::json`;
  return e;
}

/** The JSON object of one row; nested selects and the row's sub-select are appended to `laterals`. */
export function rowObject(fields: ReadonlyArray<readonly [string, FieldIR]>, alias: string, ctx: CompileContext, laterals: SQL[]): SQL {
  const lateral = (key: string, query: SQL): SQL => {
    const name = `${key}.j`;
    laterals.push(sql` LEFT JOIN LATERAL (${query}) AS ${ident(name)} ON true`);
    return ident(name, 'json');
  };
  const pairs = fields.map(([key, f]): [string, SQL] => {
    switch (f.kind) {
      case 'typename':
        return [key, sql`${literal(f.name)}::text`];
      case 'column':
        return [key, columnValue(f, alias)];
      case 'object_relationship': {
        const a = ctx.alias(key);
        return [key, lateral(a, selectQuery(f.select, a, true, { parentAlias: alias, joinCond: relationshipJoin(f.relationship, alias, a) }, ctx))];
      }
      case 'array_relationship': {
        const a = ctx.alias(key);
        return [key, lateral(a, selectQuery(f.select, a, false, { parentAlias: alias, joinCond: relationshipJoin(f.relationship, alias, a) }, ctx))];
      }
      case 'array_aggregate': {
        const a = ctx.alias(key);
        return [key, lateral(a, aggregateQuery(f.aggregate, a, { parentAlias: alias, joinCond: relationshipJoin(f.relationship, alias, a) }, ctx))];
      }
      case 'computed_scalar': {
        const call = functionCall(f.function, f.args, alias);
        return [key, f.stringify ? sql`(${call})::text` : call];
      }
      case 'computed_table': {
        const a = ctx.alias(key);
        return [key, lateral(a, selectQuery(f.select, a, !f.set, { parentAlias: alias, joinCond: null }, ctx))];
      }
      case 'node_id':
        return [key, nodeIdExpr(f, alias)];
      case 'array_connection': {
        const a = ctx.alias(key);
        return [key, lateral(a, connectionQuery(f.connection, a, { parentAlias: alias, joinCond: relationshipJoin(f.relationship, alias, a) }, ctx, rowObject))];
      }
      case 'remote_join':
        // The join values, replaced by the remote's answer once the statement has run (src/remote/join.ts).
        return [key, sql`json_build_object(${join(f.join.columns.map((c) => sql`${literal(c)}::text, ${ident(alias, c)}`), ', ')})`];
    }
  });
  return rowJson(pairs, ctx, laterals);
}

/** A select as a query with one row and one column "json": an array of objects, or (single) an object or no row. */
export function selectQuery(sel: SelectIR, alias: string, single: boolean, nest: Nesting, ctx: CompileContext): SQL {
  const orderBy = compileOrderBy(sel.args.orderBy, alias, ctx);
  const base = baseFrom(sel.source, sel.args, alias, orderBy, nest, ctx, single, selectColumns(sel.fields, sel.args.orderBy));
  const laterals: SQL[] = [];
  const obj = rowObject(sel.fields, alias, ctx, laterals);
  if (single) return sql`SELECT ${obj} AS "json" FROM ${base}${laterals}`;
  const ordered = orderBy ? sql` ORDER BY ${orderBy}` : empty;
  return sql`SELECT coalesce(json_agg(${obj}${ordered}), '[]') AS "json" FROM ${base}${laterals}`;
}

// Note [Permission limit and aggregates]
// As the original: when a `_aggregate` field asks for aggregate values, the role's permission limit does not cap
// the rows they are computed over (the client's own `limit` does); it caps only `nodes`, which then keeps the
// first rows of the (ordered) set. Without aggregate values, the permission limit caps the base rows as usual.

/**
 * The first `n` objects of an array_agg, as json_agg writes an array (`[{...}, {...}]`: array_to_json leaves out the
 * space), in order.
 */
const firstNodes = (objects: SQL, n: number): SQL =>
  sql`(SELECT coalesce(json_agg("_n"."o" ORDER BY "_n"."i"), '[]') FROM unnest((${objects})[1:${raw(String(n))}]) WITH ORDINALITY AS "_n" ("o", "i"))`;

/** `<t>_aggregate`: aggregate values and nodes over the same (filtered, ordered, limited) rows. */
export function aggregateQuery(agg: AggregateIR, alias: string, nest: Nesting, ctx: CompileContext): SQL {
  const orderBy = compileOrderBy(agg.args.orderBy, alias, ctx);
  const nodesLimit = agg.args.permissionLimit !== null && agg.fields.some(([, f]) => f.kind === 'aggregate')
    ? Math.trunc(agg.args.permissionLimit) : null;
  const args = nodesLimit === null ? agg.args : { ...agg.args, permissionLimit: null };
  const base = baseFrom(agg.source, args, alias, orderBy, nest, ctx, false, aggregateColumns(agg.fields, agg.args.orderBy));
  const laterals: SQL[] = [];
  const pairs = agg.fields.map(([key, f]): [string, SQL] => {
    switch (f.kind) {
      case 'typename':
        return [key, sql`${literal(f.name)}::text`];
      case 'nodes': {
        const obj = rowObject(f.fields, alias, ctx, laterals);
        const ordered = orderBy ? sql` ORDER BY ${orderBy}` : empty;
        if (nodesLimit !== null) return [key, firstNodes(sql`array_agg(${obj}${ordered})`, nodesLimit)];
        return [key, sql`coalesce(json_agg(${obj}${ordered}), '[]')`];
      }
      case 'aggregate':
        return [key, jsonObject(f.fields.map(([k, op]): [string, SQL] => {
          if (op.kind === 'typename') return [k, sql`${literal(op.name)}::text`];
          if (op.kind === 'count') return [k, countExpr(op, alias)];
          return [k, jsonObject(op.fields.map(([ck, c]): [string, SQL] =>
            c.kind === 'typename' ? [ck, sql`${literal(c.name)}::text`] : [ck, aggregateCall(op.op, ident(alias, c.column))]))];
        }))];
    }
  });
  return sql`SELECT ${jsonObject(pairs)} AS "json" FROM ${base}${laterals}`;
}

/** A root select (array, or `_by_pk` single). */
export const rootSelect = (sel: SelectIR, single: boolean, ctx: CompileContext): SQL => selectQuery(sel, '_root', single, ROOT, ctx);

export const rootAggregate = (agg: AggregateIR, ctx: CompileContext): SQL => aggregateQuery(agg, '_root', ROOT, ctx);

/** A root Relay connection (its edges' nodes are rows built by rowObject). */
export const rootConnection = (c: ConnectionIR, ctx: CompileContext): SQL => connectionQuery(c, '_root', ROOT, ctx, rowObject);
