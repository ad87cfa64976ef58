// The CLI's connection to a running engine: POST /v1/query with the admin secret, as the original CLI talks to
// its server. A refused request becomes an ApiError carrying the engine's error body.
import type { Failure } from './failure.js';

export class ApiError extends Error implements Failure {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    readonly path?: string,
    readonly internal?: unknown,
  ) {
    super(message);
  }
}

export interface EngineClient {
  endpoint: string;
  query<T = unknown>(body: unknown): Promise<T>;
}

export function engineClient(endpoint: string, adminSecret: string | undefined): EngineClient {
  const url = `${endpoint.replace(/\/+$/, '')}/v1/query`;
  return {
    endpoint,
    async query<T>(body: unknown): Promise<T> {
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(adminSecret ? { 'x-engine-admin-secret': adminSecret } : {}) },
          body: JSON.stringify(body),
        });
      } catch (e) {
        const cause = (e as { cause?: { code?: string; message?: string } }).cause;
        throw new ApiError(`cannot reach the engine at ${endpoint}: ${cause?.code ?? cause?.message ?? (e as Error).message}`, 0);
      }
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      if (res.ok) return parsed as T;
      const err = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { error?: unknown; code?: unknown; path?: unknown; internal?: unknown };
      const message = typeof err.error === 'string' ? err.error : `HTTP ${res.status}: ${text.slice(0, 200)}`;
      throw new ApiError(message, res.status, typeof err.code === 'string' ? err.code : undefined, typeof err.path === 'string' ? err.path : undefined, err.internal);
    },
  };
}
