// The compiled engine (bin/build.mjs → dist/engine.mjs), as production runs it: a real process from a folder that
// holds only what a deployment keeps (package.json, dist/, console/dist, node_modules; no sources, no tsx step)
// starts and answers /healthz, /v1/version and the console; and bin/engine.mjs runs that build when it is current,
// the sources when it is not.
import test from 'ava';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEngine, DIST } from '../../bin/build.mjs';
import { buildConsole, consoleBuilt } from '../../console/build.mjs';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { spawnEngine } from '../helpers/engine.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const folders: string[] = [];
let db: TestDatabase;

/** A folder with node_modules linked from this checkout and the given files copied in. */
function deployment(copy: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'engine-compiled-'));
  folders.push(dir);
  symlinkSync(realpathSync(path.join(ROOT, 'node_modules')), path.join(dir, 'node_modules'));
  for (const [from, to] of Object.entries(copy)) {
    mkdirSync(path.dirname(path.join(dir, to)), { recursive: true });
    cpSync(path.join(ROOT, from), path.join(dir, to), { recursive: true });
  }
  return dir;
}

test.before(async () => {
  await buildEngine({ quiet: true });
  if (!(await consoleBuilt())) await buildConsole({ quiet: true });
  db = await createTestDatabase('compiled');
});

test.after.always(async () => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  await db?.drop();
});

test('dist/engine.mjs runs without the sources: /healthz, /v1/version, the console', async (t) => {
  const dir = deployment({ 'package.json': 'package.json', 'dist/engine.mjs': 'dist/engine.mjs', 'console/dist': 'console/dist' });
  const engine = await spawnEngine(db.url, { ENGINE_GRAPHQL_ENABLE_CONSOLE: 'true' }, 90_000, path.join(dir, 'dist', 'engine.mjs'));
  try {
    const health = await fetch(`${engine.url}/healthz`);
    t.is(health.status, 200);
    t.is(await health.text(), 'OK');
    const version = await fetch(`${engine.url}/v1/version`);
    t.deepEqual(await version.json(), { version: VERSION });
    // The console's files are found from the package root, which the bundle does not move.
    const page = await fetch(`${engine.url}/console`);
    t.is(page.status, 200);
    t.regex(await page.text(), /<script src="\/console\/assets\/app\.js">/);
    t.is((await fetch(`${engine.url}/console/assets/app.js`)).status, 200);
  } finally {
    await engine.stop();
  }
});

/** Runs `node bin/engine.mjs` in `dir` and returns what it printed. */
function run(dir: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(dir, 'bin', 'engine.mjs')], { env: { PATH: process.env.PATH ?? '', ...env } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', reject);
    child.once('exit', () => resolve(out.trim()));
  });
}

test('bin/engine.mjs runs the build while it is current, the sources through tsx once one is newer', async (t) => {
  // A stand-in build and stand-in sources that say which one ran.
  const dir = deployment({ 'package.json': 'package.json', 'bin/engine.mjs': 'bin/engine.mjs' });
  mkdirSync(path.join(dir, 'dist'));
  mkdirSync(path.join(dir, 'src', 'cli'), { recursive: true });
  writeFileSync(path.join(dir, 'src', 'cli', 'cli.ts'), "export async function runCli(): Promise<void> { console.log('tsx'); }\n");
  writeFileSync(path.join(dir, 'src', 'a.ts'), 'export {};\n');
  writeFileSync(path.join(dir, 'dist', 'engine.inputs.json'), JSON.stringify(['src/cli/cli.ts', 'src/a.ts']));
  writeFileSync(path.join(dir, 'dist', 'engine.mjs'), "console.log('dist');\n");
  const at = (file: string, seconds: number) => utimesSync(path.join(dir, file), seconds, seconds);
  at('src/cli/cli.ts', 1_000_000);
  at('src/a.ts', 1_000_000);
  at('dist/engine.mjs', 2_000_000);

  t.is(await run(dir), 'dist');
  t.is(await run(dir, { ENGINE_RUNTIME: 'tsx' }), 'tsx');
  at('src/a.ts', 3_000_000); // an edit after the build
  t.is(await run(dir), 'tsx');
  t.is(await run(dir, { ENGINE_RUNTIME: 'dist' }), 'dist');
  rmSync(path.join(dir, 'src', 'a.ts')); // a file gone from a checkout: its importer changed too
  t.is(await run(dir), 'tsx');
  rmSync(path.join(dir, 'src'), { recursive: true }); // a deployment without the sources
  t.is(await run(dir), 'dist');
  rmSync(path.join(dir, 'dist', 'engine.mjs'));
  mkdirSync(path.join(dir, 'src', 'cli'), { recursive: true });
  writeFileSync(path.join(dir, 'src', 'cli', 'cli.ts'), "export async function runCli(): Promise<void> { console.log('tsx'); }\n");
  t.is(await run(dir), 'tsx'); // no build yet
});

test('the build lists its sources for that check, and only the engine\'s own', async (t) => {
  const inputs = JSON.parse(readFileSync(path.join(DIST, 'engine.inputs.json'), 'utf8')) as string[];
  t.true(inputs.includes('src/cli/cli.ts'));
  t.true(inputs.includes('src/version.ts'));
  t.true(inputs.some((f) => f.startsWith('events/')));
  t.true(inputs.some((f) => f.startsWith('projections/')));
  t.false(inputs.some((f) => f.includes('node_modules') || f.startsWith('console/')));
});
