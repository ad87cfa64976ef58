// Resolving a remote schema definition against the environment: url_from_env, header values, {{VAR}} templates.
import test from 'ava';
import { renderTemplate, resolveRemote } from '../../src/remote/introspect.js';
import { isEngineError } from '../../src/core/errors.js';

const fails = (f: () => unknown): { code: string; message: string } => {
  try {
    f();
  } catch (e) {
    if (isEngineError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected an error');
};

test('url, url_from_env, templates and headers resolve from the environment', (t) => {
  const env = { U: 'http://a.example/graphql', H: 'secret', HOST: 'b.example' };
  t.deepEqual(resolveRemote({ url_from_env: 'U', headers: [{ name: 'x', value: '1' }, { name: 'y', value_from_env: 'H' }] }, env), {
    url: 'http://a.example/graphql',
    headers: { x: '1', y: 'secret' },
    timeoutSeconds: 60,
    forwardClientHeaders: false,
  });
  t.is(resolveRemote({ url: 'http://{{HOST}}/g', timeout_seconds: 5 }, env).url, 'http://b.example/g');
  t.is(renderTemplate('http://{{ HOST }}/x', env), 'http://b.example/x');
});

test('unset variables and bad URIs give the original errors', (t) => {
  t.deepEqual(fails(() => resolveRemote({ url_from_env: 'NOPE' }, {})), { code: 'not-found', message: "environment variable 'NOPE' not set" });
  t.deepEqual(fails(() => resolveRemote({ url: 'http://x', headers: [{ name: 'h', value_from_env: 'NOPE' }] }, {})), {
    code: 'not-found',
    message: "environment variable 'NOPE' not set",
  });
  t.deepEqual(fails(() => resolveRemote({ url: 'not a uri' }, {})), { code: 'invalid-params', message: 'not a valid URI: not a uri' });
  t.is(fails(() => resolveRemote({ url: 'http://{{NOPE}}/' }, {})).code, 'unexpected');
});
