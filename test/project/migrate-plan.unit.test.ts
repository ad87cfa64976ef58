// Which migrations `migrate apply` runs for the original CLI's flags, and the status table's rows.
import test from 'ava';
import { migrationStatus, planMigrations } from '../../src/project/migrate-plan.js';
import type { MigrationFiles } from '../../src/project/folder.js';

const m = (version: string, name: string): MigrationFiles => ({ version, name, dir: `${version}_${name}`, up: `-- up ${name}`, down: `-- down ${name}` });
const FILES = [m('100', 'a'), m('200', 'b'), m('300', 'c')];
const applied = (...vs: string[]) => vs.map((version) => ({ version, dirty: false }));
const plan = (done: string[], o: Parameters<typeof planMigrations>[2]) =>
  planMigrations(FILES, applied(...done), o).map((s) => `${s.direction} ${s.version}${s.skipExecution ? ' skip' : ''}`);

test('default and --up N apply pending migrations oldest first, gaps included', (t) => {
  t.deepEqual(plan([], {}), ['up 100', 'up 200', 'up 300']);
  t.deepEqual(plan(['200'], {}), ['up 100', 'up 300']);
  t.deepEqual(plan([], { up: '2' }), ['up 100', 'up 200']);
  t.deepEqual(plan(['100', '200', '300'], {}), []);
});

test('--down N rolls back the newest applied first; --down all every one', (t) => {
  t.deepEqual(plan(['100', '200', '300'], { down: '1' }), ['down 300']);
  t.deepEqual(plan(['100', '300'], { down: 'all' }), ['down 300', 'down 100']);
  t.deepEqual(plan(['100'], { down: 'all', skipExecution: true }), ['down 100 skip']);
});

test('--version V with --type, and the original messages for what cannot be done', (t) => {
  t.deepEqual(plan([], { version: '200' }), ['up 200']);
  t.deepEqual(plan(['200'], { version: '200', type: 'down' }), ['down 200']);
  t.throws(() => plan(['200'], { version: '200' }), { message: 'Version already applied in database' });
  t.throws(() => plan([], { version: '200', type: 'down' }), { message: 'Migration not applied in database' });
  t.throws(() => plan([], { up: '1', down: '1' }), { message: /only one migration type can be applied at a time/ });
  t.throws(() => plan([], { up: 'x' }), { message: 'not a valid input for steps/version: x' });
  t.throws(() => planMigrations(FILES, [{ version: '100', dirty: true }], {}), { message: 'Dirty database version 100. Fix and force version.' });
  t.throws(() => plan(['900'], { down: '1' }), { message: /900 is applied but not in the migrations folder/ });
});

test('status lists every version in the folder or the database', (t) => {
  t.deepEqual(migrationStatus([m('100', 'a'), m('300', 'c')], applied('100', '200')).map((r) => [r.version, r.name, r.source, r.database]), [
    ['100', 'a', true, true],
    ['200', '', false, true],
    ['300', 'c', true, false],
  ]);
});
