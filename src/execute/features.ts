// What the features give the executor: the role schemas' extensions (actions' root fields, remote schemas merged
// in), how an action field runs, and the answer of a request that selects remote-schema fields. src/features.ts
// composes them and the composition root passes them down; the executor imports no feature, and a feature imports
// nothing of the executor but this module.
import type pg from 'pg';
import type { RequestHeaders, Session } from '../auth/session.js';
import type { EngineState } from '../cache/state.js';
import type { GraphQLRequest } from '../graphql/request-body.js';
import type { SchemaExtensions } from '../graphql/role-schema.js';
import type { ActionRootIR } from '../ir/action.js';

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
}
