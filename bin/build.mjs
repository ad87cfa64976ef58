// Compiles the engine (src/, events/, projections/) with esbuild into one plain JavaScript module, dist/engine.mjs,
// which production runs: no TypeScript compiler in the process, one file to load instead of a few hundred.
// Run at install (npm's prepare step), by `npm run build`, and by the docker image; bin/engine.mjs runs the result
// while it is up to date with the sources and falls back to tsx (development, tests) when it is not.
// Packages stay external (node_modules is there at run time), so the bundle holds only the engine's own code.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = path.join(ROOT, 'dist');
export const ENGINE_JS = path.join(DIST, 'engine.mjs');
// The sources the bundle was made from (paths relative to the root): bin/engine.mjs compares their times with the
// bundle's to tell whether it is stale.
export const INPUTS_JSON = path.join(DIST, 'engine.inputs.json');
const ENTRY = path.join(ROOT, 'src', 'cli', 'cli.ts');

/** Builds dist/engine.mjs; returns its size in bytes and the number of source files in it. */
export async function buildEngine({ quiet = false } = {}) {
  await mkdir(DIST, { recursive: true });
  // Written beside the target and renamed into place: a process starting meanwhile sees the old or the new file.
  const tmp = path.join(DIST, `.engine-${process.pid}-${Date.now()}`);
  try {
    const result = await build({
      stdin: {
        // The same two lines bin/engine.mjs runs through tsx.
        contents: `import { runCli } from './src/cli/cli.ts';\nawait runCli();\n`,
        resolveDir: ROOT,
        sourcefile: 'engine-entry.ts',
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      outfile: path.join(tmp, 'engine.mjs'),
      // Stack traces name the .ts files (node --enable-source-maps); the map is not loaded otherwise.
      sourcemap: 'linked',
      sourcesContent: false,
      metafile: true,
      legalComments: 'none',
      logLevel: quiet ? 'error' : 'warning',
    });
    const inputs = Object.keys(result.metafile.inputs).filter((f) => !f.startsWith('node_modules/') && f !== 'engine-entry.ts');
    await writeFile(path.join(tmp, 'engine.inputs.json'), JSON.stringify(inputs));
    // The map first, the module last: the module's time is the build's time.
    await rename(path.join(tmp, 'engine.mjs.map'), `${ENGINE_JS}.map`);
    await rename(path.join(tmp, 'engine.inputs.json'), INPUTS_JSON);
    await rename(path.join(tmp, 'engine.mjs'), ENGINE_JS);
    return { bytes: result.metafile.outputs[path.relative(ROOT, path.join(tmp, 'engine.mjs'))]?.bytes ?? 0, files: inputs.length };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // npm's prepare step also runs where only package files were copied (the docker image's dependency layer): with
  // no sources there is nothing to build yet, and the image builds after copying them.
  if (!existsSync(ENTRY)) {
    if (!process.argv.includes('--quiet')) console.log('engine: no sources, nothing to build');
  } else {
    const started = Date.now();
    const { bytes, files } = await buildEngine({ quiet: process.argv.includes('--quiet') });
    console.log(`engine built in ${Date.now() - started} ms: dist/engine.mjs ${(bytes / 1024).toFixed(0)} kB from ${files} files`);
  }
}
