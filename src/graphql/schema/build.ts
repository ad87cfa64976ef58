// Builds the GraphQL schema of one role from the schema cache and the features' extensions, lazily, memoised per
// (extensions, state object, role) and reused by a later state that leaves what the role reads as it was.
import {
  GraphQLBoolean, GraphQLIncludeDirective, GraphQLInt, GraphQLNonNull, GraphQLSchema, GraphQLSkipDirective, GraphQLString,
  type GraphQLNamedType,
} from 'graphql';
import type { SchemaCache } from '../../cache/types.js';
import type { EngineState } from '../../cache/state.js';
import type { MutationFieldContribution, RoleSchema, RootFieldMeta, SchemaExtensions } from '../role-schema.js';
import { buildRoleContext } from './context.js';
import { hasTableMutations, mutationFields } from './mutation.js';
import { fillMutationFieldMetasLater } from './mutation-access.js';
import { queryRootFields } from './root.js';
import { LazyRootType, type FieldThunk } from './lazy-root.js';
import { structureOf } from '../../cache/memo.js';
import { own } from '../../../events/types.js';
import { setSchemaTypes } from '../schema-types.js';

/** The role's schema from the cache and the features' extensions (Note [Lazy role schemas]). */
export function buildRoleSchema(cache: SchemaCache, role: string, extensions: SchemaExtensions): RoleSchema {
  const ctx = buildRoleContext(cache, role);
  const roots = queryRootFields(ctx, extensions.queryFields);
  const queryFields = new Map<string, RootFieldMeta>();
  const configs: Array<[string, FieldThunk]> = [];
  for (const [name, config, meta] of roots) {
    if (queryFields.has(name)) continue; // a name clash: the first definition wins
    queryFields.set(name, meta);
    configs.push([name, config]);
  }
  if (configs.length === 0) {
    configs.push(['no_queries_available', () => ({ type: new GraphQLNonNull(GraphQLString) })]);
  }
  const query = new LazyRootType('query_root', configs);
  const subConfigs = configs.filter(([name]) => {
    const meta = queryFields.get(name);
    return meta !== undefined && (meta.kind !== 'extension' || meta.subscription);
  });
  const subscription = subConfigs.length > 0 ? new LazyRootType('subscription_root', subConfigs) : undefined;
  const contributions = extensions.mutationFields.flatMap((contribute) => contribute(ctx));
  const mutationExtensions = new Map<string, MutationFieldContribution['translate']>();
  let mFields: Array<[string, FieldThunk]> | null = null;
  // The tables' mutation fields and their metas are listed when first read; what other features add is kept unless
  // a table field has its name, so with contributions they are listed now.
  const mutationFieldList = (): Array<[string, FieldThunk]> => {
    if (mFields) return mFields;
    const list: Array<[string, FieldThunk]> = [];
    mFields = list; // (listing the tables' fields reads the metas, whose filler is this)
    list.push(...mutationFields(ctx));
    const taken = new Set(list.map(([n]) => n));
    for (const c of contributions) {
      if (taken.has(c.name)) continue; // a name clash: the table field (or the first) wins
      taken.add(c.name);
      list.push([c.name, () => c.config]);
      mutationExtensions.set(c.name, c.translate);
    }
    return list;
  };
  fillMutationFieldMetasLater(ctx, () => void mutationFieldList());
  const hasMutationFields = contributions.length > 0 ? mutationFieldList().length > 0 : hasTableMutations(ctx);
  const mutation = hasMutationFields ? new LazyRootType('mutation_root', mutationFieldList) : undefined;
  let whole: GraphQLSchema | null = null;
  // Only @include and @skip, as in the original.
  const schema = () => (whole ??= new GraphQLSchema({
    query, mutation, subscription, types: [...ctx.types.values()], directives: [GraphQLIncludeDirective, GraphQLSkipDirective],
  }));
  const base: RoleSchema = {
    role, ctx, get schema() { return schema(); }, queryFields, hasMutations: !!mutation, mutationExtensions,
  };
  const rootTypes = new Map<string, GraphQLNamedType>([query, mutation, subscription].flatMap((t) => (t ? [[t.name, t]] : [])));
  const limits = [...queryFields.values()].some((m) => m.kind === 'select' || m.kind === 'function');
  setSchemaTypes(base, {
    getQueryType: () => query,
    getMutationType: () => mutation,
    getSubscriptionType: () => subscription,
    getType: (name) => {
      if (whole) return whole.getType(name);
      const found = ctx.types.get(name) ?? rootTypes.get(name) ?? ALWAYS[name];
      if (found) return found;
      if (name === 'Int' && limits) return GraphQLInt;
      return schema().getType(name);
    },
  });
  let rs = base;
  for (const extend of extensions.roleSchema) rs = extend(cache, rs);
  return rs;
}

