// The console's Actions editor in Chromium: create an action from its SDL and its types' SDL with a handler and a
// header, call it through GraphQL (a real handler on loopback), allow a role and drop it, modify the action (its
// handler). The metadata says what the form said. No console errors, no failed requests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertCleanPage, browserTest, withConsole } from '../helpers/browser.js';

browserTest('actions page: create from SDL, permissions, modify', async (t) => {
  t.timeout(180_000);
  const seen: Array<{ url: string; token: string | undefined }> = [];
  const handler = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ url: req.url ?? '', token: req.headers['x-token'] as string | undefined });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 7, greeting: 'hi' }));
    });
  });
  await new Promise<void>((r) => handler.listen(0, '127.0.0.1', () => r()));
  t.teardown(() => new Promise<void>((r) => handler.close(() => r())));
  const base = `http://127.0.0.1:${(handler.address() as AddressInfo).port}`;
  await withConsole({}, async (e, b) => {
    const { page } = b;
    const actionOf = async () => ((await e.query({ type: 'export_metadata', args: {} })).body as { actions?: Array<Record<string, any>> }).actions ?? [];
    await page.goto(`${e.url}/console/actions`);
    await page.getByText('No actions.').waitFor();
    await page.getByRole('button', { name: 'Create action' }).click();
    await page.getByLabel('Action definition').fill('type Mutation {\n  greet(name: String!): Greeting\n}');
    await page.getByLabel('Type definitions').fill('type Greeting {\n  id: Int!\n  greeting: String\n}');
    await page.getByLabel('Handler', { exact: true }).fill(`${base}/greet`);
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByLabel('Action header 1 name').fill('X-Token');
    await page.getByLabel('Action header 1 value').fill('abc');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Created greet' }).waitFor();
    const [created] = await actionOf();
    t.like(created, { name: 'greet', definition: { kind: 'synchronous', type: 'mutation', output_type: 'Greeting', handler: `${base}/greet`, arguments: [{ name: 'name', type: 'String!' }] } });
    const r = await e.graphql({ query: 'mutation { greet(name: "x") { id greeting } }' });
    t.deepEqual(r.body, { data: { greet: { id: 7, greeting: 'hi' } } });
    t.deepEqual(seen, [{ url: '/greet', token: 'abc' }]);

    await page.getByLabel('New role for greet').fill('user');
    await page.getByRole('button', { name: 'Allow role' }).click();
    await page.getByRole('button', { name: 'Drop permission user on greet' }).waitFor();
    t.deepEqual((await actionOf())[0].permissions, [{ role: 'user' }]);
    await page.getByRole('button', { name: 'Drop permission user on greet' }).click();
    await page.getByRole('button', { name: 'Drop permission user on greet' }).waitFor({ state: 'detached' });
    t.is((await actionOf())[0].permissions, undefined);

    await page.getByRole('button', { name: 'Modify' }).click();
    await page.getByLabel('Handler', { exact: true }).fill(`${base}/v2`);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Modified greet' }).waitFor();
    t.is((await actionOf())[0].definition.handler, `${base}/v2`);
    await e.graphql({ query: 'mutation { greet(name: "x") { id } }' });
    t.is(seen[seen.length - 1].url, '/v2');
    assertCleanPage(t, b);
  });
});
