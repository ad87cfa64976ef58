// The `engine` binary: --help lists the settings; a bad value stops start-up with one line naming it.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/engine.mjs', import.meta.url));
// A cold start compiles src/ through tsx (about 1 s of CPU): under a loaded CI it took 22 s, close to a 30 s kill.
// The deadline only catches a hang.
const run = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env }, timeout: 90_000 });

test('--help lists every setting with its env var', (t) => {
  const r = run(['--help']);
  t.is(r.status, 0);
  for (const s of ['--database-url', 'ENGINE_GRAPHQL_DATABASE_URL', '--server-port', 'ENGINE_GRAPHQL_SERVER_PORT', '--admin-secret',
    '--enabled-apis', '--stringify-numeric-types', '--unauthorized-role', '--jwt-secret', '--auth-hook-mode', '--enable-allowlist',
    '--live-queries-multiplexed-batch-size', '--live-queries-multiplexed-refetch-interval', '--log-level', '--workers', 'ENGINE_GRAPHQL_WORKERS', 'history export'])
    t.true(r.stdout.includes(s), s);
});

test('a bad value exits 2 with one line naming the setting', (t) => {
  const r = run(['serve'], { ENGINE_GRAPHQL_SERVER_PORT: 'eighty' });
  t.is(r.status, 2);
  t.is(r.stderr.trim().split('\n').length, 1);
  t.regex(r.stderr, /ENGINE_GRAPHQL_SERVER_PORT/);
});

test('version prints JSON', (t) => {
  const r = run(['version']);
  t.is(r.status, 0);
  t.regex(JSON.parse(r.stdout).version, /^\d+\.\d+\.\d+/);
});

test('unknown command', (t) => {
  const r = run(['frobnicate']);
  t.is(r.status, 2);
  t.regex(r.stderr, /unknown command frobnicate/);
});
