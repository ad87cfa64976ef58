// CORS end to end: an engine with a wildcard domain answers allowed origins (fast path, koa routes, preflight)
// with the original's Access-Control-Allow-* headers, and a deeper subdomain gets none.
import test from 'ava';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';

let e: TestEngine;
test.before(async () => {
  e = await startTestEngine({ corsDomain: 'http://*.foo.bar.com' });
});
test.after.always(async () => {
  await e?.close();
});

const acHeaders = (h: Headers): Record<string, string> => {
  const out: Record<string, string> = {};
  h.forEach((v, k) => {
    if (k.startsWith('access-control-')) out[k] = v;
  });
  return out;
};
const ALLOWED = {
  'access-control-allow-origin': 'http://inst1.foo.bar.com',
  'access-control-allow-credentials': 'true',
  'access-control-allow-methods': 'GET,POST,PUT,PATCH,DELETE,OPTIONS',
};

test('normal responses to an allowed origin carry origin, credentials and methods', async (t) => {
  const origin = 'http://inst1.foo.bar.com';
  const gql = await fetch(`${e.url}/v1/graphql`, { method: 'POST', headers: { origin }, body: JSON.stringify({ query: '{ __typename }' }) });
  t.deepEqual(acHeaders(gql.headers), ALLOWED);
  const query = await fetch(`${e.url}/v1/query`, { method: 'POST', headers: { origin }, body: JSON.stringify({ type: 'export_metadata', args: {} }) });
  t.deepEqual(acHeaders(query.headers), ALLOWED);
  const version = await fetch(`${e.url}/v1/version`, { headers: { origin } });
  t.deepEqual(acHeaders(version.headers), ALLOWED);
});

test('preflight: 204 with methods, max age and the requested headers', async (t) => {
  const res = await fetch(`${e.url}/v1/graphql`, {
    method: 'OPTIONS',
    headers: { origin: 'http://inst1.foo.bar.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-engine-role' },
  });
  t.is(res.status, 204);
  t.deepEqual(acHeaders(res.headers), {
    ...ALLOWED,
    'access-control-max-age': '1728000',
    'access-control-allow-headers': 'content-type,x-engine-role',
  });
});

test('a wildcard matches one label only: deeper subdomains and the bare domain get no CORS headers', async (t) => {
  for (const origin of ['http://inst1.app.foo.bar.com', 'http://foo.bar.com', 'https://inst1.foo.bar.com']) {
    const gql = await fetch(`${e.url}/v1/graphql`, { method: 'POST', headers: { origin }, body: JSON.stringify({ query: '{ __typename }' }) });
    t.deepEqual(acHeaders(gql.headers), {}, origin);
    const pre = await fetch(`${e.url}/v1/graphql`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
    t.deepEqual(acHeaders(pre.headers), {}, origin);
  }
});
