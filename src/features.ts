// The composition of the features that extend the core engine, passed down explicitly by the composition root
// (src/main.ts) instead of registered at module load: the checks run on every schema cache (the projector's and
// the write path's) and the remote schemas' introspection they read, what every role schema gets (actions' root fields, then the remote schemas merged in), and
// what the executor hands to them (action fields, requests that select remote fields).
import type { CacheCheck } from './cache/build.js';
import type { SchemaExtensions } from './graphql/role-schema.js';
import type { ExecutorFeatures } from './execute/features.js';
import type { ProjectorFeatures } from './sync/projector.js';
import { actionMutationFields, actionQueryFields } from './actions/root-fields.js';
import { runActionRoot } from './actions/execute.js';
import { remoteSchemaCheck, withRemoteSchemas } from './remote/schema.js';
import { remoteAnswer } from './remote/execute.js';
import { introspectionsAfter } from './remote/introspections.js';

/** Everything the features give: to the executor, and to the projector (cache checks, remote schemas' introspection). */
export interface Features extends ExecutorFeatures, ProjectorFeatures {
  /** Run in order on every schema cache built (sync/projector.ts, metadata/execute.ts). */
  readonly cacheChecks: readonly CacheCheck[];
}

const actions: SchemaExtensions = { queryFields: [actionQueryFields], mutationFields: [actionMutationFields], roleSchema: [] };

/**
 * The engine's features. Remote schemas are checked against the tables' and the actions' root fields (a remote
 * field clashing with an action is a conflict), and merged into every role's schema after them.
 */
export const features: Features = {
  cacheChecks: [remoteSchemaCheck(actions)],
  remoteSchemasAfter: introspectionsAfter,
  extensions: { ...actions, roleSchema: [withRemoteSchemas] },
  runAction: runActionRoot,
  remoteAnswer,
};
