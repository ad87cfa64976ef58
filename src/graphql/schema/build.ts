// Builds the GraphQL schema of one role from the schema cache, memoised per (state object, role): a new state (any
// metadata or catalog change) gets new schemas, lazily.
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
import { mutationExtensionContributors, mutationFields, type MutationFieldContribution } from './mutation.js';
import { queryRootFields, type RootFieldMeta } from './root.js';
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
 * Features above the schema cache that add to every role's schema (remote schemas: src/remote), applied in order
 * by buildRoleSchema; registered at module load.
 */
export const schemaExtensions: Array<(cache: SchemaCache, rs: RoleSchema) => RoleSchema> = [];

/** The role's schema; `extended: false` leaves out schemaExtensions (what they are checked against). */
export function buildRoleSchema(cache: SchemaCache, role: string, extended = true): RoleSchema {
  const ctx = buildRoleContext(cache, role);
  const roots = queryRootFields(ctx);
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
  for (const contribute of mutationExtensionContributors) {
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
  if (extended) for (const extend of schemaExtensions) rs = extend(cache, rs);
  return rs;
}

const memo = new WeakMap<EngineState, Map<string, RoleSchema>>();

export function roleSchema(state: EngineState, role: string): RoleSchema {
  let byRole = memo.get(state);
  if (!byRole) {
    byRole = new Map();
    memo.set(state, byRole);
  }
  let s = byRole.get(role);
  if (!s) {
    s = buildRoleSchema(state.cache, role);
    byRole.set(role, s);
  }
  return s;
}
