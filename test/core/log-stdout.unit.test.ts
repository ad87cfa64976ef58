// The stdout destination: lines batched into bytes, whole and in order, whatever their size and characters, and
// the last ones written when the process exits (a child process writes through the real stdout).
import test from 'ava';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const LOG_MODULE = fileURLToPath(new URL('../../src/core/log.ts', import.meta.url));

/** Runs `body` in a node child that has the logger as `log`: its stdout lines, each with when it arrived. */
async function childLines(body: string): Promise<{ lines: string[]; arrived: number[]; closed: number }> {
  const script = `const { log } = await import(${JSON.stringify(LOG_MODULE)});\n${body}`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const chunks: Buffer[] = [];
  const arrived: number[] = [];
  child.stdout.on('data', (c: Buffer) => {
    chunks.push(c);
    for (let i = c.indexOf(10); i !== -1; i = c.indexOf(10, i + 1)) arrived.push(Date.now());
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`child exited with ${code}`);
  const lines = Buffer.concat(chunks).toString('utf8').split('\n').filter((l) => l !== '');
  return { lines, arrived, closed: Date.now() };
}

test('lines over several batches, multi-byte characters and a line larger than a batch arrive whole and in order', async (t) => {
  const { lines } = await childLines(`
    for (let i = 0; i < 3000; i++) log.lineLater('info', 'http-log', JSON.stringify, { i, text: 'é中🙂'.repeat(i % 7) + 'x'.repeat(i % 50) });
    log.info('big', { text: '字'.repeat(100000) });
    for (let i = 3000; i < 3010; i++) log.info('tail', { i });
  `);
  t.is(lines.length, 3011);
  lines.slice(0, 3000).forEach((l, i) => t.deepEqual(JSON.parse(l).detail, { i, text: 'é中🙂'.repeat(i % 7) + 'x'.repeat(i % 50) }));
  t.is(JSON.parse(lines[3000]).detail.text, '字'.repeat(100000));
  t.deepEqual(lines.slice(3001).map((l) => JSON.parse(l).detail.i), [...Array(10).keys()].map((k) => 3000 + k));
});

test('a quiet process shows its last lines while it lives, and what waits at exit is written', async (t) => {
  const { lines, arrived, closed } = await childLines(`
    log.info('first', { n: 1 });
    await new Promise((r) => setTimeout(r, 600)); // nothing else comes: the batch is written after its delay
    log.info('second', { n: 2 });
    process.exit(0); // at once: the waiting line is written by the exit hook
  `);
  t.deepEqual(lines.map((l) => JSON.parse(l).type), ['first', 'second']);
  t.true(closed - arrived[0] >= 400, `the first line arrived ${closed - arrived[0]} ms before the exit`);
});

test('a deferred line is made when its batch is written, in its place among the others, with the time it was logged', async (t) => {
  const { lines } = await childLines(`
    const logged = Date.now();
    let made = 0;
    log.info('before', {});
    log.lineLater('info', 'http-log', (rec) => { made = Date.now(); return JSON.stringify(rec); }, { n: 1 });
    log.lineLater('info', 'http-log', () => { throw new Error('no detail'); }, null);
    log.info('after', {});
    const busy = Date.now() + 300;
    while (Date.now() < busy); // the event loop is held: the batch waits until it is free
    await new Promise((r) => setTimeout(r, 100));
    log.info('times', { logged, made });
  `);
  t.deepEqual(lines.map((l) => JSON.parse(l).type), ['before', 'http-log', 'http-log', 'after', 'times']);
  const deferred = JSON.parse(lines[1]);
  t.deepEqual(deferred.detail, { n: 1 });
  const { logged, made } = JSON.parse(lines[4]).detail;
  t.true(made - logged >= 300, `made ${made - logged} ms after it was logged`);
  const stamped = Date.parse(deferred.timestamp);
  t.true(stamped >= logged && stamped - logged < 50, `stamped ${stamped - logged} ms after it was logged`);
  // A detail that cannot be made costs its line's detail only.
  t.like(JSON.parse(lines[2]), { level: 'info', type: 'http-log', detail: { error: "the line's detail could not be made: Error: no detail" } });
});
