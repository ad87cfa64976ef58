// The console's remote relationship editor in Chromium: on a table's Data page, add a remote relationship (remote
// schema, field, the column for its argument, from the introspection the engine keeps), see it listed and served by
// GraphQL, then remove it. A real remote GraphQL server on loopback. No console errors, no failed requests.
import { assertCleanPage, browserTest, withConsole } from '../helpers/browser.js';
import { startRemote } from '../remote/server.js';

browserTest('data page: add and remove a remote relationship', async (t) => {
  t.timeout(180_000);
  const remote = await startRemote('type Message { id: Int!, msg: String! } type Query { message(id: Int!): Message, hello: String }', {
    message: ({ id }: { id: number }) => ({ id, msg: `message ${id}` }),
  });
  t.teardown(() => remote.close());
  await withConsole({}, async (e, b) => {
    const { page } = b;
    const setup = await e.query({
      type: 'bulk',
      args: [
        { type: 'run_sql', args: { sql: "CREATE TABLE profile (id int PRIMARY KEY, name text); INSERT INTO profile VALUES (1, 'ann'), (2, 'bo');" } },
        { type: 'track_table', args: 'profile' },
        { type: 'add_remote_schema', args: { name: 'messages', definition: { url: remote.url } } },
      ],
    });
    t.is(setup.status, 200, setup.text);

    await page.goto(`${e.url}/console/data/public/profile`);
    await page.getByRole('button', { name: 'Add remote relationship' }).click();
    await page.getByLabel('Remote relationship name').fill('latest');
    await page.getByLabel('Remote schema').selectOption('messages');
    await page.getByLabel('Remote field').selectOption('message');
    await page.getByLabel('Column for id').selectOption('id');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('messages · message(id: "$id")').waitFor();
    const r = await e.graphql({ query: '{ profile(order_by: {id: asc}) { name latest { msg } } }' });
    t.deepEqual(r.body, { data: { profile: [{ name: 'ann', latest: { msg: 'message 1' } }, { name: 'bo', latest: { msg: 'message 2' } }] } });

    await page.getByRole('button', { name: 'Remove latest' }).click();
    await page.getByRole('dialog', { name: 'Remove remote relationship' }).getByRole('button', { name: 'Remove' }).click();
    await page.getByText('messages · message(id: "$id")').waitFor({ state: 'detached' });
    const exported = (await e.query({ type: 'export_metadata', args: {} })).body as { tables: Array<{ remote_relationships?: unknown }> };
    t.is(exported.tables[0].remote_relationships, undefined);
    assertCleanPage(t, b);
  });
});
