// Who is asking: request headers + auth config → Session, or an EngineError with the original's code and message.
// Runs before anything touches the database (it is given no database handle at all).
import { createHash, timingSafeEqual } from 'node:crypto';
import { EngineError } from '../core/errors.js';
import type { AuthConfig } from './config.js';
import { JwkStore, type JwkDeps } from './jwk.js';
import { sessionFromJwt } from './jwt.js';
import {
  ACCESS_KEY_HEADER,
  ADMIN_ROLE,
  ADMIN_SECRET_HEADER,
  BACKEND_ONLY_HEADER,
  headerValue,
  ROLE_HEADER,
  sessionVariablesFromHeaders,
  type RequestHeaders,
  type Session,
} from './session.js';
import { sessionFromHook } from './webhook.js';

/** Longest Authorization header we read; longer ones are answered as malformed without being parsed. */
export const MAX_AUTHORIZATION_LENGTH = 16 * 1024;

export interface ResolveDeps {
  /** The running JWK set when the JWT config uses jwk_url (see startAuth). */
  jwks?: JwkStore;
  fetch?: typeof fetch;
  /** Milliseconds since the epoch. */
  now?: () => number;
  hookTimeoutMs?: number;
  version?: string;
}

const sha256 = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** Digests of the configured secrets (a handful per process), so a request hashes only what it sent. */
const expectedDigests = new Map<string, Buffer>();

/** Constant-time comparison: both sides hashed first so lengths leak nothing either. */
export function secretMatches(given: string, expected: string): boolean {
  let digest = expectedDigests.get(expected);
  if (digest === undefined) {
    digest = sha256(expected);
    if (expectedDigests.size < 64) expectedDigests.set(expected, digest);
  }
  return timingSafeEqual(sha256(given), digest);
}

const TRUE_VALUES = ['true', 't', 'yes', 'y'];
const FALSE_VALUES = ['false', 'f', 'no', 'n'];

/**
 * x-engine-use-backend-only-permissions, honoured only for admin-secret requests (or when no auth is configured).
 * Read from the session variables: the header is one (x-engine-*), found there as headerValue finds it.
 */
function backendOnlyFlag(variables: Record<string, string>): boolean {
  const v = variables[BACKEND_ONLY_HEADER];
  if (v === undefined) return false;
  const lower = v.toLowerCase();
  if (TRUE_VALUES.includes(lower)) return true;
  if (FALSE_VALUES.includes(lower)) return false;
  throw new EngineError(
    'bad-request',
    `${BACKEND_ONLY_HEADER}:  Not a valid boolean text. True values are ${JSON.stringify(TRUE_VALUES)} and  False values are ` +
      `${JSON.stringify(FALSE_VALUES)}. All values are case insensitive`,
  );
}

/**
 * A session for `role` over variables read from this request's headers (a fresh object of its own): x-engine-role
 * set in place, where makeSession copies them (same keys, same order).
 */
function ownSession(role: string, variables: Record<string, string>, backendOnly: boolean): Session {
  variables[ROLE_HEADER] = role;
  return { role, variables, backendOnly };
}

/** Admin secret sent and correct, or no auth configured: role from X-Engine-Role, else admin. */
function trustedSession(headers: RequestHeaders): Session {
  const variables = sessionVariablesFromHeaders(headers);
  const requested = variables[ROLE_HEADER];
  return ownSession(requested ? requested : ADMIN_ROLE, variables, backendOnlyFlag(variables));
}

/** A fixed role (the unauthorized role) with the request's own x-engine-* headers as variables. */
function fixedRoleSession(role: string, headers: RequestHeaders): Session {
  return ownSession(role, sessionVariablesFromHeaders(headers), false);
}

/** The bearer token of an Authorization header: exactly two space-separated words, the first "Bearer". */
function bearerToken(authorization: string): string {
  if (authorization.length > MAX_AUTHORIZATION_LENGTH) {
    throw new EngineError('invalid-headers', 'Malformed Authorization header');
  }
  const words = authorization.split(/[ \t]+/).filter((w) => w !== '');
  if (words.length !== 2 || words[0] !== 'Bearer') throw new EngineError('invalid-headers', 'Malformed Authorization header');
  return words[1];
}

export const isAuthConfigured = (config: AuthConfig): boolean =>
  config.adminSecret !== undefined || config.jwt !== undefined || config.authHook !== undefined;

