// What the features give the executor: the role schemas' extensions (actions' root fields, remote schemas merged
// in), how an action field runs, the answer of a request that selects remote-schema fields, and where a read runs
// (read replicas). src/features.ts composes them and the composition root passes them down; the executor imports no
// feature, and a feature imports nothing of the executor but this module.
import type pg from 'pg';
import type { RequestHeaders, Session } from '../auth/session.js';
import type { EngineState } from '../cache/state.js';
import type { GraphQLRequest } from '../graphql/request-body.js';
import type { SchemaExtensions } from '../graphql/role-schema.js';
import type { ActionRootIR } from '../ir/action.js';
import type { RootFieldIR } from '../ir/operation.js';

/** The client's request headers (actions and remote schemas with forward_client_headers pass them on). */
export type ClientHeaders = Record<string, string | string[] | undefined>;

/** What an action field runs with. */
export interface ActionEnv {
  /** The pool, or a mutation's transaction (an enqueue commits or rolls back with the other root fields). */
  db: pg.Pool | pg.PoolClient;
  session: Session;
  clientHeaders: ClientHeaders | null;
  /** Coerced variables (plan parameters) and the request's own (JSON as sent: what the handler gets). */
  variables: Record<string, unknown>;
  rawVariables: Record<string, unknown> | null;
  /** Set-Cookie values of sync handlers, for the HTTP response. */
  setCookie: string[];
}

/** What answering a request that selects remote-schema fields needs. */
export interface RemoteContext {
  state: EngineState;
  /** The role schemas' extensions: their remote routes say where a field goes. */
  extensions: SchemaExtensions;
  session: Session;
  /** The client's request headers (forward_client_headers). */
  headers: RequestHeaders;
  showInternal: boolean;
  /** Set-Cookie values of the remotes' answers, for the HTTP response. */
  setCookie: string[];
  /** Routes kept per state (the plan cache's capacity; 0: none). */
  cacheSize: number;
}

/** What running a request's remote joins needs (src/remote/join.ts). */
export interface RemoteJoinEnv {
  remoteSchemas: EngineState['metadata']['remote_schemas'];
  session: Session;
  clientHeaders: ClientHeaders | null;
  /** The request's variables as sent (the client's arguments of a remote relationship may use them). */
  variables: Record<string, unknown> | null;
  /** Set-Cookie values of the remotes' answers, for the HTTP response. */
  setCookie: string[];
}

/** Answers a GraphQL request (body text: `{"data":...}` or `{"errors":...}`); never throws. */
export type Answer = (req: GraphQLRequest) => Promise<string>;

export interface ExecutorFeatures {
  readonly extensions: SchemaExtensions;
  /** Runs an action root field (src/actions): its JSON text. The executor runs the other root fields. */
  runAction(env: ActionEnv, ir: ActionRootIR): Promise<string>;
  /**
   * The answer of a request that selects remote-schema fields (src/remote), or null when it selects none. `raw` is
   * the request object as the client sent it; `db` answers the database part of a request that mixes both.
   */
  remoteAnswer(ctx: RemoteContext, req: GraphQLRequest, raw: unknown, db: Answer): Promise<string> | null;
  /** Whether root fields select remote relationships (their plan then runs remoteJoins on its data). */
  hasRemoteJoins(fields: ReadonlyArray<readonly [string, RootFieldIR]>): boolean;
  /** The data object's text with the remote relationships' values fetched and spliced in (src/remote/join.ts). */
  remoteJoins(env: RemoteJoinEnv, fields: ReadonlyArray<readonly [string, RootFieldIR]>, data: string): Promise<string>;
}

/** Where one read runs: a read replica's pool or the primary's (src/replicas picks it). */
export interface ReadSource {
  readonly pool: pg.Pool;
  /**
   * The read is over (`error`: how it failed, as the driver gave it). True when the source went away under it (a
   * replica shut down, refused the connection, or cancelled the read for a conflict with recovery): worth one more
   * try on another source.
   */
  done(error?: unknown): boolean;
}

/** How reads are routed when read replicas are configured (src/replicas). */
export interface ReadRouting {
  /**
   * The source of a read that must see the WAL position `minLsn` (0: none of its own; the router adds what its
   * consistency setting asks). A promise while it waits for a replica to catch up. `prefer`: the source to keep if
   * it still qualifies (a live query stays where it is).
   */
  source(minLsn: number, prefer?: ReadSource): ReadSource | Promise<ReadSource>;
  /** Where a read that failed because `failed` went away tries once more: another replica in rotation, or the primary. */
  retry(failed: ReadSource, minLsn: number): ReadSource;
  /**
   * A write committed on the primary: its WAL position after the commit, as Postgres writes it (the
   * x-engine-write-lsn header), null when it could not be read. Later reads of this instance wait for it
   * (consistency `instance`).
   */
  committed(): Promise<string | null>;
  /** An x-engine-min-lsn value as a position (0 when absent); throws EngineError (invalid-headers) when malformed. */
  minLsn(value: string | undefined): number;
}
