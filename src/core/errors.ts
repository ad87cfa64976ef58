// The closed set of error codes clients match on byte for byte, and the one error type every layer throws.
// Metadata API bodies are {path, error, code, internal?}; GraphQL bodies are {message, extensions:{path, code}}.

export const ERROR_CODES = [
  'postgres-error',
  'permission-denied',
  'permission-error',
  'not-exists',
  'not-found',
  'already-tracked',
  'already-untracked',
  'already-exists',
  'access-denied',
  'not-supported',
  'invalid-json',
  'invalid-headers',
  'invalid-params',
  'dependency-error',
  'parse-failed',
  'already-initialised',
  'constraint-error',
  'constraint-violation',
  'unexpected-payload',
  'unexpected',
  'bad-request',
  'validation-failed',
  'data-exception',
  'invalid-jwt',
  'jwt-invalid-claims',
  'jwt-missing-role-claims',
  'start-failed',
  'busy',
  'remote-schema-error',
  'remote-schema-conflicts',
  '',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface EngineErrorOptions {
  status?: number;
  path?: string;
  internal?: unknown;
}

export class EngineError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  path: string;
  readonly internal?: unknown;

  constructor(code: ErrorCode, message: string, options: EngineErrorOptions = {}) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
    this.status = options.status ?? 400;
    this.path = options.path ?? '$';
    this.internal = options.internal;
  }

  /** The same error reported at another JSON path (e.g. prefixed by a bulk element). */
  at(path: string): EngineError {
    return new EngineError(this.code, this.message, { status: this.status, path, internal: this.internal });
  }
}

export const isEngineError = (e: unknown): e is EngineError => e instanceof EngineError;

/** Body of a /v1/query error. `internal` only when the caller may see it (admin, admin-internal-errors on). */
export function metadataErrorBody(e: EngineError, includeInternal: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { path: e.path, error: e.message, code: e.code };
  if (includeInternal && e.internal !== undefined) body.internal = e.internal;
  return body;
}

/** One entry of a GraphQL `errors` array. */
export function graphqlErrorObject(e: EngineError, includeInternal: boolean): Record<string, unknown> {
  const extensions: Record<string, unknown> = { path: e.path, code: e.code };
  if (includeInternal && e.internal !== undefined) extensions.internal = e.internal;
  return { extensions, message: e.message };
}
