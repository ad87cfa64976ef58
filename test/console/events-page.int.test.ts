// The console's Events page in Chromium against real deliveries: a trigger posting to a webhook on loopback; the
// delivered event and its invocation log (status 200), a failing webhook's event under "failed" after its one
// try, redeliver of that event once the webhook answers 200, and a manual invocation.
import test from 'ava';
import { buildConsole, consoleBuilt } from '../../console/build.mjs';
import { chromiumAvailable, openBrowser } from '../helpers/browser.js';
import { startTestEngine } from '../helpers/engine.js';
import { startWebhook } from '../triggers/webhook.js';

const run = chromiumAvailable() || process.env.CI ? test.serial : test.serial.skip;

run('events page: delivered and failed events, invocation logs, redeliver, invoke', async (t) => {
  t.timeout(180_000);
  if (!(await consoleBuilt())) await buildConsole({ quiet: true });
  const hook = await startWebhook();
  const e = await startTestEngine({ eventsFetchInterval: 100 });
  const b = await openBrowser();
  const { page } = b;
  try {
    let fail = false;
    hook.answer = () => ({ status: fail ? 500 : 200 });
    for (const body of [
      { type: 'run_sql', args: { sql: 'CREATE TABLE note (id int PRIMARY KEY, body text)' } },
      { type: 'track_table', args: { table: 'note' } },
      { type: 'create_event_trigger', args: { name: 'note_created', table: 'note', webhook: hook.url, insert: { columns: '*' }, enable_manual: true } },
    ]) t.is((await e.query(body)).status, 200, JSON.stringify(body));

    t.is((await e.query({ type: 'run_sql', args: { sql: "INSERT INTO note VALUES (1, 'first')" } })).status, 200);
    await hook.waitFor((r) => r.body?.event?.data?.new?.id === 1);
    await page.goto(`${e.url}/console/events/note_created`);
    await page.getByRole('heading', { name: /note_created/ }).waitFor();
    await page.getByRole('tab', { name: 'delivered' }).click();
    const rows = page.getByRole('table', { name: 'Events' }).locator('tbody tr');
    await rows.first().waitFor();
    t.is(await rows.count(), 1);
    t.regex(await rows.first().innerText(), /delivered/);
    await rows.first().getByRole('button', { name: 'Invocations' }).click();
    const logs = page.getByLabel('Invocation logs');
    await logs.getByText(/status 200/).waitFor();

    // A webhook answering 500: the event (no retries configured) ends up failed; redeliver after fixing it.
    fail = true;
    t.is((await e.query({ type: 'run_sql', args: { sql: "INSERT INTO note VALUES (2, 'second')" } })).status, 200);
    await hook.waitFor((r) => r.body?.event?.data?.new?.id === 2);
    await page.getByRole('tab', { name: 'failed' }).click();
    // The tab keeps the previous tab's rows until its own query answers: wait for a row that is not the delivered one.
    const failedShown = async () => (await rows.count()) > 0 && !/delivered/.test(await rows.first().innerText());
    for (let i = 0; i < 50 && !(await failedShown()); i++) {
      await page.waitForTimeout(200);
      await page.getByRole('button', { name: 'Refresh' }).click();
    }
    t.is(await rows.count(), 1);
    t.regex(await rows.first().innerText(), /failed/);
    fail = false;
    await rows.first().getByRole('button', { name: 'Redeliver' }).click();
    await page.getByRole('status').filter({ hasText: 'Redelivering' }).waitFor();
    await hook.waitFor((r) => r.body?.event?.data?.new?.id === 2, 2);
    await page.getByRole('tab', { name: 'delivered' }).click();
    for (let i = 0; i < 50 && (await rows.count()) < 2; i++) {
      await page.waitForTimeout(200);
      await page.getByRole('button', { name: 'Refresh' }).click();
    }
    t.is(await rows.count(), 2);

    // A manual invocation reaches the webhook with op MANUAL.
    await page.getByRole('button', { name: 'Invoke' }).click();
    await page.getByRole('status').filter({ hasText: 'Invoked: event' }).waitFor();
    const [manual] = await hook.waitFor((r) => r.body?.event?.op === 'MANUAL');
    t.is(manual.body.trigger.name, 'note_created');

    t.deepEqual(b.failedRequests, []);
    t.deepEqual(b.errorResponses, []);
    t.deepEqual(b.consoleProblems, []);
  } finally {
    await b.close();
    await e.close();
    await hook.close();
  }
});
