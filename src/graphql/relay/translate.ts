// Relay selections → IR: `<t>_connection` / `<fn>_connection` root fields, `<rel>_connection` and `id` fields of
// table types (the hook the translator calls for every table field of a Relay schema), and `node(id:)`.
import { Kind, type FieldNode, type GraphQLObjectType, type InlineFragmentNode, type SelectionNode, type SelectionSetNode } from 'graphql';
import { EngineError, isEngineError } from '../../core/errors.js';
import { extendPath } from '../../core/json-path.js';
import { displayName, qualifiedKey } from '../../core/names.js';
import type { BoolExpIR, ConnectionFieldIR, ConnectionIR, EdgeFieldIR, FieldIR, OrderByIR, OrderByTarget, PageInfoFieldIR, PgTypeRef, SelectSource, ValueIR } from '../../ir/types.js';
import type { RootFieldIR } from '../../ir/operation.js';
import type { ColumnInfo } from '../../cache/types.js';
import type { FunctionView, TableView } from '../schema/context.js';
import { isStringifiedType, parsePgValue } from '../schema/scalars.js';
import { collectFields, fieldArgs, type CollectContext, type CollectedField, type SubSelection } from '../request/collect.js';
import { concrete, ve, type Parsed } from '../request/input.js';
import { colPgType, functionSource, selectArgsIR, tableFields } from '../request/translate.js';
import type { Translator } from '../role-schema.js';
import { decodeCursor, decodeNodeId } from './node-id.js';
import { schemaTypes } from '../schema-types.js';

const INT8: PgTypeRef = { type: 'int8', typeSchema: 'pg_catalog', array: false };
const NUMERIC: PgTypeRef = { type: 'numeric', typeSchema: 'pg_catalog', array: false };

const objectType = (t: Translator, name: string): GraphQLObjectType => schemaTypes(t.rs).getType(name) as GraphQLObjectType;

function primaryKey(view: TableView): ColumnInfo[] {
  const names = view.info.pg.primaryKey?.columns ?? [];
  return names.map((n) => view.info.columns.find((c) => c.name === n)).filter((c): c is ColumnInfo => !!c);
}

function nodeIdField(t: Translator, view: TableView): FieldIR {
  return {
    kind: 'node_id',
    table: view.info.name,
    columns: primaryKey(view).map((c) => ({ column: c.name, type: c.type, stringify: t.stringifyNumeric && isStringifiedType(c.type) })),
  };
}

