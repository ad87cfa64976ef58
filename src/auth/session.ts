// Who is asking: a role plus session variables (x-engine-* names, lower-cased; string values).
// Built by resolve.ts from the request headers; read by permissions, presets and the explain API.

export interface Session {
  role: string;
  /** All x-engine-* session variables, names lower-cased, values strings (x-engine-role included). */
  variables: Record<string, string>;
  /**
   * True when the request may use backend_only insert permissions: it sent
   * `x-engine-use-backend-only-permissions: true` and either carried the correct admin secret or no auth is configured.
   */
  backendOnly?: boolean;
  /** When the credentials stop being valid (JWT `exp`, auth-hook Cache-Control/Expires), ms since epoch. Websockets close then. */
  expiresAt?: number;
}

export const ADMIN_ROLE = 'admin';
export const ROLE_HEADER = 'x-engine-role';
export const ADMIN_SECRET_HEADER = 'x-engine-admin-secret';
/** Deprecated alias of the admin secret header, still accepted. */
export const ACCESS_KEY_HEADER = 'x-engine-access-key';
export const BACKEND_ONLY_HEADER = 'x-engine-use-backend-only-permissions';
const SESSION_PREFIX = 'x-engine-';

export const isAdmin = (s: Session): boolean => s.role === ADMIN_ROLE;

export const isSessionVariable = (name: string): boolean => name.toLowerCase().startsWith(SESSION_PREFIX);

/** Request headers as koa or a websocket init payload give them: names in any case, values possibly repeated or not strings. */
export type RequestHeaders = Readonly<Record<string, unknown>>;

/** The first string value of a header, looked up case-insensitively. */
export function headerValue(headers: RequestHeaders, name: string): string | undefined {
  const wanted = name.toLowerCase();
  // for-in rather than Object.entries: no arrays per call (this runs a few times on every request).
  for (const k in headers) {
    // Only a name of the wanted length can match: no lower-casing of every other header's name.
    if (k !== wanted && (k.length !== wanted.length || k.toLowerCase() !== wanted)) continue;
    const v = headers[k];
    if (typeof v === 'string') return v;
    if (Array.isArray(v) && typeof v[0] === 'string') return v[0] as string;
  }
  return undefined;
}

/** The x-engine-* headers as session variables, credentials removed (they must never reach permissions or logs). */
export function sessionVariablesFromHeaders(headers: RequestHeaders): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const k in headers) {
    // Only names starting with x or X can be x-engine-*: the others are not lower-cased (most headers of a request).
    if ((k.charCodeAt(0) | 0x20) !== 0x78) continue;
    const v = headers[k];
    const name = k.toLowerCase();
    if (!name.startsWith(SESSION_PREFIX) || name === ADMIN_SECRET_HEADER || name === ACCESS_KEY_HEADER) continue;
    const value = typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;
    if (value !== undefined && !(name in variables)) variables[name] = value;
  }
  return variables;
}

/** A session for `role` whose variables also say x-engine-role = role (as the original's UserInfo does). */
export function makeSession(role: string, variables: Record<string, string>, extra: Partial<Session> = {}): Session {
  return { role, variables: { ...variables, [ROLE_HEADER]: role }, ...extra };
}

/** No-auth mode: role from X-Engine-Role, admin by default; X-Engine-* headers become variables. */
export function sessionFromHeaders(headers: RequestHeaders): Session {
  const variables = sessionVariablesFromHeaders(headers);
  const requested = variables[ROLE_HEADER];
  return makeSession(requested ? requested : ADMIN_ROLE, variables);
}

/**
 * Headers for authenticating a websocket: the handshake's own headers plus `connection_init`'s `payload.headers`
 * (Apollo connectionParams). String values only; for a name given twice (in any case), the payload's value wins.
 * Names are lower-cased, or kept as sent with `keepNames` (a POST auth hook gets them so, as the original sends it
 * the client's headers: hooks written for it look names up as the client spelt them).
 */
export function websocketHeaders(handshake: RequestHeaders, initPayload: unknown, keepNames = false): Record<string, string> {
  const out: Record<string, string> = {};
  /** Lower-cased name → the name it is stored under (keepNames only). */
  const spelt = new Map<string, string>();
  const add = (headers: unknown): void => {
    if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) return;
    for (const [k, v] of Object.entries(headers as Record<string, unknown>)) {
      const value = typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;
      if (value === undefined) continue;
      const lower = k.toLowerCase();
      if (!keepNames) {
        out[lower] = value;
        continue;
      }
      const before = spelt.get(lower);
      if (before !== undefined) delete out[before];
      spelt.set(lower, k);
      out[k] = value;
    }
  };
  add(handshake);
  if (initPayload !== null && typeof initPayload === 'object') add((initPayload as { headers?: unknown }).headers);
  return out;
}
