// v1 `select` and `count` → SelectIR / AggregateIR → one statement through the SQL compiler. Columns may be names,
// wildcards ("*", "*.*", ...) or relationship selections with their own where/order_by/limit/offset; the role's
// select permissions (columns, filter, limit) apply at every level, as in the original.
import type { PathSegment } from '../../core/json-path.js';
import { displayName, quote as q } from '../../core/names.js';
import type { RelationshipInfo, TableInfo } from '../../cache/types.js';
import type { AggregateIR, BoolExpIR, FieldIR, OrderByIR, OrderByTarget, SelectIR, ValueIR } from '../../ir/types.js';
import { CompileContext } from '../../sql/context.js';
import { rootAggregate, rootSelect } from '../../sql/select.js';
import { andIR } from '../../ir/permission.js';
import { array, int, isObj, object, optional, parseFailed, required, string, stringList, tableName } from './args.js';
import { WhereParser } from './boolexp.js';
import { boolExpValues, Dml, dmlError, type SelectAccess } from './context.js';

const INT8 = { type: 'int8', typeSchema: 'pg_catalog', array: false };

// ---------------------------------------------------------------------------------------------------------------
// Parsed query

/** "*" is depth 0, "*.*" depth 1, ...: columns, then object and array relationships expanded `depth` levels. */
type ColumnSpec =
  | { kind: 'star'; depth: number }
  | { kind: 'column'; name: string }
  | { kind: 'relationship'; name: string; alias: string | null; query: SelectQ };

interface OrderBySpec {
  /** Where the item is in the args (for errors). */
  at: PathSegment[];
  path: string[];
  type: 'asc' | 'desc' | null;
  nulls: 'first' | 'last' | null;
}

interface SelectQ {
  columns: ColumnSpec[];
  where?: unknown;
  orderBy?: OrderBySpec[];
  limit?: number;
  offset?: number;
}

const STAR = /^\*(\.\*)*$/;

function parseColumn(v: unknown, path: PathSegment[]): ColumnSpec {
  if (typeof v === 'string') {
    if (STAR.test(v)) return { kind: 'star', depth: (v.length - 1) / 2 };
    return { kind: 'column', name: v };
  }
  const o = object(v, path, 'SelCol');
  const name = string(required(o, 'name', path), [...path, 'name']);
  const alias = optional(o, 'alias');
  return { kind: 'relationship', name, alias: alias === undefined ? null : string(alias, [...path, 'alias']), query: parseSelectQ(o, path) };
}

function parseOrderByItem(v: unknown, path: PathSegment[]): OrderBySpec {
  if (typeof v === 'string') {
    const sign = v[0];
    const col = sign === '+' || sign === '-' ? v.slice(1) : v;
    if (col === '') throw parseFailed('string format for order_by is "(+/-)col_name"', path);
    return { at: path, path: col.split('.'), type: sign === '-' ? 'desc' : sign === '+' ? 'asc' : null, nulls: null };
  }
  const o = object(v, path, 'OrderByItem');
  const column = string(required(o, 'column', path), [...path, 'column']);
  const t = optional(o, 'type');
  const n = optional(o, 'nulls');
  if (t !== undefined && t !== 'asc' && t !== 'desc') throw parseFailed('expecting asc or desc', [...path, 'type']);
  if (n !== undefined && n !== 'first' && n !== 'last') throw parseFailed('expecting first or last', [...path, 'nulls']);
  return { at: path, path: column.split('.'), type: (t as 'asc' | 'desc' | undefined) ?? null, nulls: (n as 'first' | 'last' | undefined) ?? null };
}

function parseSelectQ(o: Record<string, unknown>, path: PathSegment[]): SelectQ {
  const cols = array(required(o, 'columns', path), [...path, 'columns'], '[SelCol]');
  const q: SelectQ = { columns: cols.map((c, i) => parseColumn(c, [...path, 'columns', i])) };
  if (optional(o, 'where') !== undefined) q.where = o.where;
  const ob = optional(o, 'order_by');
  if (ob !== undefined) {
    q.orderBy = Array.isArray(ob) ? ob.map((x, i) => parseOrderByItem(x, [...path, 'order_by', i])) : [parseOrderByItem(ob, [...path, 'order_by'])];
  }
  if (optional(o, 'limit') !== undefined) q.limit = int(o.limit, [...path, 'limit']);
  if (optional(o, 'offset') !== undefined) q.offset = int(o.offset, [...path, 'offset']);
  return q;
}

// ---------------------------------------------------------------------------------------------------------------
// IR

/** Collects the session variables the statement needs while building. */
class Builder {
  readonly values: ValueIR[] = [];

