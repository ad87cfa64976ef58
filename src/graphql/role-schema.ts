// The types the two halves of src/graphql share: a role's schema (built by schema/), the translator that reads it
// while turning a request into IR (request/), and the root fields that features add to both. Types only: schema/
// and request/ both import them, so neither needs the other's modules for its types.
import type { GraphQLFieldConfig, GraphQLSchema } from 'graphql';
import type { ColumnInfo, SchemaCache } from '../cache/types.js';
import type { BoolExpIR, FieldIR } from '../ir/types.js';
import type { RootFieldIR } from '../ir/operation.js';
import type { CollectContext, CollectedField } from './request/collect.js';
import type { FunctionView, RoleContext, TableView } from './schema/context.js';

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
 * whole-schema extensions applied last (remote schemas: src/remote). The composition root (src/features.ts) builds
 * it and passes it down to every caller of roleSchema; nothing registers itself at module load.
 */
export interface SchemaExtensions {
  readonly queryFields: readonly QueryFieldContributor[];
  readonly mutationFields: ReadonlyArray<(ctx: RoleContext) => MutationFieldContribution[]>;
  readonly roleSchema: ReadonlyArray<(cache: SchemaCache, rs: RoleSchema) => RoleSchema>;
}

/**
 * A query_root field contributed by another feature (actions, remote schemas...): its config plus its translation to
 * IR. `subscription: false` keeps it out of subscription_root (e.g. query actions).
 */
export interface QueryFieldContribution {
  name: string;
  config: GraphQLFieldConfig<unknown, unknown>;
  subscription: boolean;
  translate(t: Translator, f: CollectedField): RootFieldIR;
}

/** A feature's extra query_root fields for a role (passed to buildRoleSchema in SchemaExtensions: build.ts). */
export type QueryFieldContributor = (ctx: RoleContext) => QueryFieldContribution[];

export type RootFieldMeta =
  | { kind: 'extension'; subscription: boolean; translate: QueryFieldContribution['translate'] }
  | { kind: 'select'; view: TableView }
  | { kind: 'select_by_pk'; view: TableView; pk: ColumnInfo[] }
  | { kind: 'aggregate'; view: TableView }
  | { kind: 'function'; fn: FunctionView }
  | { kind: 'function_aggregate'; fn: FunctionView };

/** A mutation_root field of another feature (actions) with its own translation to IR. */
export interface MutationFieldContribution {
  name: string;
  config: GraphQLFieldConfig<unknown, unknown>;
  translate(t: Translator, f: CollectedField): RootFieldIR;
}

/** The translation of one request to IR: the role's schema, fragments and variables, and memoised permission filters. */
export interface Translator {
  rs: RoleSchema;
  cc: CollectContext;
  stringifyNumeric: boolean;
  perm: Map<string, BoolExpIR | null>;
}