/**
 * The session of a request. Throws EngineError:
 * - 401 access-denied: wrong admin secret; admin secret required; auth hook said 401
 * - 400 invalid-headers / invalid-jwt / jwt-invalid-claims / jwt-missing-role-claims / access-denied: JWT problems
 * - 400 invalid-params: the hook's answer has no x-engine-role; 400 bad-request: bad backend-only flag
 * - 500 unexpected: the hook failed or answered something else
 * On /v1/graphql all of these are sent with HTTP 200 (see authErrorStatus).
 */
export async function resolveSession(requestHeaders: RequestHeaders, config: AuthConfig, deps: ResolveDeps = {}): Promise<Session> {
  return resolveSessionNow(requestHeaders, config, deps);
}

/** A session for a JWT's or an auth hook's: never backend-only. */
const notBackendOnly = (session: Session): Session => ({ ...session, backendOnly: false });

/**
 * resolveSession, answered at once where it needs no I/O (no auth, the admin secret, the unauthorized role) and as
 * a promise only for a JWT or an auth hook: the hot path of a request pays no promise and no microtask for its
 * session. Throws (rather than rejects) the errors it finds without I/O.
 */
export function resolveSessionNow(requestHeaders: RequestHeaders, config: AuthConfig, deps: ResolveDeps = {}): Session | Promise<Session> {
  const headers: RequestHeaders = requestHeaders !== null && typeof requestHeaders === 'object' ? requestHeaders : {};
  if (!isAuthConfigured(config)) return trustedSession(headers);

  const given = headerValue(headers, ADMIN_SECRET_HEADER) ?? headerValue(headers, ACCESS_KEY_HEADER);
  if (given !== undefined) {
    if (config.adminSecret === undefined || !secretMatches(given, config.adminSecret)) {
      throw new EngineError('access-denied', `invalid ${ADMIN_SECRET_HEADER}/${ACCESS_KEY_HEADER}`, { status: 401 });
    }
    return trustedSession(headers);
  }

  if (config.jwt !== undefined) {
    const authorization = headerValue(headers, 'authorization');
    if (authorization === undefined) {
      if (config.unauthorizedRole !== undefined) return fixedRoleSession(config.unauthorizedRole, headers);
      throw new EngineError('invalid-headers', 'Missing Authorization header in JWT authentication mode');
    }
    const token = bearerToken(authorization);
    return sessionFromJwt(token, headerValue(headers, ROLE_HEADER), config.jwt, { now: deps.now, jwks: deps.jwks }).then(notBackendOnly);
  }

  if (config.authHook !== undefined) {
    return sessionFromHook(headers, config.authHook, {
      fetch: deps.fetch,
      now: deps.now,
      timeoutMs: deps.hookTimeoutMs,
      version: deps.version,
    }).then(notBackendOnly);
  }

  if (config.unauthorizedRole !== undefined) return fixedRoleSession(config.unauthorizedRole, headers);
  throw new EngineError('access-denied', `${ADMIN_SECRET_HEADER}/${ACCESS_KEY_HEADER} required, but not found`, { status: 401 });
}

/**
 * HTTP status for an auth error: /v1/graphql (and /v1beta1/relay) always answer 200 with a GraphQL error body;
 * /v1/query, /v1alpha1/graphql, /v1alpha1/config, explain use the error's own status (401, 400 or 500).
 */
export function authErrorStatus(err: EngineError, path: string): number {
  return path === '/v1/graphql' || path === '/v1beta1/relay' ? 200 : err.status;
}

/** Long-lived auth state: the JWK set (fetched now, refreshed in the background) for a jwk_url config. */
export interface AuthRuntime {
  deps: ResolveDeps;
  /** Outcome of the first JWK fetch, when there is a jwk_url. */
  jwkStart?: Awaited<ReturnType<JwkStore['start']>>;
  stop(): void;
}

export async function startAuth(config: AuthConfig, deps: Omit<ResolveDeps, 'jwks'> & { jwk?: JwkDeps } = {}): Promise<AuthRuntime> {
  const { jwk, ...rest } = deps;
  const source = config.jwt?.source;
  if (source?.kind !== 'jwk_url') return { deps: rest, stop() {} };
  const jwks = new JwkStore(source.url, { fetch: rest.fetch, now: rest.now, ...jwk });
  const jwkStart = await jwks.start();
  return { deps: { ...rest, jwks }, jwkStart, stop: () => jwks.stop() };
}
