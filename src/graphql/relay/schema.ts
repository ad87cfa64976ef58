// The Relay schema of a role (POST /v1beta1/relay): the tables with a primary key (and relationships to them) as
// `Node`s whose `id` is a global id, `<t>_connection` / `<fn>_connection` root fields, `<rel>_connection` array
// relationships, the `node(id:)` root field, and the same mutations. Memoised per (state, role) like the main schema.
import {
  GraphQLBoolean, GraphQLID, GraphQLIncludeDirective, GraphQLInt, GraphQLInterfaceType, GraphQLList, GraphQLNonNull,
  GraphQLObjectType, GraphQLSchema, GraphQLSkipDirective, GraphQLString,
  type GraphQLFieldConfig, type GraphQLFieldConfigArgumentMap,
} from 'graphql';
import { graphqlBaseName, quoteName } from '../../core/names.js';
import type { ColumnInfo, SchemaCache } from '../../cache/types.js';
import type { EngineState } from '../../cache/state.js';
import type { RoleSchema } from '../role-schema.js';
import { buildRoleContext, type RoleContext, type TableView } from '../schema/context.js';
import { mutationFields } from '../schema/mutation.js';
import { mutationFieldMetas } from '../schema/mutation-access.js';
import { desc, rootFieldNames } from '../schema/names.js';
import type { RootFieldMeta } from '../role-schema.js';
import { aggregateType, argsArgument, columnField, computedField, functionArgsType, selectArgs } from '../schema/select.js';
import { named, sortedMap } from '../schema/types.js';
import { connectionRootField, nodeRootField, relayTableField } from './translate.js';
import { memoByObjectAndKey } from '../../core/weak-memo.js';

/** Primary key columns of a table (all of them, whatever the role's column permissions: the id carries them). */
export function primaryKeyColumns(view: TableView): ColumnInfo[] {
  const names = view.info.pg.primaryKey?.columns ?? [];
  return names.map((n) => view.info.columns.find((c) => c.name === n)).filter((c): c is ColumnInfo => !!c);
}

const nodeInterface = (ctx: RoleContext): GraphQLInterfaceType => named(ctx, 'Node', () => new GraphQLInterfaceType({
  name: 'Node',
  description: 'An object with globally unique ID',
  fields: { id: { type: new GraphQLNonNull(GraphQLID), description: 'A globally unique identifier' } },
}));

const pageInfoType = (ctx: RoleContext): GraphQLObjectType => named(ctx, 'PageInfo', () => new GraphQLObjectType({
  name: 'PageInfo',
  fields: () => ({
    endCursor: { type: new GraphQLNonNull(GraphQLString) },
    hasNextPage: { type: new GraphQLNonNull(GraphQLBoolean) },
    hasPreviousPage: { type: new GraphQLNonNull(GraphQLBoolean) },
    startCursor: { type: new GraphQLNonNull(GraphQLString) },
  }),
}));

function edgeType(ctx: RoleContext, view: TableView): GraphQLObjectType {
  const name = `${view.names.object}Edge`;
  return named(ctx, name, () => new GraphQLObjectType({
    name,
    description: `An edge in a connection of ${quoteName(view.info.name)}`,
    fields: () => ({
      cursor: { type: new GraphQLNonNull(GraphQLString) },
      node: { type: new GraphQLNonNull(relayObjectType(ctx, view)) },
    }),
  }));
}

export function connectionType(ctx: RoleContext, view: TableView): GraphQLObjectType {
  const name = `${view.names.object}Connection`;
  return named(ctx, name, () => new GraphQLObjectType({
    name,
    description: `A Relay Connection object on ${quoteName(view.info.name)}`,
    fields: () => ({
      edges: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(edgeType(ctx, view)))) },
      pageInfo: { type: new GraphQLNonNull(pageInfoType(ctx)) },
    }),
  }));
}

/** where, order_by, distinct_on of a select, and after/before/first/last instead of limit/offset. */
export function connectionArgs(ctx: RoleContext, view: TableView): GraphQLFieldConfigArgumentMap {
  const { limit: _l, offset: _o, ...rest } = selectArgs(ctx, view);
  return sortedMap(Object.entries({
    ...rest,
    after: { type: GraphQLString },
    before: { type: GraphQLString },
    first: { type: GraphQLInt },
    last: { type: GraphQLInt },
  }));
}

/** The table's object type, implementing Node: its `id` is the global id (a column named id is hidden by it). */
export function relayObjectType(ctx: RoleContext, view: TableView): GraphQLObjectType {
  const name = view.names.object;
  return named(ctx, name, () => new GraphQLObjectType({
    name,
    description: desc.table(view.info),
    interfaces: () => [nodeInterface(ctx)],
    fields: () => {
      const f: Array<[string, GraphQLFieldConfig<unknown, unknown>]> = [];
      f.push(['id', { type: new GraphQLNonNull(GraphQLID) }]);
      for (const c of view.columns) if (c.graphqlName !== 'id') f.push([c.graphqlName, columnField(ctx, c)]);
      for (const [n, r] of view.objectRels) {
        f.push([n, { type: relayObjectType(ctx, r.remote), description: r.rel.comment ?? desc.objRel }]);
      }
      for (const [n, r] of view.arrayRels) {
        const obj = relayObjectType(ctx, r.remote);
        f.push([n, {
          type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(obj))),
          args: selectArgs(ctx, r.remote),
          description: r.rel.comment ?? desc.arrRel,
        }]);
        if (r.remote.access.allowAggregations) {
          f.push([`${n}_aggregate`, {
            type: new GraphQLNonNull(aggregateType(ctx, r.remote)), args: selectArgs(ctx, r.remote), description: r.rel.comment ?? desc.arrRelAggregate,
          }]);
        }
        f.push([`${n}_connection`, {
          type: new GraphQLNonNull(connectionType(ctx, r.remote)), args: connectionArgs(ctx, r.remote),
          description: r.rel.comment ?? 'An array relationship connection',
        }]);
      }
      for (const [n, cv] of view.computed) f.push([n, computedField(ctx, cv)]);
      return sortedMap(f);
    },
  }));
}

