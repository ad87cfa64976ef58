// JWT mode: verify a compact token (jose for the signature) and turn its claims into a Session.
// The checks run in the original's order, with its messages: decode, claims decode, signature, exp, iat, nbf, iss, aud.
import { compactVerify, importSPKI } from 'jose';
import { webcrypto, type KeyObject } from 'node:crypto';
import { EngineError } from '../core/errors.js';
import type { JwtConfig } from './config.js';
import type { JwkStore } from './jwk.js';
import { valueAtPath } from './claims-path.js';
import { claimsFromMap } from './claims-map.js';
import { makeSession, type Session } from './session.js';

export const ALLOWED_ROLES_CLAIM = 'x-engine-allowed-roles';
export const DEFAULT_ROLE_CLAIM = 'x-engine-default-role';

const REGISTERED_CLAIMS = new Set(['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti']);
/** Algorithms the original's JOSE library knows; `none` is known but never accepted. */
const KNOWN_ALGS = new Set([
  'HS256', 'HS384', 'HS512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512',
  'ES256', 'ES384', 'ES512', 'EdDSA', 'none',
]);

export interface JwtDeps {
  /** Milliseconds since the epoch. */
  now?: () => number;
  /** Required when the config uses jwk_url. */
  jwks?: JwkStore;
}

export type JwtPayload = Record<string, unknown>;

const invalidJwt = (detail: string): EngineError => new EngineError('invalid-jwt', `Could not verify JWT: ${detail}`);
const invalidClaims = (message: string): EngineError => new EngineError('jwt-invalid-claims', message);