  constructor(readonly d: Dml) {}

  note(e: BoolExpIR | null): BoolExpIR | null {
    this.values.push(...boolExpValues(e));
    return e;
  }

  relationshipAccess(rel: RelationshipInfo): { remote: TableInfo; access: SelectAccess } {
    const remote = this.d.tableByName(rel.remoteTable);
    if (!remote) throw dmlError('unexpected', `foreign table ${q(displayName(rel.remoteTable))} does not exist`);
    const access = this.d.selectAccess(remote);
    if (!access) {
      throw dmlError('permission-denied',
        `role ${q(this.d.role)} does not have permission to read relationship ${q(rel.name)}; no permission on table ${q(displayName(remote.name))}`);
    }
    return { remote, access };
  }

  /** Wildcard expansion: the role's columns in table order, then (deeper stars) every readable relationship. */
  star(table: TableInfo, access: SelectAccess, depth: number): ColumnSpec[] {
    const out: ColumnSpec[] = table.columns.filter((c) => access.columns.has(c.name)).map((c) => ({ kind: 'column', name: c.name }));
    if (depth > 0) {
      for (const rel of Object.values(table.relationships)) {
        const remote = this.d.tableByName(rel.remoteTable);
        if (!remote || !this.d.selectAccess(remote)) continue;
        out.push({ kind: 'relationship', name: rel.name, alias: null, query: { columns: [{ kind: 'star', depth: depth - 1 }] } });
      }
    }
    return out;
  }

  /** The original's resolveStar: explicit columns first, then the widest wildcard's columns not already there. */
  resolveStar(table: TableInfo, access: SelectAccess, cols: ColumnSpec[]): Array<[ColumnSpec, PathSegment | null]> {
    const explicit: Array<[ColumnSpec, PathSegment | null]> = [];
    let depth = -1;
    cols.forEach((c, i) => {
      if (c.kind === 'star') depth = Math.max(depth, c.depth);
      else explicit.push([c, i]);
    });
    if (depth < 0) return explicit;
    const same = (a: ColumnSpec, b: ColumnSpec) => a.kind === b.kind && (a as { name: string }).name === (b as { name: string }).name;
    const extra = this.star(table, access, depth).filter((c) => !explicit.some(([e]) => same(e, c)));
    return [...explicit, ...extra.map((c): [ColumnSpec, null] => [c, null])];
  }

  select(table: TableInfo, access: SelectAccess, sq: SelectQ, path: PathSegment[]): SelectIR {
    const fields: Array<[string, FieldIR]> = [];
    for (const [c, i] of this.resolveStar(table, access, sq.columns)) {
      const at = i === null ? [...path, 'columns'] : [...path, 'columns', i];
      if (c.kind === 'column') {
        if (!access.columns.has(c.name) || !table.columns.some((x) => x.name === c.name)) throw this.d.columnDenied('select', c.name, ...at);
        fields.push([c.name, this.d.columnField(table, c.name)]);
      } else if (c.kind === 'relationship') fields.push([c.alias ?? c.name, this.relationship(table, c, at)]);
    }
    const where = sq.where === undefined ? null : new WhereParser(this.d, [...path, 'where']).parse(table, access, sq.where);
    const orderBy = (sq.orderBy ?? []).map((o) => this.orderBy(table, access, o, o.at));
    if (sq.limit !== undefined && sq.limit < 0) throw dmlError('not-supported', 'unexpected negative value', ...path, 'limit');
    if (sq.offset !== undefined && sq.offset < 0) throw dmlError('not-supported', 'unexpected negative value', ...path, 'offset');
    return {
      source: { kind: 'table', table: table.name },
      args: {
        where: this.note(andIR([where, access.filter])),
        orderBy,
        limit: sq.limit === undefined ? null : { kind: 'literal', value: sq.limit, pgType: INT8 },
        permissionLimit: access.limit,
        offset: sq.offset === undefined ? null : { kind: 'literal', value: sq.offset, pgType: INT8 },
        distinctOn: null,
      },
      fields,
    };
  }

