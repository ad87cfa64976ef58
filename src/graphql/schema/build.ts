// Builds the GraphQL schema of one role from the schema cache and the features' extensions, memoised per
// (extensions, state object, role): a new state (any metadata or catalog change) gets new schemas, lazily.
import {
  GraphQLIncludeDirective, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLSkipDirective, GraphQLString,
  type GraphQLFieldConfig,
} from 'graphql';
import type { SchemaCache } from '../../cache/types.js';
import type { EngineState } from '../../cache/state.js';
import type { MutationFieldContribution, RoleSchema, RootFieldMeta, SchemaExtensions } from '../role-schema.js';
import { buildRoleContext } from './context.js';
import { mutationFields } from './mutation.js';
import { queryRootFields } from './root.js';
import { sortedMap } from './types.js';

/** The role's schema from the cache and the features' extensions. */
export function buildRoleSchema(cache: SchemaCache, role: string, extensions: SchemaExtensions): RoleSchema {
  const ctx = buildRoleContext(cache, role);
  const roots = queryRootFields(ctx, extensions.queryFields);
  const queryFields = new Map<string, RootFieldMeta>();
  const configs: Array<[string, GraphQLFieldConfig<unknown, unknown>]> = [];
  for (const [name, config, meta] of roots) {
    if (queryFields.has(name)) continue; // a name clash: the first definition wins
    queryFields.set(name, meta);
    configs.push([name, config]);
  }
  if (configs.length === 0) {
    configs.push(['no_queries_available', { type: new GraphQLNonNull(GraphQLString) }]);
  }
  const query = new GraphQLObjectType({ name: 'query_root', fields: () => sortedMap(configs) });
  const subConfigs = configs.filter(([name]) => {
    const meta = queryFields.get(name);
    return meta !== undefined && (meta.kind !== 'extension' || meta.subscription);
  });
  const subscription = subConfigs.length > 0
    ? new GraphQLObjectType({ name: 'subscription_root', fields: () => sortedMap(subConfigs) })
    : undefined;
  const mFields = mutationFields(ctx);
  const mutationExtensions = new Map<string, MutationFieldContribution['translate']>();
  for (const contribute of extensions.mutationFields) {
    for (const c of contribute(ctx)) {
      if (mFields.some(([n]) => n === c.name)) continue; // a name clash: the table field wins
      mFields.push([c.name, c.config]);
      mutationExtensions.set(c.name, c.translate);
    }
  }
  const mutation = mFields.length > 0 ? new GraphQLObjectType({ name: 'mutation_root', fields: () => sortedMap(mFields) }) : undefined;
  // Only @include and @skip, as in the original.
  const schema = new GraphQLSchema({
    query, mutation, subscription, types: [...ctx.types.values()], directives: [GraphQLIncludeDirective, GraphQLSkipDirective],
  });
  let rs: RoleSchema = { role, ctx, schema, queryFields, hasMutations: !!mutation, mutationExtensions };
  for (const extend of extensions.roleSchema) rs = extend(cache, rs);
  return rs;
}

const memo = new WeakMap<SchemaExtensions, WeakMap<EngineState, Map<string, RoleSchema>>>();

/** buildRoleSchema memoised per (extensions, state, role). */
export function roleSchema(state: EngineState, role: string, extensions: SchemaExtensions): RoleSchema {
  let byState = memo.get(extensions);
  if (!byState) {
    byState = new WeakMap();
    memo.set(extensions, byState);
  }
  let byRole = byState.get(state);
  if (!byRole) {
    byRole = new Map();
    byState.set(state, byRole);
  }
  let s = byRole.get(role);
  if (!s) {
    s = buildRoleSchema(state.cache, role, extensions);
    byRole.set(role, s);
  }
  return s;
}
