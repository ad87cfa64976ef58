// The fields of `mutation_root`: the tables' insert/update/delete fields (mutation-fields.ts), and the type of the
// fields other features add (actions, passed in through SchemaExtensions: build.ts). With no fields there is no
// mutation_root at all, as in the original ("no mutations exist").
import type { GraphQLFieldConfig } from 'graphql';
import type { RootFieldIR } from '../../ir/types.js';
import type { CollectedField } from '../request/collect.js';
import type { Translator } from '../request/translate.js';
import type { RoleContext } from './context.js';
import { tableMutationRootFields } from './mutation-fields.js';

/** A mutation_root field of another feature (actions) with its own translation to IR. */
export interface MutationFieldContribution {
  name: string;
  config: GraphQLFieldConfig<unknown, unknown>;
  translate(t: Translator, f: CollectedField): RootFieldIR;
}

/** The tables' mutation_root fields for a role. */
export function mutationFields(ctx: RoleContext): Array<[string, GraphQLFieldConfig<unknown, unknown>]> {
  return tableMutationRootFields(ctx);
}
