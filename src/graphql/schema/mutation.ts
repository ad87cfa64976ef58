// The place where mutation root fields plug in (insert/update/delete arrive with the mutation work). Each
// contributor adds fields (and, through `named`, their types) to `mutation_root`; with no fields there is no
// mutation_root at all, as in the original ("no mutations exist").
import type { GraphQLFieldConfig } from 'graphql';
import type { RootFieldIR } from '../../ir/types.js';
import type { CollectedField } from '../request/collect.js';
import type { Translator } from '../request/translate.js';
import type { RoleContext } from './context.js';

export type RootFieldContributor = (ctx: RoleContext) => Array<[string, GraphQLFieldConfig<unknown, unknown>]>;

/** Mutation field builders, run in order for every role schema. */
export const mutationContributors: RootFieldContributor[] = [];

/** A mutation_root field of another feature (actions) with its own translation to IR. */
export interface MutationFieldContribution {
  name: string;
  config: GraphQLFieldConfig<unknown, unknown>;
  translate(t: Translator, f: CollectedField): RootFieldIR;
}

/** Contributors of such fields (register at module load). */
export const mutationExtensionContributors: Array<(ctx: RoleContext) => MutationFieldContribution[]> = [];

export function mutationFields(ctx: RoleContext): Array<[string, GraphQLFieldConfig<unknown, unknown>]> {
  return mutationContributors.flatMap((c) => c(ctx));
}
