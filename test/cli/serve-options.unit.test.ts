// Issue 34: `serve` takes the original's --stripes, --enable-telemetry and --console-assets-dir (a switching
// configuration sets them) and says at start-up that they have no effect here.
import test from 'ava';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/engine.mjs', import.meta.url));

/** The start-up lines of `serve` until `enough` holds (then the engine is stopped); nothing listens on port 1. */
function startupLines(args: string[], env: Record<string, string>, enough: (lines: string[]) => boolean): Promise<string[]> {
  const child = spawn(process.execPath, [BIN, 'serve', '--database-url', 'postgres://nobody@127.0.0.1:1/none', '--server-port', '0', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  return new Promise((resolve) => {
    // A cold start compiles src/ through tsx: the deadline only catches a hang.
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    let buf = '';
    const onData = (chunk: Buffer): void => {
      buf += chunk.toString('utf8');
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        lines.push(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
      }
      if (enough(lines)) child.kill('SIGKILL');
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(lines);
    });
  });
}

const noEffect = (lines: string[]): string[] =>
  lines.flatMap((l) => {
    try {
      const j = JSON.parse(l) as { type?: string; level?: string; detail?: { info?: { message?: string } } };
      const m = j.detail?.info?.message;
      return j.type === 'startup' && j.level === 'warn' && m?.includes('has no effect') ? [m] : [];
    } catch {
      return [];
    }
  });

test('--stripes, --enable-telemetry, --console-assets-dir: accepted, and start-up says they have no effect', async (t) => {
  const lines = await startupLines(['--stripes', '2', '--console-assets-dir', '/srv/console-assets'], { ENGINE_GRAPHQL_ENABLE_TELEMETRY: 'false' },
    (ls) => noEffect(ls).length >= 3);
  t.deepEqual(noEffect(lines), [
    '--stripes (ENGINE_GRAPHQL_PG_STRIPES) has no effect: the engine keeps one connection pool',
    'ENGINE_GRAPHQL_ENABLE_TELEMETRY (--enable-telemetry) has no effect: the engine sends no telemetry',
    '--console-assets-dir (ENGINE_GRAPHQL_CONSOLE_ASSETS_DIR) has no effect: the console is bundled and served by the engine',
  ], lines.join('\n'));
});
