// Plugs actions into every role schema (imported once by src/graphql/prepare.ts): mutation actions on
// mutation_root (an async one returns the new action id), query actions and `<action>(id:)` on query_root.
import { GraphQLNonNull } from 'graphql';
import { queryContributors, type QueryFieldContribution } from '../graphql/schema/root.js';
import { mutationExtensionContributors, type MutationFieldContribution } from '../graphql/schema/mutation.js';
import { scalarType } from '../graphql/schema/types.js';
import { actionArgs, asyncStatusType, outputType, visibleActions } from './schema.js';
import { enqueueActionIR, statusIR, syncActionIR } from './translate.js';

mutationExtensionContributors.push((ctx) => visibleActions(ctx)
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
  }));

queryContributors.push((ctx) => visibleActions(ctx).flatMap((a): QueryFieldContribution[] => {
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
}));
