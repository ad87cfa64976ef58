// The console's Remote Schemas editor in Chromium: add a remote (URL, a header, forwarding client headers, a timeout),
// modify it (the timeout; a remove and an add in one bulk), reload it; the metadata says what the form said. A real
// remote GraphQL server on loopback. No console errors, no failed requests.
import { assertCleanPage, browserTest, withConsole } from '../helpers/browser.js';
import { startRemote } from '../remote/server.js';

browserTest('remote schemas page: add, modify, reload', async (t) => {
  t.timeout(180_000);
  const remote = await startRemote('type Query { hello: String }', { hello: () => 'world' });
  t.teardown(() => remote.close());
  await withConsole({}, async (e, b) => {
    const { page } = b;
    const exported = async () => ((await e.query({ type: 'export_metadata', args: {} })).body as { remote_schemas?: unknown[] }).remote_schemas;
    await page.goto(`${e.url}/console/remote-schemas`);
    await page.getByText('No remote schemas.').waitFor();
    await page.getByRole('button', { name: 'Add remote schema' }).click();
    await page.getByLabel('Remote schema name').fill('greeter');
    await page.getByLabel('Remote schema URL').fill(remote.url);
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByLabel('Header 1 name').fill('X-Token');
    await page.getByLabel('Header 1 value').fill('secret');
    await page.getByLabel('Forward client headers').check();
    await page.getByLabel('Timeout seconds').fill('5');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Added greeter' }).waitFor();
    t.deepEqual(await exported(), [{
      name: 'greeter',
      definition: { url: remote.url, timeout_seconds: 5, headers: [{ name: 'X-Token', value: 'secret' }], forward_client_headers: true },
    }]);
    t.deepEqual((await e.graphql({ query: '{ hello }' })).body, { data: { hello: 'world' } });

    await page.getByRole('button', { name: 'Modify' }).click();
    await page.getByLabel('Timeout seconds').fill('9');
    await page.getByRole('button', { name: 'Remove header' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Modified greeter' }).waitFor();
    t.deepEqual(await exported(), [{ name: 'greeter', definition: { url: remote.url, timeout_seconds: 9, forward_client_headers: true } }]);

    await page.getByRole('button', { name: 'Reload' }).click();
    await page.getByRole('status').filter({ hasText: 'Reloaded greeter' }).waitFor();
    assertCleanPage(t, b);
  });
});
