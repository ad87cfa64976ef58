// What actions add to every role schema (wired in by src/features.ts as SchemaExtensions): mutation actions on
// mutation_root (an async one returns the new action id), query actions and `<action>(id:)` on query_root.
import { GraphQLNonNull } from 'graphql';
import type { RoleContext } from '../graphql/schema/context.js';
import type { QueryFieldContribution } from '../graphql/role-schema.js';
import type { MutationFieldContribution } from '../graphql/role-schema.js';
import { scalarType } from '../graphql/schema/types.js';
import { actionArgs, asyncStatusType, outputType, visibleActions } from './schema.js';
import { enqueueActionIR, statusIR, syncActionIR } from './translate.js';

/** The role's mutation actions, as mutation_root fields. */
export const actionMutationFields = (ctx: RoleContext): MutationFieldContribution[] => visibleActions(ctx)
  .filter((a) => a.definition.type === 'mutation')
  .map((a): MutationFieldContribution => {
    const async = a.definition.kind === 'asynchronous';
    return {
      name: a.name,
      config: {
        type: async ? new GraphQLNonNull(scalarType(ctx, 'uuid')) : outputType(ctx, a.definition.output_type),
        args: actionArgs(ctx, a),
        description: a.comment ?? undefined,
      },
      translate: (t, f) => ({ kind: 'action_root', action: async ? enqueueActionIR(t, a, f) : syncActionIR(t, a, f) }),
    };
  });

/** The role's query actions, and the status fields `<action>(id:)` of its async actions, as query_root fields. */
export const actionQueryFields = (ctx: RoleContext): QueryFieldContribution[] => visibleActions(ctx).flatMap((a): QueryFieldContribution[] => {
  if (a.definition.type === 'query') {
    return [{
      name: a.name,
      config: { type: outputType(ctx, a.definition.output_type), args: actionArgs(ctx, a), description: a.comment ?? undefined },
      subscription: false,
      translate: (t, f) => ({ kind: 'action_root', action: syncActionIR(t, a, f) }),
    }];
  }
  if (a.definition.kind !== 'asynchronous') return [];
  return [{
    name: a.name,
    config: { type: asyncStatusType(ctx, a), args: { id: { type: new GraphQLNonNull(scalarType(ctx, 'uuid')) } }, description: a.comment ?? undefined },
    subscription: true,
    translate: (t, f) => ({ kind: 'action_root', action: statusIR(t, a, f) }),
  }];
});
