// The open-files limit as /proc/<pid>/limits states it, and the websockets it leaves room for.
import test from 'ava';
import { connectionBudget, parseOpenFilesLimit, websocketCapacity } from '../../src/core/open-files.js';

const limits = (soft: string, hard: string): string => `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max processes             95000                95000                processes
Max open files            ${soft.padEnd(20)} ${hard.padEnd(20)} files
Max locked memory         8388608              8388608              bytes
`;

test('the soft limit is read, not the hard one nor another line', (t) => {
  t.is(parseOpenFilesLimit(limits('20000', '40000')), 20000);
  t.is(parseOpenFilesLimit(limits('unlimited', 'unlimited')), null);
  t.is(parseOpenFilesLimit('Max processes 95000 95000 processes\n'), null);
});

test('the budgets leave the pools their connections, the process its own files, and a burst room to be refused', (t) => {
  const withPool50 = connectionBudget(20000, 50);
  t.true(withPool50 < 20000 - 50);
  t.is(connectionBudget(20000, 60), withPool50 - 10);
  t.true(websocketCapacity(20000, 50) < withPool50);
  t.is(connectionBudget(null, 50), Infinity);
  t.is(websocketCapacity(null, 50), Infinity);
  t.is(websocketCapacity(10, 50), 0);
});
