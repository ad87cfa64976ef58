// Auth configuration: admin secret, JWT config (SPEC 2.8, validated with zod), auth hook, unauthorized role.
// Everything here runs once at start-up; a bad value gives a one-line message and the server refuses to start.
import { createPublicKey, createSecretKey, X509Certificate, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { formatPath, type PathSegment } from '../core/json-path.js';
import { parseClaimsPath } from './claims-path.js';
import { parseClaimsMap, type ClaimsMap } from './claims-map.js';

export const DEFAULT_CLAIMS_NAMESPACE = 'https://engine.io/jwt/claims';

export const HS_TYPES = ['HS256', 'HS384', 'HS512'] as const;
export const RS_TYPES = ['RS256', 'RS384', 'RS512'] as const;
export type JwtKeyType = (typeof HS_TYPES)[number] | (typeof RS_TYPES)[number];

export type JwtKeySource =
  /** A shared secret (HS*) or an RSA public key (RS*), given inline. `key` is a node KeyObject (secret or public). */
  | { kind: 'key'; type: JwtKeyType; family: 'HS' | 'RS'; key: KeyObject }
  /** A JWK set fetched (and refreshed) from a URL; see jwk.ts. */
  | { kind: 'jwk_url'; url: string };

export type ClaimsLocation =
  | { kind: 'namespace'; namespace: string }
  | { kind: 'path'; path: PathSegment[]; text: string };

export type ClaimsFormat = 'json' | 'stringified_json';

export interface JwtConfig {
  source: JwtKeySource;
  claims: ClaimsLocation;
  claimsFormat: ClaimsFormat;
  /** claims_map: when set, the session variables come from it (claims and claimsFormat are not used). */
  claimsMap?: ClaimsMap;
  /** When set, the token's `aud` must contain one of these. */
  audience?: string[];
  /** When set, the token's `iss` must equal it. */
  issuer?: string;
  /** Tolerated clock difference for exp/nbf/iat, seconds (an optional extension, `allowed_skew`; default 0 as the original). */
  allowedSkewSeconds: number;
}

export type AuthHookMode = 'GET' | 'POST';

export interface AuthConfig {
  adminSecret?: string;
  jwt?: JwtConfig;
  authHook?: { url: string; mode: AuthHookMode };
  unauthorizedRole?: string;
}

const jwtConfigSchema = z.object({
  type: z.string().optional(),
  key: z.string().optional(),
  jwk_url: z.string().url().optional(),
  claims_namespace: z.string().optional(),
  claims_namespace_path: z.string().optional(),
  claims_format: z.enum(['json', 'stringified_json']).optional(),
  audience: z.union([z.string(), z.array(z.string())]).optional(),
  issuer: z.string().optional(),
  allowed_skew: z.number().nonnegative().optional(),
  claims_map: z.unknown().optional(),
}).strict();

const PREFIX = 'Invalid JWT config (--jwt-secret / ENGINE_GRAPHQL_JWT_SECRET)';
const fail = (reason: string): never => {
  throw new Error(`${PREFIX}: ${reason}`);
};

/** Parses the JSON text of --jwt-secret / ENGINE_GRAPHQL_JWT_SECRET. Throws an Error with a one-line message. */
export function parseJwtConfig(text: string): JwtConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return fail('not valid JSON');
  }
  return jwtConfigFromJson(raw);
}

/** The same, from already parsed JSON (the CLI parses --jwt-secret as JSON first). */
export function jwtConfigFromJson(raw: unknown): JwtConfig {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return fail('expected a JSON object');
  const parsed = jwtConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // A misspelt key (claim_map, jwk-url...) would otherwise be silently ignored.
    if (issue.code === 'unrecognized_keys') return fail(`unknown key${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`);
    return fail(`${formatPath(issue.path)}: ${issue.message}`);
  }
  const c = parsed.data;

  let claims: ClaimsLocation;
  if (c.claims_namespace !== undefined && c.claims_namespace_path !== undefined) {
    return fail('claims_namespace and claims_namespace_path both cannot be set');
  } else if (c.claims_namespace_path !== undefined) {
    try {
      const path = parseClaimsPath(c.claims_namespace_path);
      claims = { kind: 'path', path, text: formatPath(path) };
    } catch (e) {
      return fail(`invalid JSON path claims_namespace_path error: ${(e as Error).message}`);
    }
  } else {
    claims = { kind: 'namespace', namespace: c.claims_namespace ?? DEFAULT_CLAIMS_NAMESPACE };
  }

  let source: JwtKeySource;
  if (c.key === undefined && c.jwk_url === undefined) return fail('key and jwk_url both cannot be empty');
  if (c.key !== undefined && c.jwk_url !== undefined) return fail('key, jwk_url both cannot be present');
  if (c.key !== undefined) {
    if (c.type === undefined) return fail('type is required when key is given');
    source = parseKey(c.type, c.key);
  } else {
    const url = c.jwk_url as string;
    if (!/^https?:\/\//i.test(url)) return fail('jwk_url must be an http or https URL');
    source = { kind: 'jwk_url', url };
  }

  let claimsMap: ClaimsMap | undefined;
  if (c.claims_map !== undefined) {
    try {
      claimsMap = parseClaimsMap(c.claims_map);
    } catch (e) {
      return fail((e as Error).message);
    }
  }

  const audience = c.audience === undefined ? undefined : Array.isArray(c.audience) ? c.audience : [c.audience];
  return {
    source,
    claims,
    claimsFormat: c.claims_format ?? 'json',
    ...(claimsMap !== undefined ? { claimsMap } : {}),
    ...(audience !== undefined ? { audience } : {}),
    ...(c.issuer !== undefined ? { issuer: c.issuer } : {}),
    allowedSkewSeconds: c.allowed_skew ?? 0,
  };
}

