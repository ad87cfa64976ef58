// JSON paths of claims_map and claims_namespace_path (issue 34, item 2): every form the original's documentation
// and its own claims_map tests use is accepted at start-up and finds the claim in a real token; a path that is not
// one keeps the original's message.
import test from 'ava';
import { parseJwtConfig, type AuthConfig } from '../../src/auth/config.js';
import { parseClaimsPath } from '../../src/auth/claims-path.js';
import { resolveSession } from '../../src/auth/resolve.js';
import { HS_SECRET, hsToken, NOW, NOW_MS } from './helpers.js';

const PREFIX = 'Invalid JWT config (--jwt-secret / ENGINE_GRAPHQL_JWT_SECRET): ';
const MYAPP = 'https://myapp.com/jwt/claims';
/** A token payload with the claims under a key that needs quoting, as the original's claims_map tests sign them. */
const PAYLOAD = {
  [MYAPP]: { user: { id: 'u-7' }, role: { allowed: ['user', 'editor'], default: 'editor' } },
  engine: { all_roles: ['user', 'editor'], 'claims%': { 'x-engine-allowed-roles': ['user'], 'x-engine-default-role': 'user', 'x-engine-user-id': 'ns-1' } },
  'a.b': { 'c d': 'spaced' },
  'quo\'te': 'escaped',
};
const bearer = { authorization: `Bearer ${hsToken({ exp: NOW + 60, ...PAYLOAD })}` };
const config = (jwt: Record<string, unknown>): AuthConfig => ({ adminSecret: 'admin-secret', jwt: parseJwtConfig(JSON.stringify({ type: 'HS256', key: HS_SECRET, ...jwt })) });

// [path as written in a claims_map, the user id it must find in PAYLOAD]
const userIdPaths: Array<[string, string]> = [
  [`$.['${MYAPP}'].user.id`, 'u-7'], // the original's test_jwt_claims_map.py
  [`$['${MYAPP}'].user.id`, 'u-7'],
  [`$["${MYAPP}"].user.id`, 'u-7'],
  [`$.["${MYAPP}"]['user'].["id"]`, 'u-7'],
  [`$.['${MYAPP}'].role.allowed[1]`, 'editor'],
  [`$.['${MYAPP}'].role.allowed.[1]`, 'editor'],
  ['$.engine.all_roles[0]', 'user'], // the documentation's $.hasura.all_roles[0]
  ["$['a.b']['c d']", 'spaced'],
  ["$['quo\\'te']", 'escaped'],
  ['engine.all_roles[1]', 'editor'], // no leading $
];

for (const [path, expected] of userIdPaths) {
  test(`claims_map path ${path} is accepted and finds its claim`, async (t) => {
    const c = config({
      claims_map: {
        'x-engine-allowed-roles': { path: `$.['${MYAPP}'].role.allowed` },
        'x-engine-default-role': { path: `$.['${MYAPP}'].role.default` },
        'x-engine-user-id': { path },
      },
    });
    const s = await resolveSession(bearer, c, { now: () => NOW_MS });
    t.is(s.role, 'editor');
    t.is(s.variables['x-engine-user-id'], expected);
  });
}

test('claims_namespace_path: $, a dotted path, a bracketed key with or without the dot before it', async (t) => {
  const root = parseClaimsPath('$');
  t.deepEqual(root, []);
  for (const path of ["$.engine['claims%']", "$.engine.['claims%']", '$.engine["claims%"]']) {
    const s = await resolveSession(bearer, config({ claims_namespace_path: path }), { now: () => NOW_MS });
    t.deepEqual(s.variables, { 'x-engine-user-id': 'ns-1', 'x-engine-role': 'user' }, path);
  }
});

const MESSAGE_TAIL = ". Accept letters, digits, underscore (_) or hyphen (-) only. Use single quotes enclosed in bracket (['...']) if there is any special character";
const invalid = ['', '$.', '$..a', '$[', "$['a'", "$['a']b c", '$.a b', '$.a[x]', '$.a[-1]', '$.cognito:groups', '$$', '$.a.', "$.['a'"];

for (const path of invalid) {
  test(`an invalid path is refused at start-up with the original's message: ${JSON.stringify(path)}`, (t) => {
    t.is(t.throws(() => parseClaimsPath(path))?.message, path + MESSAGE_TAIL);
    const inMap = t.throws(() => config({ claims_map: { 'x-engine-allowed-roles': ['user'], 'x-engine-default-role': 'user', 'x-engine-user-id': { path } } }));
    t.is(inMap?.message, `${PREFIX}claims_map: x-engine-user-id: invalid JSON path: ${path}${MESSAGE_TAIL}`);
    const asNamespace = t.throws(() => config({ claims_namespace_path: path }));
    t.is(asNamespace?.message, `${PREFIX}invalid JSON path claims_namespace_path error: ${path}${MESSAGE_TAIL}`);
  });
}
