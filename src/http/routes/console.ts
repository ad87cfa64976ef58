// GET /console[/...]: the web console (console/dist, bundled by console/build.mjs at install). Asset files come
// from console/dist/assets (gzipped copies when the client accepts gzip); every other path under /console is the
// single page (routing happens in the browser). A missing bundle is built once, on the first request.
import type Router from '@koa/router';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { log } from '../../core/log.js';
import { PACKAGE_ROOT } from '../../package-root.js';
import { acceptsGzip } from '../request-common.js';

const DIST = path.join(PACKAGE_ROOT, 'console', 'dist');
const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.svg': 'image/svg+xml',
};

let building: Promise<void> | null = null;

/** Builds the bundle when it is missing (a checkout that skipped npm's prepare step). */
function ensureBuilt(): Promise<void> {
  building ??= stat(path.join(DIST, 'index.html')).then(
    () => undefined,
    async () => {
      log.info('console-build', { message: 'console bundle missing, building it' });
      // Loaded from the package at run time (a URL, so that the engine's bundle does not take the builder in).
      const mod = (await import(pathToFileURL(path.join(PACKAGE_ROOT, 'console', 'build.mjs')).href)) as { buildConsole(o: { quiet: boolean }): Promise<unknown> };
      await mod.buildConsole({ quiet: true });
    },
  );
  building.catch(() => (building = null));
  return building;
}

export function consoleRoutes(router: Router): void {
  router.get('/console/assets/:file', async (ctx, next) => {
    const file = ctx.params.file;
    if (!/^[\w.-]+$/.test(file) || file.startsWith('.')) return next();
    await ensureBuilt();
    const full = path.join(DIST, 'assets', file);
    const gz = acceptsGzip(ctx.get('accept-encoding')) ? await readFile(full + '.gz').catch(() => null) : null;
    const body = gz ?? (await readFile(full).catch(() => null));
    if (body === null) return next();
    ctx.type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    if (gz) ctx.set('Content-Encoding', 'gzip');
    ctx.set('Vary', 'Accept-Encoding');
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = body;
  });
  router.get(['/console', '/console/(.*)'], async (ctx, next) => {
    if (ctx.path.startsWith('/console/assets/')) return next(); // a missing asset is a 404, not the page
    await ensureBuilt();
    ctx.type = TYPES['.html'];
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = await readFile(path.join(DIST, 'index.html'));
  });
}
