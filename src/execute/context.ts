// What the executor runs a request with: the state, the session, the GraphQL front that plans it (prepare), the
// plan cache's settings, and what features add (actions' runner, remote schemas' route, what actions add to the
// response).
import type pg from 'pg';
import type { EngineState } from '../cache/state.js';
import type { Session } from '../auth/session.js';
import type { GraphQLRequest } from '../graphql/request-body.js';
import type { PreparedOperation } from '../graphql/prepare.js';
import type { TxIsolation } from '../config/config.js';
import type { ClientHeaders, ExecutorFeatures, ReadRouting } from './features.js';

export type PrepareFn = (
  state: EngineState,
  session: Session,
  request: GraphQLRequest,
  options: { stringifyNumeric: boolean },
) => PreparedOperation | Promise<PreparedOperation>;

export interface ExecuteContext {
  /** The primary's pool: writes, and reads when there is no router. */
  pool: pg.Pool;
  /** Read replicas (src/replicas): where a read runs; undefined: on `pool`. */
  reads?: ReadRouting;
  /** The WAL position this request's reads must see (x-engine-min-lsn; 0: none). */
  minLsn: number;
  /** Named prepared statements (--use-prepared-statements; unnamed ones work behind a transaction-mode pooler). */
  preparedStatements: boolean;
  state: EngineState;
  session: Session;
  stringifyNumeric: boolean;
  /** 0 disables the plan cache. */
  planCacheSize: number;
  showInternal: boolean;
  /** Runs again on a new connection after a connection error (--retries; src/core/connection-retry.ts). */
  connectionRetries: number;
  /** Isolation of mutation transactions (--tx-iso). */
  txIsolation: TxIsolation;
  requestId: string;
  prepare: PrepareFn;
  /** Separates the plans of another schema over the same state (POST /v1beta1/relay). */
  planScope?: string;
  /** Set when a plan is run (planVariables): the type of the first operation planned (the request metrics' label). */
  operationType?: string;
  /** Runs the action fields of a plan (src/actions, through ExecutorFeatures); a plan with action fields needs it. */
  runAction?: ExecutorFeatures['runAction'];
  /** The client's request headers (actions forward them) and what actions add to the response. */
  clientHeaders?: ClientHeaders | null;
  reply?: ActionReply;
  /**
   * Requests selecting remote-schema fields (src/remote): their answer, or null for the usual path. `raw` is the
   * request object as sent; `db` answers the database part of a mixed request.
   */
  remote?: (req: GraphQLRequest, raw: unknown, db: (req: GraphQLRequest) => Promise<string>) => Promise<string> | null;
  /** Remote relationships (src/remote/join.ts, through ExecutorFeatures): a plan with remote joins needs them. */
  remoteJoins?: Pick<ExecutorFeatures, 'hasRemoteJoins' | 'remoteJoins'>;
}

/**
 * What the response gets besides its body: Set-Cookie values of sync action handlers (and remote schemas), the
 * status of a failed action call (for /v1alpha1), the WAL position after a mutation (x-engine-write-lsn).
 */
export interface ActionReply {
  setCookie: string[];
  errorStatus?: number;
  writeLsn?: string;
}
