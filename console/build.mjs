// Bundles the console (console/src, React + GraphiQL) with esbuild into console/dist: index.html, app.js, app.css.
// Run by `npm run build:console`, at install (prepare) and before `npm start`; the engine serves the result at
// /console. Everything is bundled (no CDN), so the console works offline.
import { build } from 'esbuild';
import { mkdir, readdir, readFile, writeFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));
export const DIST = path.join(here, 'dist');

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>engine console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/assets/app.css">
</head>
<body>
<div id="root"></div>
<script src="/console/assets/app.js"></script>
</body>
</html>
`;

/** Builds the bundle; returns the sizes in bytes (raw and gzipped) of app.js and app.css. */
export async function buildConsole({ minify = true, quiet = false } = {}) {
  await mkdir(path.join(DIST, 'assets'), { recursive: true });
  await build({
    entryPoints: { app: path.join(here, 'src', 'main.tsx') },
    bundle: true,
    minify,
    format: 'iife',
    target: ['chrome110', 'firefox110', 'safari16'],
    outdir: path.join(DIST, 'assets'),
    jsx: 'automatic',
    loader: { '.woff': 'file', '.woff2': 'file', '.ttf': 'file', '.svg': 'dataurl' },
    assetNames: '[name]-[hash]',
    publicPath: '/console/assets',
    define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
    legalComments: 'none',
    logLevel: quiet ? 'error' : 'warning',
  });
  await writeFile(path.join(DIST, 'index.html'), HTML);
  const sizes = {};
  for (const f of ['app.js', 'app.css']) {
    const p = path.join(DIST, 'assets', f);
    const buf = await readFile(p).catch(() => Buffer.alloc(0));
    const gz = gzipSync(buf, { level: 9 });
    await writeFile(`${p}.gz`, gz); // served to clients that accept gzip
    sizes[f] = { bytes: buf.length, gzip: gz.length };
  }
  return sizes;
}

/** Whether the bundle exists and is newer than every source file (the tests rebuild only when needed). */
export async function consoleBuilt() {
  let built;
  try {
    built = (await stat(path.join(DIST, 'assets', 'app.js'))).mtimeMs;
  } catch {
    return false;
  }
  const files = await readdir(path.join(here, 'src'), { recursive: true });
  for (const f of files) if ((await stat(path.join(here, 'src', f))).mtimeMs > built) return false;
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const sizes = await buildConsole({ quiet: process.argv.includes('--quiet') });
  const kb = (n) => `${(n / 1024).toFixed(0)} kB`;
  console.log(
    `console built in ${Date.now() - started} ms: app.js ${kb(sizes['app.js'].bytes)} (${kb(sizes['app.js'].gzip)} gzip), app.css ${kb(sizes['app.css'].bytes)} (${kb(sizes['app.css'].gzip)} gzip)`,
  );
}
