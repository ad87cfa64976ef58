// The console's Data, Run SQL and Metadata pages in Chromium, on an engine without an admin secret: track from the
// table page, paginate and filter rows, edit and delete a row, a read-only Run SQL result as a table (appending no
// history), and the metadata export download. No console errors, no failed requests, no HTTP errors.
import { readFileSync } from 'node:fs';
import { assertCleanPage, browserTest, holdRequest, withConsole } from '../helpers/browser.js';

browserTest('data pages: track, paginate, filter, edit, delete, read-only SQL, export download', async (t) => {
  t.timeout(180_000);
  await withConsole({}, async (e, b) => {
    const { page } = b;
    const sql = "CREATE TABLE item (id int PRIMARY KEY, name text NOT NULL, price numeric); INSERT INTO item SELECT g, 'n' || g, g * 1.5 FROM generate_series(1, 12) g";
    t.is((await e.query({ type: 'run_sql', args: { sql } })).status, 200);

    // The console needs no login without an admin secret; an untracked table's page offers Track.
    await page.goto(`${e.url}/console/data/public/item`);
    await page.getByText('Track this table to browse its rows').waitFor();
    await page.getByRole('button', { name: 'Track', exact: true }).click();
    await page.getByText('1–10 of 12').waitFor();
    t.is(await page.locator('table.rows tbody tr').count(), 10);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('11–12 of 12').waitFor();
    t.deepEqual(await page.locator('table.rows tbody tr td:first-child').allInnerTexts(), ['11', '12']);

    // A filter value that is not a number for a number column is an inline error; then filter by name and edit.
    await page.getByLabel('Filter value').fill('n5');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    t.is(await page.getByRole('alert').innerText(), '"n5" is not a number (integer)');
    await page.getByLabel('Filter column').selectOption('name');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await page.getByText('1–1 of 1').waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('value of name').fill('renamed');
    // The filter is cleared while the save is in flight (held here until the unfiltered rows show): the reload
    // after the save shows the rows as the page is then, unfiltered, with the renamed row.
    const save = await holdRequest(page, '**/v1/graphql', 'update_item_by_pk');
    await page.getByRole('button', { name: 'Save' }).click();
    await save.sent;
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByText('1–10 of 12').waitFor();
    save.release();
    await page.getByRole('cell', { name: 'renamed' }).waitFor();
    await save.stop();
    t.is(await page.getByText('1–10 of 12').count(), 1);
    const five = await e.graphql({ query: '{ item_by_pk(id: 5) { name price } }' });
    t.deepEqual(five.body, { data: { item_by_pk: { name: 'renamed', price: 7.5 } } });

    // Delete after the confirmation.
    await page.getByRole('row').filter({ hasText: 'renamed' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete row' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('1–10 of 11').waitFor();
    t.deepEqual((await e.graphql({ query: '{ item_by_pk(id: 5) { id } }' })).body, { data: { item_by_pk: null } });

    // A read-only Run SQL shows its rows and adds nothing to the history.
    const head = e.seq();
    await page.locator('aside').getByRole('link', { name: 'Run SQL' }).click();
    await page.getByLabel('SQL').fill('SELECT id, name FROM item WHERE id < 3 ORDER BY id');
    await page.getByLabel('read only').check();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('cell', { name: 'n2' }).waitFor();
    t.deepEqual(await page.locator('table.grid thead th').allInnerTexts(), ['id', 'name']);
    t.deepEqual(await page.locator('table.grid tbody tr').allInnerTexts(), ['1\tn1', '2\tn2']);
    t.is(e.seq(), head);

    // Metadata export downloads the export_metadata document.
    await page.locator('header nav').getByRole('link', { name: 'Metadata' }).click();
    await page.getByText('The metadata is consistent.').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export metadata' }).click()]);
    const file = await download.path();
    t.deepEqual(JSON.parse(readFileSync(file, 'utf8')), (await e.query({ type: 'export_metadata', args: {} })).body);

    assertCleanPage(t, b);
  });
});
