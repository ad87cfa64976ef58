// CORS origin matching as the original: exact origins, and `*.domain` entries that stand for exactly one label.
import test from 'ava';
import { corsHeaders, corsPolicy, preflightHeaders } from '../../src/http/cors.js';

const policy = (corsDomain: string, disableCors = false) => corsPolicy({ corsDomain, disableCors });

test('a wildcard domain matches exactly one label, with the same scheme and port', (t) => {
  const allowed = policy('http://*.foo.bar.com, https://*.app.example:8443');
  t.is(allowed('http://inst1.foo.bar.com'), 'http://inst1.foo.bar.com');
  t.is(allowed('http://inst1.app.foo.bar.com'), null);
  t.is(allowed('http://a.b.c.foo.bar.com'), null);
  t.is(allowed('http://foo.bar.com'), null);
  t.is(allowed('https://inst1.foo.bar.com'), null);
  t.is(allowed('http://inst1.foo.bar.com:8080'), null);
  t.is(allowed('http://inst1.evilfoo.bar.com'), null);
  t.is(allowed('https://x.app.example:8443'), 'https://x.app.example:8443');
  t.is(allowed('https://x.app.example'), null);
  t.is(allowed('https://x.y.app.example:8443'), null);
});

test('exact origins, * and disabled CORS', (t) => {
  const exact = policy('http://localhost:3000,https://app.example');
  t.is(exact('http://localhost:3000'), 'http://localhost:3000');
  t.is(exact('https://app.example'), 'https://app.example');
  t.is(exact('https://sub.app.example'), null);
  t.is(exact('http://localhost:3001'), null);
  t.is(exact(''), null);
  t.is(policy('*')('http://anything.example'), 'http://anything.example');
  t.is(policy('*', true)('http://anything.example'), null);
});

test('headers of allowed responses and preflights', (t) => {
  t.deepEqual(corsHeaders('http://o.example'), [
    ['Access-Control-Allow-Origin', 'http://o.example'],
    ['Access-Control-Allow-Credentials', 'true'],
    ['Access-Control-Allow-Methods', 'GET,POST,PUT,PATCH,DELETE,OPTIONS'],
  ]);
  t.deepEqual(preflightHeaders('content-type,x-engine-role'), [
    ['Access-Control-Max-Age', '1728000'],
    ['Access-Control-Allow-Headers', 'content-type,x-engine-role'],
  ]);
});
