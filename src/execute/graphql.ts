// STUB (owned by the GraphQL helpers, replace freely): answers one POST /v1/graphql body.
import type pg from 'pg';
import type { EngineState } from '../cache/state.js';
import type { Session } from '../auth/session.js';
import type { ServerConfig } from '../config.js';

export interface GraphQLRequestContext {
  pool: pg.Pool;
  state: EngineState;
  session: Session;
  config: ServerConfig;
  requestId: string;
}

export async function handleGraphQLRequest(
  ctx: GraphQLRequestContext,
  body: unknown,
): Promise<{ status: number; body: string; headers?: Record<string, string> }> {
  void ctx;
  void body;
  return {
    status: 200,
    body: JSON.stringify({ errors: [{ extensions: { path: '$', code: 'not-supported' }, message: 'GraphQL is not implemented yet' }] }),
  };
}
