#!/usr/bin/env node
// The `engine` command. Production runs dist/engine.mjs, the plain JavaScript bin/build.mjs compiles at install;
// while a source file is newer than that build (development: an edited file, a fresh checkout before its build),
// the sources run through tsx instead, so what runs is always what is in src/. ENGINE_RUNTIME=dist or =tsx forces one.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Plain path strings: a URL per file made the check twice as slow.
const root = fileURLToPath(new URL('../', import.meta.url));
const built = `${root}dist/engine.mjs`;

/** Whether dist/engine.mjs exists and no source it was made from changed since (about 250 stats: 3-5 ms). */
function builtIsCurrent() {
  let builtAt;
  let inputs;
  try {
    builtAt = statSync(built).mtimeMs;
    inputs = JSON.parse(readFileSync(`${root}dist/engine.inputs.json`, 'utf8'));
  } catch {
    return false;
  }
  for (const file of inputs) {
    let t;
    try {
      t = statSync(root + file).mtimeMs;
    } catch {
      // A deployment may ship dist/ without the sources; in a checkout a vanished file means an edit elsewhere.
      try {
        statSync(`${root}src`);
      } catch {
        return true;
      }
      return false;
    }
    if (t > builtAt) return false;
  }
  return true;
}

const runtime = process.env.ENGINE_RUNTIME;
if (runtime === 'dist' || (runtime !== 'tsx' && builtIsCurrent())) {
  await import(new URL('../dist/engine.mjs', import.meta.url).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { runCli } = await import('../src/cli/cli.ts');
  await runCli();
}