/** The Relay fields of a table type (`id`, `<rel>_connection`); null hands the field back to the usual translation. */
export function relayTableField(t: Translator, view: TableView, f: CollectedField): FieldIR | null {
  if (f.name === 'id') {
    fieldArgs(f, t.cc);
    return nodeIdField(t, view);
  }
  if (f.name.endsWith('_connection')) {
    const rel = view.arrayRels.get(f.name.slice(0, -'_connection'.length));
    if (rel) {
      const source: SelectSource = { kind: 'table', table: rel.remote.info.name };
      return { kind: 'array_connection', relationship: rel.rel, connection: connectionIR(t, rel.remote, source, fieldArgs(f, t.cc), f) };
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// connections

const given = (t: Translator, p: Parsed | undefined): boolean => p !== undefined && concrete(p, t.cc.lc).kind !== 'null';

/** The JSON path of an order-by item's value in a cursor, as the original writes cursors. */
function cursorPath(target: OrderByTarget): string[] {
  switch (target.kind) {
    case 'column':
      return [target.column];
    case 'object_relationship':
      return [target.relationship.name, ...cursorPath(target.target)];
    case 'array_aggregate':
      return target.op === 'count'
        ? [`${target.relationship.name}_aggregate`, 'count']
        : [`${target.relationship.name}_aggregate`, target.op, target.column];
  }
}

/** The Postgres type an order-by item's value has, for the cursor's values. */
function targetType(t: Translator, view: TableView, target: OrderByTarget): PgTypeRef {
  const remote = (rt: { schema: string; name: string }) => t.rs.ctx.cache.tables[qualifiedKey(rt)];
  const colType = (cols: ColumnInfo[] | undefined, name: string): PgTypeRef => {
    const c = cols?.find((x) => x.name === name);
    return c ? colPgType(c) : { type: 'text', typeSchema: 'pg_catalog', array: false };
  };
  switch (target.kind) {
    case 'column':
      return colType(view.info.columns, target.column);
    case 'object_relationship': {
      const rv = t.rs.ctx.tables.get(qualifiedKey(target.relationship.remoteTable));
      if (rv) return targetType(t, rv, target.target);
      return target.target.kind === 'column' ? colType(remote(target.relationship.remoteTable)?.columns, target.target.column) : NUMERIC;
    }
    case 'array_aggregate':
      if (target.op === 'count') return INT8;
      if (target.op === 'max' || target.op === 'min') return colType(remote(target.relationship.remoteTable)?.columns, target.column);
      return NUMERIC;
  }
}

function sliceCount(t: Translator, p: Parsed, name: string, path: string): ValueIR {
  if (p.kind === 'variable') return { kind: 'variable', name: p.name, path: p.path ?? [], pgType: INT8 };
  const c = concrete(p, t.cc.lc);
  const n = c.kind === 'scalar' ? c.json : null;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw ve(`expecting Integer value for "${name}"`, path);
  if (n < 0) throw new EngineError('not-supported', 'unexpected negative value', { path });
  return { kind: 'literal', value: n, pgType: INT8 };
}

export function connectionIR(t: Translator, view: TableView, source: SelectSource, args: Map<string, Parsed>, f: CollectedField): ConnectionIR {
  const after = args.get('after');
  const before = args.get('before');
  const hasAfter = given(t, after);
  const hasBefore = given(t, before);
  if (hasAfter && hasBefore) throw ve('"after" and "before" are not allowed at once', f.path);
  const first = args.get('first');
  const last = args.get('last');
  const hasFirst = given(t, first);
  const hasLast = given(t, last);
  if (hasFirst && hasLast) throw ve('"first" and "last" are not allowed at once', f.path);

  const sel = selectArgsIR(t, view, args, f.path);
  // The primary key completes the order, so that a cursor names one row.
  const pk = primaryKey(view);
  const ordered = new Set(sel.orderBy.flatMap((o) => (o.target.kind === 'column' ? [o.target.column] : [])));
  const orderBy: OrderByIR[] = [
    ...sel.orderBy,
    ...pk.filter((c) => !ordered.has(c.name)).map((c): OrderByIR => ({ target: { kind: 'column', column: c.name }, direction: 'asc', nulls: 'last' })),
  ];
  const cursorPaths = orderBy.map((o) => cursorPath(o.target));

  let split: ConnectionIR['split'] = null;
  if (hasAfter || hasBefore) {
    const p = concrete((hasAfter ? after : before) as Parsed, t.cc.lc);
    const text = p.kind === 'scalar' ? String(p.json) : '';
    const cursor = decodeCursor(text);
    const invalid = () => ve('the "after" or "before" cursor is invalid', f.path);
    if (cursor === undefined || cursor === null || typeof cursor !== 'object') throw invalid();
    const values = orderBy.map((o, i): ValueIR => {
      let v: unknown = cursor;
      for (const k of cursorPaths[i]) {
        if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.prototype.hasOwnProperty.call(v, k)) throw invalid();
        v = (v as Record<string, unknown>)[k];
      }
      return { kind: 'literal', value: v, pgType: targetType(t, view, o.target) };
    });
    split = { kind: hasAfter ? 'after' : 'before', values };
  }

  let slice: ConnectionIR['slice'] = null;
  if (hasFirst) slice = { kind: 'first', count: sliceCount(t, first as Parsed, 'first', extendPath(f.path, 'args', 'first')) };
  if (hasLast) slice = { kind: 'last', count: sliceCount(t, last as Parsed, 'last', extendPath(f.path, 'args', 'last')) };

  return {
    source,
    args: { ...sel, orderBy, limit: null, offset: null },
    cursorPaths,
    split,
    slice,
    fields: connectionFields(t, view, f),
  };
}

function connectionFields(t: Translator, view: TableView, f: CollectedField): Array<[string, ConnectionFieldIR]> {
  const connName = `${view.names.object}Connection`;
  const edgeName = `${view.names.object}Edge`;
  const out: Array<[string, ConnectionFieldIR]> = [];
  for (const cf of collectFields(objectType(t, connName), f.subSelections, t.cc)) {
    if (cf.name === '__typename') {
      out.push([cf.alias, { kind: 'typename', name: connName }]);
    } else if (cf.name === 'pageInfo') {
      const fields = collectFields(objectType(t, 'PageInfo'), cf.subSelections, t.cc).map((pf): [string, PageInfoFieldIR] =>
        [pf.alias, pf.name === '__typename' ? { kind: 'typename', name: 'PageInfo' } : { kind: pf.name as 'hasNextPage' }]);
      out.push([cf.alias, { kind: 'page_info', fields }]);
    } else {
      const fields = collectFields(objectType(t, edgeName), cf.subSelections, t.cc).map((ef): [string, EdgeFieldIR] => {
        if (ef.name === '__typename') return [ef.alias, { kind: 'typename', name: edgeName }];
        if (ef.name === 'cursor') return [ef.alias, { kind: 'cursor' }];
        return [ef.alias, { kind: 'node', fields: tableFields(t, view, ef) }];
      });
      out.push([cf.alias, { kind: 'edges', fields }]);
    }
  }
  return out;
}

export function connectionRootField(t: Translator, target: { view: TableView; fn: FunctionView | null }, f: CollectedField): RootFieldIR {
  const args = fieldArgs(f, t.cc);
  const source: SelectSource = target.fn ? functionSource(t, target.fn, args, f.path) : { kind: 'table', table: target.view.info.name };
  return { kind: 'connection', connection: connectionIR(t, target.view, source, args, f) };
}

// ---------------------------------------------------------------------------------------------------------------
// node(id:)

/**
 * The selection of `node` for the id's table: fragments on that type or on Node are kept (as plain inline fragments),
 * fragments on other types dropped; fields outside fragments must be Node's.
 */
function forType(sel: SelectionSetNode, type: string, cc: CollectContext, path: string): SelectionSetNode {
  const keep = (s: SelectionNode): SelectionNode | null => {
    if (s.kind === Kind.FIELD) {
      if (s.name.value !== 'id' && s.name.value !== '__typename') throw ve(`field "${s.name.value}" not found in type: 'Node'`, extendPath(path, s.name.value));
      return s;
    }
    if (s.kind === Kind.INLINE_FRAGMENT) {
      const on = s.typeCondition?.name.value;
      if (on === undefined || on === 'Node') return { ...s, typeCondition: undefined, selectionSet: forType(s.selectionSet, type, cc, path) };
      return on === type ? { ...s, typeCondition: undefined } : null;
    }
    const frag = cc.fragments.get(s.name.value);
    if (!frag) return s; // collectFields reports it
    const on = frag.typeCondition.name.value;
    if (on === type) return s;
    if (on !== 'Node') return null;
    const inline: InlineFragmentNode = {
      kind: Kind.INLINE_FRAGMENT, directives: s.directives, selectionSet: forType(frag.selectionSet, type, cc, path),
    };
    return inline;
  };
  return { ...sel, selections: sel.selections.map(keep).filter((s): s is SelectionNode => s !== null) };
}

export function nodeRootField(t: Translator, f: CollectedField): RootFieldIR {
  const args = fieldArgs(f, t.cc);
  const idPath = extendPath(f.path, 'args', 'id');
  const p = concrete(args.get('id') as Parsed, t.cc.lc);
  const id = decodeNodeId(p.kind === 'scalar' ? String(p.json) : '', idPath);
  const view = t.rs.ctx.tables.get(qualifiedKey({ schema: id.schema, name: id.name }));
  if (!view) throw ve(`table "${displayName({ schema: id.schema, name: id.name })}" not found`, f.path);
  const pk = primaryKey(view);
  if (id.values.length < pk.length) {
    const missing = pk.slice(id.values.length).map((c) => `"${c.name}"`).join(', ');
    throw ve(`the node id is invalid: primary key columns ${missing} are missing`, f.path);
  }
  if (id.values.length > pk.length) throw ve(`the node id is invalid: unexpected column values ${JSON.stringify(id.values.slice(pk.length))}`, f.path);
  const conds = pk.map((c, i): BoolExpIR => {
    let v: unknown;
    try {
      v = parsePgValue(c.type, c.isArray, id.values[i], f.path);
    } catch (e) {
      if (isEngineError(e)) throw new EngineError('parse-failed', `value of column "${c.name}" in node id: ${e.message}`, { path: f.path });
      throw e;
    }
    return { kind: 'column', column: c.name, op: '_eq', value: { kind: 'literal', value: v, pgType: colPgType(c) } };
  });
  const sel = selectArgsIR(t, view, new Map(), f.path, { kind: 'and', items: conds });
  const subs: SubSelection[] = f.subSelections.map((s) => ({ ...s, selectionSet: forType(s.selectionSet, view.names.object, t.cc, s.path) }));
  const nodeField: CollectedField = { ...f, subSelections: subs, node: f.node as FieldNode };
  return {
    kind: 'select_one',
    select: {
      source: { kind: 'table', table: view.info.name },
      args: { ...sel, limit: null, permissionLimit: null, offset: null },
      fields: tableFields(t, view, nodeField),
    },
  };
}
