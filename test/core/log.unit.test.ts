// The logger: {level, timestamp, type, detail} lines; level and user log types filter; internal types always pass.
import test from 'ava';
import { createLogger, DEFAULT_LOG_TYPES } from '../../src/core/log.js';

const capture = (level: NonNullable<Parameters<typeof createLogger>[0]>['level'], types?: string[]) => {
  const lines: string[] = [];
  return { lines, log: createLogger({ level, sink: (l) => lines.push(l), types }) };
};

test('a line: level, timestamp, type, detail; errors made plain', (t) => {
  const { lines, log } = capture('info');
  log.warn('sync-listener-error', { attempt: 2, error: Object.assign(new Error('boom'), { code: 'E1' }) });
  t.is(lines.length, 1);
  const x = JSON.parse(lines[0]);
  t.deepEqual(Object.keys(x), ['level', 'timestamp', 'type', 'detail']);
  t.like(x, { level: 'warn', type: 'sync-listener-error', detail: { attempt: 2, error: { name: 'Error', message: 'boom', code: 'E1' } } });
  t.is(new Date(x.timestamp).toISOString(), x.timestamp);
});

test('timestamps are the ISO time of each line, milliseconds included, across seconds', async (t) => {
  const { lines, log } = capture('info');
  const bounds: Array<[number, number]> = [];
  // Lines over ~1.2 s: some in the same millisecond, some a few apart, at least one second boundary crossed.
  for (let i = 0; i < 40; i++) {
    const before = Date.now();
    log.info('x', { i });
    log.lineLater('info', 'y', (detail: string) => detail, '{}');
    bounds.push([before, Date.now()], [before, Date.now()]);
    await new Promise((r) => setTimeout(r, i % 3 === 0 ? 0 : 37));
  }
  const stamps = lines.map((l) => JSON.parse(l).timestamp as string);
  t.is(stamps.length, 80);
  stamps.forEach((s, i) => {
    t.regex(s, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const ms = Date.parse(s);
    t.true(ms >= bounds[i][0] && ms <= bounds[i][1], `${s} within the line's write`);
  });
  t.true(new Set(stamps.map((s) => s.slice(0, 19))).size > 1, 'a second boundary was crossed');
});

test('the level filters: warn drops info and debug, keeps warn and error', (t) => {
  const { lines, log } = capture('warn');
  log.debug('x', {});
  log.info('http-log', {});
  log.warn('x', { n: 1 });
  log.error('http-log', { n: 2 });
  t.deepEqual(lines.map((l) => JSON.parse(l).level), ['warn', 'error']);
  t.false(log.enabled('info'));
  t.true(log.wants('http-log', 'error'));
  t.false(log.wants('http-log', 'info'));
});

test('user log types: only enabled ones are written; other types are internal and always written', (t) => {
  const { lines, log } = capture('debug', ['http-log']);
  log.info('startup', { kind: 'server' });
  log.info('query-log', {});
  log.info('http-log', { a: 1 });
  log.info('metadata-synced', { to: 3 });
  t.deepEqual(lines.map((l) => JSON.parse(l).type), ['http-log', 'metadata-synced']);
  t.false(log.wants('query-log'));
  t.true(log.wants('websocket-log') === false);
});

test('defaults as the original: startup, http-log, webhook-log, websocket-log; query-log off', (t) => {
  t.deepEqual([...DEFAULT_LOG_TYPES], ['startup', 'http-log', 'webhook-log', 'websocket-log']);
  const { log } = capture('info');
  t.true(log.wants('websocket-log'));
  t.false(log.wants('query-log'));
  const silent = capture('silent');
  silent.log.error('x', {});
  t.is(silent.lines.length, 0);
});
