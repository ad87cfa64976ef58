// Cron expansion against occurrences written out by hand (UTC, strictly after the start): each field alone, ranges,
// steps, lists, the day-of-month OR day-of-week rule, month ends and leap days, the @ shorthands, and the
// expressions the original's parser refuses.
import test from 'ava';
import { cronScheduleError, nextOccurrences } from '../../src/core/cron-schedule.js';

const at = (iso: string) => new Date(iso);
const next = (expr: string, from: string, n: number) => nextOccurrences(expr, at(from), n).map((d) => d.toISOString().replace(':00.000Z', 'Z'));

test('every minute: the next whole minutes, strictly after the start', (t) => {
  t.deepEqual(next('* * * * *', '2024-03-10T10:15:30.250Z', 3), ['2024-03-10T10:16Z', '2024-03-10T10:17Z', '2024-03-10T10:18Z']);
  // a start exactly on a matching minute is not itself an occurrence
  t.deepEqual(next('* * * * *', '2024-03-10T10:15:00.000Z', 2), ['2024-03-10T10:16Z', '2024-03-10T10:17Z']);
});

test('minute field: one value, across the hour', (t) => {
  t.deepEqual(next('45 * * * *', '2024-03-10T10:50:00Z', 3), ['2024-03-10T11:45Z', '2024-03-10T12:45Z', '2024-03-10T13:45Z']);
});

test('hour field: one value, across the day and the month', (t) => {
  t.deepEqual(next('30 23 * * *', '2024-01-30T23:31:00Z', 3), ['2024-01-31T23:30Z', '2024-02-01T23:30Z', '2024-02-02T23:30Z']);
});

test('day of month: the 31st skips the months that have none', (t) => {
  t.deepEqual(next('0 0 31 * *', '2024-01-15T00:00:00Z', 4), ['2024-01-31T00:00Z', '2024-03-31T00:00Z', '2024-05-31T00:00Z', '2024-07-31T00:00Z']);
});

test('day of month 29 in February: leap years only', (t) => {
  t.deepEqual(next('0 12 29 2 *', '2023-01-01T00:00:00Z', 3), ['2024-02-29T12:00Z', '2028-02-29T12:00Z', '2032-02-29T12:00Z']);
});

test('month field: one value, across the year', (t) => {
  t.deepEqual(next('0 0 1 6 *', '2024-07-01T00:00:00Z', 2), ['2025-06-01T00:00Z', '2026-06-01T00:00Z']);
});

test('day of week: 0 and 7 are Sunday, 1 Monday', (t) => {
  // 2024-03-10 is a Sunday
  t.deepEqual(next('0 9 * * 0', '2024-03-04T00:00:00Z', 2), ['2024-03-10T09:00Z', '2024-03-17T09:00Z']);
  t.deepEqual(next('0 9 * * 7', '2024-03-04T00:00:00Z', 2), ['2024-03-10T09:00Z', '2024-03-17T09:00Z']);
  t.deepEqual(next('0 9 * * 1', '2024-03-04T09:00:00Z', 2), ['2024-03-11T09:00Z', '2024-03-18T09:00Z']);
});

test('ranges: minutes 10-12 of hours 8-9', (t) => {
  t.deepEqual(next('10-12 8-9 * * *', '2024-03-10T00:00:00Z', 7), [
    '2024-03-10T08:10Z', '2024-03-10T08:11Z', '2024-03-10T08:12Z', '2024-03-10T09:10Z', '2024-03-10T09:11Z', '2024-03-10T09:12Z', '2024-03-11T08:10Z',
  ]);
});