/** The JSON type name the original's JSON library reports in type mismatches. */
function jsonTypeName(v: unknown): string {
  if (v === null) return 'Null';
  if (Array.isArray(v)) return 'Array';
  switch (typeof v) {
    case 'string': return 'String';
    case 'number': return 'Number';
    case 'boolean': return 'Boolean';
    default: return 'Object';
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function decodeSegment(segment: string): unknown {
  if (!/^[A-Za-z0-9_-]*$/.test(segment)) throw new Error('invalid base64url');
  return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
}

/** Decodes without verifying: header and payload, with the original's error for each way a token can be malformed. */
export function decodeToken(token: string): { header: Record<string, unknown>; payload: JwtPayload } {
  const parts = token.split('.');
  if (parts.length !== 3) {
    throw invalidJwt(`JWSError (CompactDecodeError Invalid number of parts: Expected 3 parts; got ${parts.length})`);
  }
  let header: unknown;
  try {
    header = decodeSegment(parts[0]);
  } catch {
    throw invalidJwt('JWSError (CompactDecodeError Invalid text: the header is not base64url-encoded JSON)');
  }
  if (!isPlainObject(header)) throw invalidJwt('JWSError (JSONDecodeError "the header is not a JSON object")');
  if (typeof header.alg !== 'string' || !KNOWN_ALGS.has(header.alg)) {
    throw invalidJwt('JWSError (JSONDecodeError "unrecognised or missing alg")');
  }
  let payload: unknown;
  try {
    payload = decodeSegment(parts[1]);
  } catch {
    throw invalidJwt('JWTClaimsSetDecodeError "the payload is not base64url-encoded JSON"');
  }
  if (!isPlainObject(payload)) throw invalidJwt('JWTClaimsSetDecodeError "the payload is not a JSON object"');
  for (const name of ['exp', 'nbf', 'iat'] as const) {
    if (payload[name] !== undefined && typeof payload[name] !== 'number') {
      throw invalidJwt(`JWTClaimsSetDecodeError "${name} should be a NumericDate"`);
    }
  }
  for (const name of ['iss', 'sub', 'jti'] as const) {
    if (payload[name] !== undefined && typeof payload[name] !== 'string') {
      throw invalidJwt(`JWTClaimsSetDecodeError "${name} should be a string"`);
    }
  }
  const aud = payload.aud;
  if (aud !== undefined && typeof aud !== 'string' && !(Array.isArray(aud) && aud.every((a) => typeof a === 'string'))) {
    throw invalidJwt('JWTClaimsSetDecodeError "aud should be a string or a list of strings"');
  }
  return { header, payload };
}

/** Inline keys imported once per algorithm as WebCrypto keys (jose would otherwise convert the KeyObject on every call). */
const imported = new WeakMap<KeyObject, Map<string, Promise<CryptoKey | null>>>();

function importedKey(key: KeyObject, alg: string): Promise<CryptoKey | null> {
  let byAlg = imported.get(key);
  if (!byAlg) imported.set(key, (byAlg = new Map()));
  let p = byAlg.get(alg);
  if (!p) {
    p = (
      key.type === 'secret'
        ? webcrypto.subtle.importKey('raw', key.export(), { name: 'HMAC', hash: `SHA-${alg.slice(2)}` }, false, ['verify'])
        : importSPKI(key.export({ type: 'spki', format: 'pem' }) as string, alg)
    ).catch(() => null);
    byAlg.set(alg, p);
  }
  return p;
}

/** Keys the token's alg may be checked against: an inline key only for its configured `type`, a JWK only for its `alg` (when set). */
async function candidateKeys(config: JwtConfig, header: Record<string, unknown>, deps: JwtDeps): Promise<(CryptoKey | Uint8Array)[]> {
  const alg = header.alg as string;
  const src = config.source;
  if (src.kind === 'key') {
    // The configured algorithm is the only one accepted (an HS512 token against an HS256 key is refused).
    const key = alg === src.type ? await importedKey(src.key, alg) : null;
    return key ? [key] : [];
  }
  const store = deps.jwks;
  if (!store || store.size === 0) throw invalidJwt('JWSError NoUsableKeys');
  const kid = typeof header.kid === 'string' ? header.kid : undefined;
  const keys: (CryptoKey | Uint8Array)[] = [];
  for (const k of store.candidates(kid)) {
    if (k.jwk.alg !== undefined && k.jwk.alg !== alg) continue;
    const key = await k.key(alg);
    if (key !== null) keys.push(key);
  }
  return keys;
}

/** Decodes and checks the signature (everything but the time, issuer and audience checks). */
async function verifySignature(token: string, config: JwtConfig, deps: JwtDeps): Promise<JwtPayload> {
  const { header, payload } = decodeToken(token);
  // The original's JOSE library skips signatures whose alg it may not validate: `none` leaves none to check.
  if (header.alg === 'none') throw invalidJwt('JWSError JWSNoSignatures');
  const keys = await candidateKeys(config, header, deps);
  for (const key of keys) {
    try {
      await compactVerify(token, key, { algorithms: [header.alg as string] });
      return payload;
    } catch {
      // wrong key or key type for this alg: try the next one
    }
  }
  throw invalidJwt('JWSError JWSInvalidSignature');
}

// Note [Verified-token cache]
// A signature check costs ~0.1 ms; clients resend the same token with every request. Tokens whose signature
// verified are remembered (bounded, oldest evicted) per key holder and key generation, so a JWK rotation or
// another config never reuses a result. exp/nbf/iat/iss/aud and the claims are still checked on every request.
const MAX_CACHED_TOKENS = 1000;
const MAX_CACHED_TOKEN_LENGTH = 4096;
const verifiedTokens = new WeakMap<object, Map<string, { generation: number; payload: JwtPayload }>>();

async function verifiedPayload(token: string, config: JwtConfig, deps: JwtDeps): Promise<JwtPayload> {
  const holder: object | undefined = config.source.kind === 'key' ? config.source : deps.jwks;
  const generation = config.source.kind === 'key' ? 0 : (deps.jwks?.generation ?? -1);
  let cache = holder ? verifiedTokens.get(holder) : undefined;
  const hit = cache?.get(token);
  if (hit && hit.generation === generation) return hit.payload;
  const payload = await verifySignature(token, config, deps);
  if (holder && token.length <= MAX_CACHED_TOKEN_LENGTH) {
    if (!cache) verifiedTokens.set(holder, (cache = new Map()));
    cache.delete(token);
    cache.set(token, { generation, payload });
    if (cache.size > MAX_CACHED_TOKENS) cache.delete(cache.keys().next().value as string);
  }
  return payload;
}

/** Verifies the token and returns its payload, or throws an invalid-jwt EngineError. */
export async function verifyJwt(token: string, config: JwtConfig, deps: JwtDeps = {}): Promise<JwtPayload> {
  const payload = await verifiedPayload(token, config, deps);
  const now = (deps.now ?? Date.now)() / 1000;
  const skew = config.allowedSkewSeconds;
  const { exp, iat, nbf } = payload as { exp?: number; iat?: number; nbf?: number };
  if (exp !== undefined && now >= exp + skew) throw invalidJwt('JWTExpired');
  if (iat !== undefined && iat > now + skew) throw invalidJwt('JWTIssuedAtFuture');
  if (nbf !== undefined && now < nbf - skew) throw invalidJwt('JWTNotYetValid');
  // Deliberately stricter than the original: a configured issuer/audience also rejects tokens that omit the claim.
  if (config.issuer !== undefined && payload.iss !== config.issuer) throw invalidJwt('JWTNotInIssuer');
  if (config.audience !== undefined) {
    const aud = payload.aud === undefined ? [] : Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (!aud.some((a) => config.audience!.includes(a as string))) throw invalidJwt('JWTNotInAudience');
  }
  return payload;
}

/** The engine claims object (x-engine-* keys lower-cased) from a verified payload, per claims_map, or claims_namespace(_path) and claims_format. */
export function engineClaims(payload: JwtPayload, config: JwtConfig): Record<string, unknown> {
  // null prototype: a "__proto__" claim stays an ordinary key
  const unregistered: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(payload)) if (!REGISTERED_CLAIMS.has(k)) unregistered[k] = v;
  if (config.claimsMap) return claimsFromMap(unregistered, config.claimsMap);
  const loc = config.claims;
  const value =
    loc.kind === 'namespace'
      ? Object.hasOwn(unregistered, loc.namespace) ? unregistered[loc.namespace] : undefined
      : valueAtPath(unregistered, loc.path);
  if (value === undefined) {
    throw invalidClaims(
      loc.kind === 'namespace'
        ? `claims key: '${loc.namespace}' not found`
        : `claims not found at claims_namespace_path: '${loc.text}'`,
    );
  }
  let obj: unknown = value;
  if (config.claimsFormat === 'stringified_json') {
    if (typeof value !== 'string') throw invalidClaims('expecting a string when claims_format is stringified_json');
    try {
      obj = JSON.parse(value);
    } catch {
      obj = undefined;
    }
    if (!isPlainObject(obj)) {
      const where = loc.kind === 'namespace' ? `claims_namespace ${loc.namespace}` : `claims_namespace_path ${loc.text}`;
      throw invalidClaims(`expecting stringified json at: '${where}', but found: ${value}`);
    }
  } else if (!isPlainObject(obj)) {
    throw invalidClaims('expecting a json object when claims_format is json');
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj as Record<string, unknown>)) {
    const name = k.toLowerCase();
    if (name.startsWith('x-engine-')) out[name] = v;
  }
  return out;
}