function parseKey(type: string, key: string): JwtKeySource {
  if ((HS_TYPES as readonly string[]).includes(type)) {
    const bits = Number(type.slice(2));
    const secret = Buffer.from(key, 'utf8');
    // As the original: the secret must have at least as many bytes as the hash has (HS256: 32, HS384: 48, HS512: 64).
    if (secret.length < bits / 8) fail(`Invalid JWK: Key size too small; should be atleast ${bits / 8} characters`);
    return { kind: 'key', type: type as JwtKeyType, family: 'HS', key: createSecretKey(secret) };
  }
  if ((RS_TYPES as readonly string[]).includes(type)) {
    return { kind: 'key', type: type as JwtKeyType, family: 'RS', key: parseRsaPublicKey(key) };
  }
  return fail(`Invalid JWK: Key type: ${type} is not supported`);
}

/** A PEM public key (SPKI or PKCS#1) or an X509 certificate; private keys and non-RSA keys are refused. */
function parseRsaPublicKey(pem: string): KeyObject {
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem)) {
    fail('Invalid JWK: Could not decode PEM: expected a public key or an X509 certificate, not a private key');
  }
  let key: KeyObject;
  try {
    key = /-----BEGIN CERTIFICATE-----/.test(pem) ? new X509Certificate(pem).publicKey : createPublicKey(pem);
  } catch (e) {
    return fail(`Invalid JWK: Could not decode PEM: ${(e as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'rsa') fail(`Invalid JWK: expected an RSA public key, got ${key.asymmetricKeyType ?? 'an unknown key type'}`);
  return key;
}

/** --auth-hook-mode / ENGINE_GRAPHQL_AUTH_HOOK_MODE. */
export function parseAuthHookMode(text: string): AuthHookMode {
  if (text === 'GET' || text === 'POST') return text;
  throw new Error('Only expecting GET / POST');
}

const REQUIRES_ADMIN_SECRET =
  ' requires --admin-secret (ENGINE_GRAPHQL_ADMIN_SECRET) or --access-key (ENGINE_GRAPHQL_ACCESS_KEY) to be set';

/** The start-up mode rules of the original (setupAuthMode). Throws an Error with its fatal message. */
export function checkAuthConfig(cfg: AuthConfig): void {
  const secret = cfg.adminSecret !== undefined;
  const hook = cfg.authHook !== undefined;
  const jwt = cfg.jwt !== undefined;
  if (cfg.adminSecret === '') throw new Error('Fatal Error: the admin secret must not be empty');
  if (cfg.unauthorizedRole === '') throw new Error('Fatal Error: the unauthorized role must not be empty');
  if (hook && jwt) throw new Error('Fatal Error: Both webhook and JWT mode cannot be enabled at the same time');
  if (cfg.unauthorizedRole !== undefined && (!secret || hook)) {
    throw new Error(
      `Fatal Error: --unauthorized-role (ENGINE_GRAPHQL_UNAUTHORIZED_ROLE)${REQUIRES_ADMIN_SECRET}` +
        ' and is not allowed when --auth-hook (ENGINE_GRAPHQL_AUTH_HOOK) is set',
    );
  }
  if (hook && !secret) throw new Error(`Fatal Error : --auth-hook (ENGINE_GRAPHQL_AUTH_HOOK)${REQUIRES_ADMIN_SECRET}`);
  if (jwt && !secret) throw new Error(`Fatal Error : --jwt-secret (ENGINE_GRAPHQL_JWT_SECRET)${REQUIRES_ADMIN_SECRET}`);
  if (hook && cfg.authHook && !/^https?:\/\//i.test(cfg.authHook.url)) {
    throw new Error('Fatal Error: --auth-hook (ENGINE_GRAPHQL_AUTH_HOOK) must be an http or https URL');
  }
}

/** Server settings as the CLI parses them (flags / ENGINE_GRAPHQL_* variables). */
export interface AuthSettings {
  adminSecret?: string;
  /** --jwt-secret, already parsed as JSON. */
  jwtSecret?: unknown;
  authHook?: string;
  authHookMode?: AuthHookMode;
  unauthorizedRole?: string;
}

/** Start-up: settings → checked AuthConfig. Throws an Error with a one-line message (the server must refuse to start). */
export function authConfigFrom(s: AuthSettings): AuthConfig {
  const cfg: AuthConfig = {
    ...(s.adminSecret !== undefined ? { adminSecret: s.adminSecret } : {}),
    ...(s.jwtSecret !== undefined ? { jwt: jwtConfigFromJson(s.jwtSecret) } : {}),
    ...(s.authHook !== undefined ? { authHook: { url: s.authHook, mode: s.authHookMode ?? 'GET' } } : {}),
    ...(s.unauthorizedRole !== undefined ? { unauthorizedRole: s.unauthorizedRole } : {}),
  };
  checkAuthConfig(cfg);
  return cfg;
}

/** The auth part of GET /v1alpha1/config. */
export function authConfigSummary(cfg: AuthConfig): {
  is_admin_secret_set: boolean;
  is_auth_hook_set: boolean;
  is_jwt_set: boolean;
  jwt: Record<string, string> | null;
} {
  const jwt = cfg.jwt;
  return {
    is_admin_secret_set: cfg.adminSecret !== undefined,
    is_auth_hook_set: cfg.authHook !== undefined,
    is_jwt_set: jwt !== undefined,
    jwt:
      jwt === undefined
        ? null
        : jwt.claims.kind === 'namespace'
          ? { claims_namespace: jwt.claims.namespace, claims_format: jwt.claimsFormat }
          : { claims_namespace_path: jwt.claims.text, claims_format: jwt.claimsFormat },
  };
}
