// claims_map of the JWT configuration (as the original v1.3.3): each x-engine-* session variable taken from a JSON
// path in the token's claims (`{"path": "$.user.id", "default": "..."}`) or given as a literal value. With it,
// claims_namespace(_path) and claims_format are not used.
import type { PathSegment } from '../core/json-path.js';
import { EngineError } from '../core/errors.js';
import { parseClaimsPath, valueAtPath } from './claims-path.js';

export const ALLOWED_ROLES_VAR = 'x-engine-allowed-roles';
export const DEFAULT_ROLE_VAR = 'x-engine-default-role';

export type ClaimsMapValue =
  | { kind: 'path'; path: PathSegment[]; default?: unknown }
  | { kind: 'literal'; value: unknown };

/** Session variable (lower-cased) → where its value comes from. */
export type ClaimsMap = Map<string, ClaimsMapValue>;

/** Parses the `claims_map` object; throws an Error with a one-line reason (the caller prefixes the setting). */
export function parseClaimsMap(raw: unknown): ClaimsMap {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new Error('claims_map: expected a JSON object');
  const out: ClaimsMap = new Map();
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    const name = k.toLowerCase();
    out.set(name, parseValue(name, v));
  }
  // The original's wording (its claims map parser).
  for (const required of [ALLOWED_ROLES_VAR, DEFAULT_ROLE_VAR]) {
    if (!out.has(required)) throw new Error(`${required} is expected but not found`);
  }
  return out;
}

function parseValue(name: string, v: unknown): ClaimsMapValue {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if (!Object.hasOwn(o, 'path')) throw new Error('path containing the JSON path not present');
    if (typeof o.path !== 'string') throw new Error('expected a string value for a JSON path');
    let path: PathSegment[];
    try {
      path = parseClaimsPath(o.path);
    } catch (e) {
      throw new Error(`claims_map: ${name}: invalid JSON path: ${(e as Error).message}`);
    }
    if (Object.hasOwn(o, 'default')) {
      checkLiteral(name, o.default);
      return { kind: 'path', path, default: o.default };
    }
    return { kind: 'path', path };
  }
  checkLiteral(name, v);
  return { kind: 'literal', value: v };
}

/** Literal values (and defaults) have the type the variable needs: a list of role names, or a string. */
function checkLiteral(name: string, v: unknown): void {
  if (name === ALLOWED_ROLES_VAR) {
    if (!Array.isArray(v) || !v.every((r) => typeof r === 'string')) throw new Error(`claims_map: ${name}: expected a list of strings`);
  } else if (typeof v !== 'string') {
    throw new Error(`claims_map: ${name}: expected a string`);
  }
}

/**
 * The engine claims object from the token's unregistered claims per the map. A role variable whose path is missing
 * (and has no default) is left out, so the role check reports it as missing; another variable is an error.
 */
export function claimsFromMap(unregistered: Record<string, unknown>, map: ClaimsMap): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, source] of map) {
    let value: unknown;
    if (source.kind === 'literal') value = source.value;
    else {
      value = valueAtPath(unregistered, source.path);
      if (value === undefined) value = source.default; // a JSON null found at the path stays null
    }
    if (value === undefined) {
      if (name === ALLOWED_ROLES_VAR || name === DEFAULT_ROLE_VAR) continue;
      throw new EngineError('jwt-invalid-claims', `JWT claim from claims_map, ${name} not found`);
    }
    out[name] = value;
  }
  return out;
}