/** A role name as the original parses one: a non-empty string; otherwise its JSON library's message. */
function roleProblem(v: unknown): string | null {
  if (typeof v !== 'string') return `parsing String failed, expected String, but encountered ${jsonTypeName(v)}`;
  return v === '' ? 'empty string not allowed' : null;
}

/** Role check and session variables from the engine claims. `requestedRole` is the X-Engine-Role header, if any. */
export function sessionFromClaims(claims: Record<string, unknown>, requestedRole: string | undefined, expiresAt?: number): Session {
  if (!(ALLOWED_ROLES_CLAIM in claims)) {
    throw new EngineError('jwt-missing-role-claims', `JWT claim does not contain ${ALLOWED_ROLES_CLAIM}`);
  }
  const allowed = claims[ALLOWED_ROLES_CLAIM];
  const allowedHint = `invalid ${ALLOWED_ROLES_CLAIM}; should be a list of roles`;
  if (!Array.isArray(allowed)) {
    throw invalidClaims(`${allowedHint}: parsing [] failed, expected Array, but encountered ${jsonTypeName(allowed)}`);
  }
  for (const r of allowed) {
    const problem = roleProblem(r);
    if (problem !== null) throw invalidClaims(`${allowedHint}: ${problem}`);
  }
  if (!(DEFAULT_ROLE_CLAIM in claims)) {
    throw new EngineError('jwt-missing-role-claims', `JWT claim does not contain ${DEFAULT_ROLE_CLAIM}`);
  }
  const defaultRole = claims[DEFAULT_ROLE_CLAIM];
  const defaultProblem = roleProblem(defaultRole);
  if (defaultProblem !== null) {
    throw invalidClaims(`invalid ${DEFAULT_ROLE_CLAIM}; should be a single role name: ${defaultProblem}`);
  }
  const role = requestedRole ? requestedRole : (defaultRole as string);
  if (!(allowed as string[]).includes(role)) {
    throw new EngineError('access-denied', 'Your requested role is not in allowed roles');
  }
  const variables: Record<string, string> = {};
  for (const [k, v] of Object.entries(claims)) {
    if (k === ALLOWED_ROLES_CLAIM || k === DEFAULT_ROLE_CLAIM) continue;
    if (typeof v !== 'string') {
      throw invalidClaims(`x-engine-* claims: parsing Text failed, expected String, but encountered ${jsonTypeName(v)}`);
    }
    variables[k] = v;
  }
  return makeSession(role, variables, expiresAt !== undefined ? { expiresAt } : {});
}

/** The whole JWT path for one token: verify, locate claims, check the role. */
export async function sessionFromJwt(token: string, requestedRole: string | undefined, config: JwtConfig, deps: JwtDeps = {}): Promise<Session> {
  const payload = await verifyJwt(token, config, deps);
  const exp = typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  return sessionFromClaims(engineClaims(payload, config), requestedRole, exp);
}
