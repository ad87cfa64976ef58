// The place where mutation root fields plug in (insert/update/delete arrive with the mutation work). Each
// contributor adds fields (and, through `named`, their types) to `mutation_root`; with no fields there is no
// mutation_root at all, as in the original ("no mutations exist").
import type { GraphQLFieldConfig } from 'graphql';
import type { RoleContext } from './context.js';

export type RootFieldContributor = (ctx: RoleContext) => Array<[string, GraphQLFieldConfig<unknown, unknown>]>;

/** Mutation field builders, run in order for every role schema. */
export const mutationContributors: RootFieldContributor[] = [];

export function mutationFields(ctx: RoleContext): Array<[string, GraphQLFieldConfig<unknown, unknown>]> {
  return mutationContributors.flatMap((c) => c(ctx));
}
