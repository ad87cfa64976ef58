// A request's answer as the executor gives it (its body, and for the request log and metrics its error, request
// and operation type); an error that is not an EngineError is logged and answered as `unexpected`.
import { EngineError, graphqlErrorObject } from '../core/errors.js';
import { log } from '../core/log.js';
import type { GraphQLRequest } from '../graphql/request-body.js';
import type { ExecuteContext } from './context.js';

/** A whole-request answer: the body, and for the request log the error and the GraphQL request. */
export interface GraphQLResult {
  status: number;
  body: string;
  headers?: Record<string, string>;
  /** The error of a request that failed (of a batch: the first one). */
  error?: EngineError;
  /** The GraphQL request of a single request, once parsed. */
  request?: GraphQLRequest;
  /** The (first) operation's type, once planned (request metrics). */
  operationType?: string;
}

export function toEngineError(ctx: ExecuteContext, e: unknown): EngineError {
  if (e instanceof EngineError) return e;
  log.error('graphql-internal-error', { request_id: ctx.requestId, error: e });
  return new EngineError('unexpected', 'an unexpected error occurred', { status: 500, internal: { message: e instanceof Error ? e.message : String(e) } });
}

export const errorText = (ctx: ExecuteContext, err: EngineError): string => JSON.stringify({ errors: [graphqlErrorObject(err, ctx.showInternal)] });

/** A request's answer: its body, with the request and the operation's type for the request log and metrics. */
export const answered = (ctx: ExecuteContext, req: GraphQLRequest, body: string): GraphQLResult =>
  ({ status: 200, body, request: req, operationType: ctx.operationType });

/** A request's failure as its answer (always HTTP 200, an `errors` body). */
export function failed(ctx: ExecuteContext, e: unknown, req: GraphQLRequest): GraphQLResult {
  const error = toEngineError(ctx, e);
  return { status: 200, body: errorText(ctx, error), error, request: req, operationType: ctx.operationType };
}
