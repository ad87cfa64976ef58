// StateStore.exclusive: the write path and the sync catch-up of one instance take turns (src/sync/state-store.ts).
import test from 'ava';
import { StateStore } from '../../src/sync/state-store.js';

const tick = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

test('exclusive sections run one after another, in call order, even when one fails', async (t) => {
  const store = new StateStore();
  const trace: string[] = [];
  const section = (name: string, ms: number, fail = false) => async (): Promise<string> => {
    trace.push(`${name} start`);
    await tick(ms);
    trace.push(`${name} end`);
    if (fail) throw new Error(`${name} failed`);
    return name;
  };
  const a = store.exclusive(section('a', 30));
  const b = store.exclusive(section('b', 5, true));
  const c = store.exclusive(section('c', 1));
  t.is(await a, 'a');
  await t.throwsAsync(b, { message: 'b failed' });
  t.is(await c, 'c');
  t.deepEqual(trace, ['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
});