// Note [Lazy role schemas]
// A role's GraphQLSchema holds every type of every table it may see (about 15 per table) with their fields, and
// graphql-js's constructor resolves them all: at 1,000 tables half a second and 100 MB, on the first request after
// any change of the role's permissions. A request reads the root fields it selects and the types they reach. So
// the root types define each field, and make its config and the types it names, when the field is first read
// (lazy-root.ts; names and metas are decided up front); other types' field maps are thunks already; and the whole
// schema is built only when something asks for it (introspection, a remote schema merged in). The request path
// looks types up through schemaTypes (../schema-types.ts): the types made so far, the roots, the scalars every
// schema holds, and the whole schema for any other name. The whole schema is made of those very objects, so a
// request reads the same types either way, and printing or introspecting it defines every field as before.

/** Scalars every schema holds (the introspection types' fields use them). */
const ALWAYS: Record<string, GraphQLNamedType | undefined> = { String: GraphQLString, Boolean: GraphQLBoolean };

// Note [Role schemas across states]
// A role's schema is a function of the parts of the state it reads: the structure (everything but permissions) and
// this role's permissions of each table it has permissions on (every table for admin), the functions, the actions
// and custom types, and the remote schemas. The schema cache keeps those parts' identities while they do not change
// (src/cache/build.ts Note [Incremental cache]), so the list of them is the schema's key: a new state whose key for
// this role is the same reuses the schema built for the previous one, and a change of one role's permissions
// rebuilds that role's schema only, on its next request. With remote schemas the whole cache is in the key (their
// merge reads it all).

const memo = new WeakMap<SchemaExtensions, WeakMap<EngineState, Map<string, RoleSchema>>>();
/** The last schema built per (extensions, role), with the key it was built for. */
const lastBuilt = new WeakMap<SchemaExtensions, Map<string, { key: unknown[]; rs: RoleSchema }>>();

/** What the role's schema depends on, as identities (Note [Role schemas across states]). */
export function roleSchemaKey(state: EngineState, role: string): unknown[] {
  const { cache, metadata } = state;
  const functions = Object.keys(cache.functions).length ? cache.functions : null;
  const key: unknown[] = [functions, metadata.actions, metadata.custom_types, metadata.remote_schemas.length ? cache : null];
  for (const [k, info] of Object.entries(cache.tables)) {
    if (role === 'admin') key.push(k, structureOf(info));
    else {
      const perms = own(info.permissions, role);
      if (perms) key.push(k, structureOf(info), perms);
    }
  }
  return key;
}

const sameKey = (a: unknown[], b: unknown[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** buildRoleSchema memoised per (extensions, state, role), and reused across states while the role's key holds. */
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
    let last = lastBuilt.get(extensions);
    if (!last) {
      last = new Map();
      lastBuilt.set(extensions, last);
    }
    const key = roleSchemaKey(state, role);
    const before = last.get(role);
    if (before && sameKey(before.key, key)) s = before.rs;
    else {
      s = buildRoleSchema(state.cache, role, extensions);
      last.set(role, { key, rs: s });
    }
    byRole.set(role, s);
  }
  return s;
}
