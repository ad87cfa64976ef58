// The composition of the features that extend the core engine, passed down explicitly by the composition root
// (src/main.ts) instead of registered at module load: the checks run on every schema cache (the projector's and
// the write path's) and what every role schema gets (actions' root fields, then the remote schemas merged in).
import type { CacheCheck } from './cache/build.js';
import type { SchemaExtensions } from './graphql/schema/build.js';
import { actionMutationFields, actionQueryFields } from './actions/root-fields.js';
import { remoteSchemaCheck, withRemoteSchemas } from './remote/schema.js';
import { cronTriggerCheck } from './scheduled/check.js';

export interface Features {
  /** Run in order on every schema cache built (sync/projector.ts, metadata/execute.ts). */
  readonly cacheChecks: readonly CacheCheck[];
  /** Given to every caller of roleSchema (GraphQL requests, websockets, remote routing). */
  readonly extensions: SchemaExtensions;
}

const actions: SchemaExtensions = { queryFields: [actionQueryFields], mutationFields: [actionMutationFields], roleSchema: [] };

/**
 * The engine's features. Cron triggers are checked for their environment variables. Remote schemas are checked against the tables' and the actions' root fields (a remote
 * field clashing with an action is a conflict), and merged into every role's schema after them.
 */
export const features: Features = {
  cacheChecks: [remoteSchemaCheck(actions), cronTriggerCheck],
  extensions: { ...actions, roleSchema: [withRemoteSchemas] },
};
