// The composition of the features that extend the core engine, passed down explicitly by the composition root
// (src/main.ts) instead of registered at module load: the checks run on every schema cache (the projector's and
// the write path's) and the remote schemas' introspection they read, what every role schema gets (actions' root fields, then the remote schemas merged in), and
// what the executor hands to them (action fields, requests that select remote fields), and the background workers.
import type { CacheCheck } from './cache/build.js';
import type { SchemaExtensions } from './graphql/role-schema.js';
import type { ExecutorFeatures } from './execute/features.js';
import type { ProjectorFeatures } from './sync/projector.js';
import { actionMutationFields, actionQueryFields } from './actions/root-fields.js';
import { runActionRoot } from './actions/execute.js';
import { remoteSchemaCheck, withRemoteSchemas } from './remote/schema.js';
import { remoteAnswer } from './remote/execute.js';
import { hasRemoteJoins, runRemoteJoins } from './remote/join.js';
import { remoteRelationshipCheck } from './remote/relationship-info.js';
import { withRemoteRelationships } from './remote/relationship-schema.js';
import { cronTriggerCheck } from './scheduled/check.js';
import { ScheduledWorker } from './scheduled/worker.js';
import { registerScheduledMetrics } from './scheduled/metrics.js';
import { introspectionsAfter } from './remote/introspections.js';
import { EventWorker } from './triggers/worker.js';
import { asyncActionsWorker } from './actions/worker.js';
import type { WorkerFactory } from './startup/workers.js';
import { ENGINE_VERSION } from './version.js';

/** Everything the features give: to the executor, and to the projector (cache checks, remote schemas' introspection). */
export interface Features extends ExecutorFeatures, ProjectorFeatures {
  /** Run in order on every schema cache built (sync/projector.ts, metadata/execute.ts). */
  readonly cacheChecks: readonly CacheCheck[];
  /** The background workers every instance runs, started in this order once the state is loaded (src/startup/workers.ts). */
  readonly workers: readonly WorkerFactory[];
}

/** Event triggers' deliveries: claimed, POSTed and recorded (src/triggers/worker.ts). */
const eventDeliveries: WorkerFactory = (ctx) => new EventWorker({
  pool: ctx.pool,
  connectionString: ctx.listenUrl,
  metadata: () => ctx.state().metadata,
  poolSize: ctx.config.eventsHttpPoolSize,
  fetchIntervalMs: ctx.config.eventsFetchInterval,
  userAgent: `engine-graphql-engine/${ENGINE_VERSION}`,
  logHeadersFromEnv: ctx.config.logHeadersFromEnv,
});

/** Scheduled triggers' deliveries: cron and one-off events, generated, claimed on time, POSTed (src/scheduled/worker.ts). */
const scheduledDeliveries: WorkerFactory = (ctx) => new ScheduledWorker({
  pool: ctx.pool,
  connectionString: ctx.listenUrl,
  metadata: () => ctx.state().metadata,
  poolSize: ctx.config.scheduledEventsHttpPoolSize,
  pollMs: ctx.config.eventsFetchInterval,
  leaseMs: ctx.config.scheduledEventsLease * 1000,
  userAgent: `engine-graphql-engine/${ENGINE_VERSION}`,
  metrics: registerScheduledMetrics(ctx.metrics, ctx.pool),
});

const actions: SchemaExtensions = { queryFields: [actionQueryFields], mutationFields: [actionMutationFields], roleSchema: [] };

/**
 * The engine's features. Cron triggers are checked for their environment variables. Remote schemas are checked against the tables' and the actions' root fields (a remote
 * field clashing with an action is a conflict), and merged into every role's schema after them.
 */
export const features: Features = {
  cacheChecks: [remoteSchemaCheck(actions), remoteRelationshipCheck, cronTriggerCheck],
  remoteSchemasAfter: introspectionsAfter,
  extensions: { ...actions, roleSchema: [withRemoteSchemas, withRemoteRelationships] },
  runAction: runActionRoot,
  remoteAnswer,
  hasRemoteJoins,
  remoteJoins: runRemoteJoins,
  workers: [eventDeliveries, scheduledDeliveries, asyncActionsWorker],
};
