// claims_map (issue 8): session variables from JSON paths in the token (with defaults) or literal values, the
// original's errors, and unknown JWT configuration keys refused at start-up.
import test from 'ava';
import { EngineError } from '../../src/core/errors.js';
import { parseJwtConfig, type AuthConfig } from '../../src/auth/config.js';
import { resolveSession } from '../../src/auth/resolve.js';
import { HS_SECRET, hsToken, NOW, NOW_MS } from './helpers.js';

const PREFIX = 'Invalid JWT config (--jwt-secret / ENGINE_GRAPHQL_JWT_SECRET): ';
const now = () => NOW_MS;
const cfg = (claimsMap: unknown, extra: Record<string, unknown> = {}): AuthConfig => ({
  adminSecret: 'admin-secret',
  jwt: parseJwtConfig(JSON.stringify({ type: 'HS256', key: HS_SECRET, claims_map: claimsMap, ...extra })),
});
const bearer = (payload: Record<string, unknown>) => ({ authorization: `Bearer ${hsToken({ exp: NOW + 60, ...payload })}` });

const MAP = {
  'x-engine-allowed-roles': { path: '$.engine.all_roles' },
  'x-engine-default-role': { path: '$.engine.all_roles[0]' },
  'X-Engine-User-Id': { path: '$.user.id', default: 'anonymous-id' },
  'x-engine-org': 'acme',
};

test('variables from paths, defaults and literals; claims_namespace is not used', async (t) => {
  const config = cfg(MAP, { claims_namespace: 'https://ignored.example' });
  const s = await resolveSession(bearer({ engine: { all_roles: ['user', 'editor'] }, user: { id: 'u-42' } }), config, { now });
  t.is(s.role, 'user');
  t.deepEqual(s.variables, { 'x-engine-user-id': 'u-42', 'x-engine-org': 'acme', 'x-engine-role': 'user' });
  const d = await resolveSession({ ...bearer({ engine: { all_roles: ['user', 'editor'] } }), 'x-engine-role': 'editor' }, config, { now });
  t.is(d.role, 'editor');
  t.deepEqual(d.variables, { 'x-engine-user-id': 'anonymous-id', 'x-engine-org': 'acme', 'x-engine-role': 'editor' });
});

test('literal roles', async (t) => {
  const config = cfg({ 'x-engine-allowed-roles': ['viewer'], 'x-engine-default-role': 'viewer', 'x-engine-user-id': { path: '$.sub_id' } });
  const s = await resolveSession(bearer({ sub_id: '7' }), config, { now });
  t.is(s.role, 'viewer');
  t.deepEqual(s.variables, { 'x-engine-user-id': '7', 'x-engine-role': 'viewer' });
});

test('request errors: a path without default that is missing, missing roles, values of the wrong type', async (t) => {
  const config = cfg({ ...MAP, 'x-engine-team-id': { path: '$.team.id' } });
  const err = async (payload: Record<string, unknown>) => {
    const e = await t.throwsAsync(resolveSession(bearer(payload), config, { now }), { instanceOf: EngineError });
    return { code: e?.code, message: e?.message };
  };
  t.deepEqual(await err({ engine: { all_roles: ['user'] } }), { code: 'jwt-invalid-claims', message: 'JWT claim from claims_map, x-engine-team-id not found' });
  t.deepEqual(await err({ team: { id: 't' } }), { code: 'jwt-missing-role-claims', message: 'JWT claim does not contain x-engine-allowed-roles' });
  t.deepEqual(await err({ engine: { all_roles: [] }, team: { id: 't' } }), { code: 'jwt-missing-role-claims', message: 'JWT claim does not contain x-engine-default-role' });
  t.deepEqual(await err({ engine: { all_roles: ['user'] }, team: { id: 5 } }),
    { code: 'jwt-invalid-claims', message: 'x-engine-* claims: parsing Text failed, expected String, but encountered Number' });
  t.deepEqual(await err({ engine: { all_roles: 'user' }, team: { id: 't' } }),
    { code: 'jwt-invalid-claims', message: 'invalid x-engine-allowed-roles; should be a list of roles: parsing [] failed, expected Array, but encountered String' });
});

const badConfigs: Array<[string, Record<string, unknown>, string]> = [
  ['claims_map without allowed roles', { claims_map: { 'x-engine-default-role': 'user' } }, 'x-engine-allowed-roles is expected but not found'],
  ['claims_map without default role', { claims_map: { 'x-engine-allowed-roles': ['user'] } }, 'x-engine-default-role is expected but not found'],
  ['claims_map object without path', { claims_map: { ...MAP, 'x-engine-user-id': { default: 'x' } } }, 'path containing the JSON path not present'],
  ['claims_map path not a string', { claims_map: { ...MAP, 'x-engine-user-id': { path: 5 } } }, 'expected a string value for a JSON path'],
  ['unknown key', { claim_map: MAP }, 'unknown key: claim_map'],
  ['unknown keys', { claim_map: MAP, jwk: 'x' }, 'unknown keys: claim_map, jwk'],
];
for (const [name, extra, reason] of badConfigs) {
  test(`start-up refuses: ${name}`, (t) => {
    const e = t.throws(() => parseJwtConfig(JSON.stringify({ type: 'HS256', key: HS_SECRET, ...extra })));
    t.is(e?.message, PREFIX + reason);
  });
}