test('steps: every 15 minutes, every 6 hours, and a step over a range', (t) => {
  t.deepEqual(next('*/15 * * * *', '2024-03-10T10:07:00Z', 4), ['2024-03-10T10:15Z', '2024-03-10T10:30Z', '2024-03-10T10:45Z', '2024-03-10T11:00Z']);
  t.deepEqual(next('0 */6 * * *', '2024-03-10T05:00:00Z', 3), ['2024-03-10T06:00Z', '2024-03-10T12:00Z', '2024-03-10T18:00Z']);
  t.deepEqual(next('0 0 1-10/3 * *', '2024-03-01T00:00:00Z', 4), ['2024-03-04T00:00Z', '2024-03-07T00:00Z', '2024-03-10T00:00Z', '2024-04-01T00:00Z']);
});

test('lists: minutes 5,35 and months 1,7', (t) => {
  t.deepEqual(next('5,35 0 1 1,7 *', '2024-01-01T00:10:00Z', 3), ['2024-01-01T00:35Z', '2024-07-01T00:05Z', '2024-07-01T00:35Z']);
});

test('day of month and day of week both restricted: either matches (Friday or the 13th)', (t) => {
  // January 2024: Fridays 5, 12, 19, 26; the 13th is a Saturday
  t.deepEqual(next('0 0 13 * 5', '2024-01-01T00:00:00Z', 5), ['2024-01-05T00:00Z', '2024-01-12T00:00Z', '2024-01-13T00:00Z', '2024-01-19T00:00Z', '2024-01-26T00:00Z']);
});

test('the @ shorthands of the original', (t) => {
  t.deepEqual(next('@hourly', '2024-03-10T10:00:00Z', 2), ['2024-03-10T11:00Z', '2024-03-10T12:00Z']);
  t.deepEqual(next('@daily', '2024-03-10T10:00:00Z', 2), ['2024-03-11T00:00Z', '2024-03-12T00:00Z']);
  t.deepEqual(next('@weekly', '2024-03-10T10:00:00Z', 2), ['2024-03-17T00:00Z', '2024-03-24T00:00Z']);
  t.deepEqual(next('@monthly', '2024-03-10T10:00:00Z', 2), ['2024-04-01T00:00Z', '2024-05-01T00:00Z']);
  t.deepEqual(next('@yearly', '2024-03-10T10:00:00Z', 2), ['2025-01-01T00:00Z', '2026-01-01T00:00Z']);
});

test('a hundred occurrences of */5 are 5 minutes apart', (t) => {
  const ds = nextOccurrences('*/5 * * * *', at('2024-03-10T10:02:00Z'), 100);
  t.is(ds.length, 100);
  t.is(ds[0].toISOString(), '2024-03-10T10:05:00.000Z');
  t.is(ds[99].toISOString(), '2024-03-10T18:20:00.000Z');
});

test('expressions the original refuses', (t) => {
  t.is(cronScheduleError('*/5 1-3 * 2,4 1-5'), null);
  t.regex(cronScheduleError('* * * *') ?? '', /^invalid cron expression "\* \* \* \*": expected 5 fields .* found 4$/);
  t.regex(cronScheduleError('0 * * * * *') ?? '', /found 6/);
  t.regex(cronScheduleError('') ?? '', /found 0/);
  t.regex(cronScheduleError('60 * * * *') ?? '', /60/);
  t.regex(cronScheduleError('* 24 * * *') ?? '', /24/);
  t.regex(cronScheduleError('* * 0 * *') ?? '', /invalid cron expression/);
  t.regex(cronScheduleError('* * * 13 *') ?? '', /13/);
  t.regex(cronScheduleError('*/0 * * * *') ?? '', /invalid cron expression/);
  t.regex(cronScheduleError('5-1 * * * *') ?? '', /invalid cron expression/);
  t.regex(cronScheduleError('0 0 L * *') ?? '', /unexpected characters in the day of month field: "L"/);
  t.regex(cronScheduleError('* * * * MON') ?? '', /day of week field: "MON"/);
  t.regex(cronScheduleError('H * * * *') ?? '', /minute field/);
  t.regex(cronScheduleError('@reboot') ?? '', /found 1/);
  t.throws(() => nextOccurrences('bad', new Date(), 1), { message: /invalid cron expression "bad"/ });
});