  private relationship(table: TableInfo, c: Extract<ColumnSpec, { kind: 'relationship' }>, at: PathSegment[]): FieldIR {
    const rel = table.relationships[c.name];
    if (!rel) {
      const isColumn = table.columns.some((x) => x.name === c.name);
      throw isColumn
        ? dmlError('unexpected-payload', `expecting a relationship; but, ${q(c.name)} is a postgres column; only relationships can be expanded`, ...at, 'name')
        : dmlError('not-exists', `relationship ${q(c.name)} does not exist`, ...at, 'name');
    }
    const { remote, access } = this.relationshipAccess(rel);
    const select = this.select(remote, access, c.query, at);
    if (rel.kind === 'object') {
      const sq = c.query;
      if (sq.where !== undefined || sq.limit !== undefined || sq.offset !== undefined || sq.orderBy !== undefined) {
        throw dmlError('unexpected-payload', "when selecting an 'obj_relationship' 'where', 'order_by', 'limit' and 'offset'  can't be used", ...at);
      }
      return { kind: 'object_relationship', relationship: rel, select };
    }
    return { kind: 'array_relationship', relationship: rel, select };
  }

  private orderBy(table: TableInfo, access: SelectAccess, o: OrderBySpec, at: PathSegment[]): OrderByIR {
    const direction = o.type ?? 'asc';
    return { target: this.orderTarget(table, access, o.path, at), direction, nulls: o.nulls ?? (direction === 'asc' ? 'last' : 'first') };
  }

  private orderTarget(table: TableInfo, access: SelectAccess, path: string[], at: PathSegment[]): OrderByTarget {
    const [name, ...rest] = path;
    const col = table.columns.find((c) => c.name === name);
    const rel = table.relationships[name];
    if (col) {
      if (rest.length > 0) throw dmlError('unexpected-payload', `${q(name)} is a Postgres column and cannot be chained further`, ...at);
      if (!access.columns.has(col.name)) throw this.d.columnDenied('select', col.name, ...at);
      if (!col.isArray && (col.type === 'geometry' || col.type === 'geography')) {
        throw dmlError('unexpected-payload', `${q(name)} has type 'geometry' and cannot be used in order_by`, ...at);
      }
      return { kind: 'column', column: col.name };
    }
    if (rel) {
      if (rest.length === 0) throw dmlError('unexpected-payload', `${q(name)} is a relationship and should be expanded`, ...at);
      if (rel.kind === 'array') throw dmlError('unexpected-payload', `${q(name)} is an array relationship and can't be used in 'order_by'`, ...at);
      const { remote, access: ra } = this.relationshipAccess(rel);
      return { kind: 'object_relationship', relationship: rel, filter: this.note(ra.filter) ?? { kind: 'true' }, target: this.orderTarget(remote, ra, rest, at) };
    }
    if (table.computedFields[name]) throw dmlError('unexpected-payload', `${q(name)} is a computed field and can't be used in 'order_by'`, ...at);
    throw dmlError('not-exists', `${q(name)} does not exist`, ...at);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Operations

export async function runSelect(d: Dml, raw: unknown): Promise<unknown> {
  const o = object(raw, [], 'SelectQuery');
  const name = tableName(required(o, 'table', []), ['table']);
  const sq = parseSelectQ(o, []);
  const table = d.table(name);
  const access = d.requireSelect(table);
  const b = new Builder(d);
  const ir = b.select(table, access, sq, []);
  d.checkSessionVariables(b.values);
  return d.json(rootSelect(ir, false, new CompileContext()));
}

export async function runCount(d: Dml, raw: unknown): Promise<unknown> {
  const o = object(raw, [], 'CountQuery');
  const name = tableName(required(o, 'table', []), ['table']);
  const distinctRaw = optional(o, 'distinct');
  const distinct = distinctRaw === undefined ? null : stringList(distinctRaw, ['distinct']);
  const whereRaw = optional(o, 'where');
  if (whereRaw !== undefined && !isObj(whereRaw)) throw parseFailed('parsing BoolExp failed, expected Object', ['where']);
  const table = d.table(name);
  const access = d.requireSelect(table, '; "count" is only allowed if the role has "select" permissions on the table');
  distinct?.forEach((c, i) => {
    if (!access.columns.has(c) || !table.columns.some((x) => x.name === c)) throw d.columnDenied('select', c, 'distinct', i);
  });
  const b = new Builder(d);
  const where = whereRaw === undefined ? null : new WhereParser(d, ['where']).parse(table, access, whereRaw);
  const agg: AggregateIR = {
    source: { kind: 'table', table: table.name },
    args: { where: b.note(andIR([where, access.filter])), orderBy: [], limit: null, permissionLimit: null, offset: null, distinctOn: distinct },
    fields: [['aggregate', { kind: 'aggregate', fields: [['count', { kind: 'count', columns: null, distinct: false }]] }]],
  };
  d.checkSessionVariables(b.values);
  const r = (await d.jsonValue(rootAggregate(agg, new CompileContext()))) as { aggregate: { count: number } };
  return { count: Number(r.aggregate.count) };
}
