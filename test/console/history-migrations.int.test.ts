// The console's History page in Chromium: a schema migration applied through engine_apply_migration (as
// `engine migrate apply` sends it) shows its migration version and name beside the metadata version; other
// changes show none.
import { assertCleanPage, browserTest, withConsole } from '../helpers/browser.js';

browserTest('history page: migration versions beside metadata versions', async (t) => {
  t.timeout(120_000);
  await withConsole({}, async (e, b) => {
    const { page } = b;
    for (const body of [
      { type: 'engine_apply_migration', args: { version: '1600000000001', name: 'create_note', sql: 'CREATE TABLE note (id int PRIMARY KEY)', file: '1600000000001_create_note/up.sql' } },
      { type: 'track_table', args: { table: 'note' } },
    ]) t.is((await e.query(body)).status, 200, JSON.stringify(body));
    await page.goto(`${e.url}/console/history`);
    const table = page.getByRole('table', { name: 'History' });
    await table.locator('tbody tr').nth(1).waitFor();
    const cells = async (seq: number) => table.locator(`tbody tr[data-seq="${seq}"] td`).allInnerTexts();
    const [migrationRow, trackRow] = [await cells(1), await cells(2)];
    t.is(migrationRow[0], '1');
    t.is(migrationRow[1], '1600000000001 create_note up');
    t.regex(migrationRow[4], /applied migration 1600000000001_create_note \(1600000000001_create_note\/up\.sql\)/);
    t.is(trackRow[1], '–');
    t.regex(trackRow[4], /tracked table public\.note/);
    assertCleanPage(t, b);
  });
});
