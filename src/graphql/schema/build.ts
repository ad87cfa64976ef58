// Builds the GraphQL schema of one role from the schema cache and the features' extensions, memoised per
// (extensions, state object, role): a new state (any metadata or catalog change) gets new schemas, lazily.
import {
  GraphQLIncludeDirective, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLSkipDirective, GraphQLString,
  type GraphQLFieldConfig,
} from 'graphql';
import type { SchemaCache } from '../../cache/types.js';
import type { FieldIR } from '../../ir/types.js';
import type { CollectedField } from '../request/collect.js';
import type { Translator } from '../request/translate.js';
import type { EngineState } from '../../cache/state.js';
import { buildRoleContext, type RoleContext, type TableView } from './context.js';
import { mutationFields, type MutationFieldContribution } from './mutation.js';
import { queryRootFields, type QueryFieldContributor, type RootFieldMeta } from './root.js';
import { sortedMap } from './types.js';

export interface RoleSchema {
  role: string;
  ctx: RoleContext;
  schema: GraphQLSchema;
  /** query_root (and subscription_root) fields by name. */
  queryFields: Map<string, RootFieldMeta>;
  hasMutations: boolean;
  /** mutation_root fields of other features (actions), by name. */
  mutationExtensions: Map<string, MutationFieldContribution['translate']>;
  /** Root fields answered by remote schemas (src/remote), by operation: field name → remote schema name. */
  remote?: { query: Map<string, string>; mutation: Map<string, string> };
  /** Relay schemas (src/graphql/relay): translates the Relay fields of table types; null leaves a field to the usual path. */
  fieldHook?: (t: Translator, view: TableView, f: CollectedField) => FieldIR | null;
}

/**
 * What features above the schema cache add to every role's schema, in order: root fields (actions: src/actions) and
 * whole-schema extensions applied last (remote schemas: src/remote). The composition root (src/extensions.ts) builds
 * it and passes it down to every caller of roleSchema; nothing registers itself at module load.
 */
export interface SchemaExtensions {
  readonly queryFields: readonly QueryFieldContributor[];
  readonly mutationFields: ReadonlyArray<(ctx: RoleContext) => MutationFieldContribution[]>;
  readonly roleSchema: ReadonlyArray<(cache: SchemaCache, rs: RoleSchema) => RoleSchema>;
}

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