/** The role context restricted to what Relay can identify: tables with a primary key, relationships to them. */
function relayContext(cache: SchemaCache, role: string): RoleContext {
  const ctx = buildRoleContext(cache, role);
  for (const [key, view] of [...ctx.tables]) if (primaryKeyColumns(view).length === 0) ctx.tables.delete(key);
  for (const view of ctx.tables.values()) {
    for (const rels of [view.objectRels, view.arrayRels]) {
      for (const [n, r] of [...rels]) if (!ctx.tables.has(r.remote.key)) rels.delete(n);
    }
    for (const [n, cv] of [...view.computed]) if (cv.remote && !ctx.tables.has(cv.remote.key)) view.computed.delete(n);
  }
  ctx.functions = ctx.functions.filter((fn) => ctx.tables.has(fn.returns.key));
  // Created first, so every builder of the main schema (aggregate nodes, mutation returning...) that asks for a
  // table's object type by name gets the Relay one.
  for (const view of ctx.tables.values()) relayObjectType(ctx, view);
  return ctx;
}

type RootField = [string, GraphQLFieldConfig<unknown, unknown>, RootFieldMeta];

function relayRootFields(ctx: RoleContext): RootField[] {
  const out: RootField[] = [];
  out.push(['node', {
    type: nodeInterface(ctx),
    args: { id: { type: new GraphQLNonNull(GraphQLID), description: 'A globally unique id' } },
  }, { kind: 'extension', subscription: true, translate: (t, f) => nodeRootField(t, f) }]);
  for (const view of ctx.tables.values()) {
    const name = `${rootFieldNames(view.info).select}_connection`;
    out.push([name, {
      type: new GraphQLNonNull(connectionType(ctx, view)), args: connectionArgs(ctx, view), description: desc.select(view.info.name),
    }, { kind: 'extension', subscription: true, translate: (t, f) => connectionRootField(t, { view, fn: null }, f) }]);
  }
  for (const fn of ctx.functions) {
    const argsT = functionArgsType(ctx, fn.info.name, fn.info.pg.args, fn.inputArgs);
    const args = sortedMap(Object.entries({ ...argsArgument(argsT, fn.info.pg.args, fn.inputArgs), ...connectionArgs(ctx, fn.returns) }));
    out.push([`${graphqlBaseName(fn.info.name)}_connection`, {
      type: new GraphQLNonNull(connectionType(ctx, fn.returns)), args,
      description: fn.info.comment ?? desc.fn(fn.info.name, fn.returns.info.name),
    }, { kind: 'extension', subscription: true, translate: (t, f) => connectionRootField(t, { view: fn.returns, fn }, f) }]);
  }
  return out;
}

export function buildRelaySchema(cache: SchemaCache, role: string): RoleSchema {
  const ctx = relayContext(cache, role);
  const queryFields = new Map<string, RootFieldMeta>();
  const configs: Array<[string, GraphQLFieldConfig<unknown, unknown>]> = [];
  for (const [name, config, meta] of relayRootFields(ctx)) {
    if (queryFields.has(name)) continue;
    queryFields.set(name, meta);
    configs.push([name, config]);
  }
  const query = new GraphQLObjectType({ name: 'query_root', fields: () => sortedMap(configs) });
  const subscription = new GraphQLObjectType({ name: 'subscription_root', fields: () => sortedMap(configs) });
  // Mutations of tables with a primary key only (as the original's Relay schema).
  const metas = mutationFieldMetas(ctx);
  const mFields = mutationFields(ctx).filter(([name]) => {
    const meta = metas.get(name);
    if (!meta || (meta.table.pg.primaryKey?.columns.length ?? 0) > 0) return true;
    metas.delete(name);
    return false;
  }).map(([name, make]): [string, GraphQLFieldConfig<unknown, unknown>] => [name, make()]);
  const mutation = mFields.length > 0 ? new GraphQLObjectType({ name: 'mutation_root', fields: () => sortedMap(mFields) }) : undefined;
  const schema = new GraphQLSchema({
    query, mutation, subscription, types: [...ctx.types.values()], directives: [GraphQLIncludeDirective, GraphQLSkipDirective],
  });
  return { role, ctx, schema, queryFields, hasMutations: !!mutation, mutationExtensions: new Map(), fieldHook: relayTableField };
}

/** A role's Relay schema of a state, built on its first request. */
export const relaySchema = memoByObjectAndKey((state: EngineState, role: string): RoleSchema => buildRelaySchema(state.cache, role));

