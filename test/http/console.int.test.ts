// GET /console serves the bundled console (built by console/build.mjs): the page for any path under /console, the
// assets (gzipped when accepted), 404 for unknown assets and when --enable-console is false.
import test from 'ava';
import { buildConsole, consoleBuilt } from '../../console/build.mjs';
import { startTestEngine } from '../helpers/engine.js';

test.before(async () => {
  if (!(await consoleBuilt())) await buildConsole({ quiet: true });
});

test('the console page, its assets and client-side routes are served on the engine port', async (t) => {
  const e = await startTestEngine();
  try {
    for (const p of ['/console', '/console/', '/console/data/public/author', '/console/history']) {
      const r = await e.get(p);
      t.is(r.status, 200, p);
      t.regex(r.headers.get('content-type') ?? '', /^text\/html/);
      t.regex(r.text, /<script src="\/console\/assets\/app\.js"><\/script>/);
    }
    const js = await fetch(`${e.url}/console/assets/app.js`, { headers: { 'accept-encoding': 'gzip' } });
    t.is(js.status, 200);
    t.is(js.headers.get('content-encoding'), 'gzip');
    t.regex(js.headers.get('content-type') ?? '', /^application\/javascript/);
    t.true((await js.text()).length > 100_000); // fetch un-gzips it
    const css = await e.get('/console/assets/app.css');
    t.regex(css.headers.get('content-type') ?? '', /^text\/css/);
    for (const p of ['/console/assets/nope.js', '/console/assets/..%2Fpackage.json', '/consoles']) {
      const r = await e.get(p);
      t.is(r.status, 404, p);
      t.deepEqual(r.body, { path: '$', error: 'resource does not exist', code: 'not-found' });
    }
  } finally {
    await e.close();
  }
});

test('--enable-console false: /console is not found', async (t) => {
  const e = await startTestEngine({ enableConsole: false });
  try {
    const r = await e.get('/console');
    t.is(r.status, 404);
    t.deepEqual(r.body, { path: '$', error: 'resource does not exist', code: 'not-found' });
  } finally {
    await e.close();
  }
});
