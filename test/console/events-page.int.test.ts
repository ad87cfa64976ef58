// The console's Events page in Chromium against real deliveries: a trigger posting to a webhook on loopback; the
// delivered event and its invocation log (status 200), a failing webhook's event under "failed" after its one
// try, redeliver of that event once the webhook answers 200, and a manual invocation.
import { assertCleanPage, browserTest, holdRequest, withConsole } from '../helpers/browser.js';
import { startWebhook } from '../triggers/webhook.js';

/** Polls `check` until it holds; the deadline only catches a hang (a loaded machine is slow, not wrong). */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

browserTest('events page: delivered and failed events, invocation logs, redeliver, invoke', async (t) => {
  t.timeout(180_000);
  const hook = await startWebhook();
  t.teardown(() => hook.close());
  await withConsole({ eventsFetchInterval: 100 }, async (e, b) => {
    const { page } = b;
    let fail = false;
    hook.answer = () => ({ status: fail ? 500 : 200 });
    for (const body of [
      { type: 'run_sql', args: { sql: 'CREATE TABLE note (id int PRIMARY KEY, body text)' } },
      { type: 'track_table', args: { table: 'note' } },
      { type: 'create_event_trigger', args: { name: 'note_created', table: 'note', webhook: hook.url, insert: { columns: '*' }, enable_manual: true } },
    ]) t.is((await e.query(body)).status, 200, JSON.stringify(body));

    // What the page shows is read from event_log: wait for the engine to have stored each outcome (the webhook sees
    // the request before the worker has the answer and writes it), then for the page to show that state.
    const stored = async (id: string, want: { delivered: boolean; error: boolean }) => {
      await until(`event ${id} stored as ${JSON.stringify(want)}`, async () => {
        const r = await e.query({ type: 'select', args: { table: { schema: 'engine_catalog', name: 'event_log' }, columns: ['delivered', 'error'], where: { id } } });
        return r.status === 200 && r.body.length === 1 && r.body[0].delivered === want.delivered && r.body[0].error === want.error;
      });
    };
    const rows = page.getByRole('table', { name: 'Events' }).locator('tbody tr');
    // Selects a tab and refreshes until its table shows the wanted rows (the tab's own read: rows of the tab shown
    // before stay on screen only until then, and the texts checked name the event and its state).
    const show = async (tab: string, want: (texts: string[]) => boolean) => {
      await page.getByRole('tab', { name: tab }).click();
      await until(`${tab} tab showing the expected rows`, async () => {
        if (await page.getByRole('tab', { name: tab, selected: true }).count() === 1 && want(await rows.allInnerTexts())) return true;
        await page.getByRole('button', { name: 'Refresh' }).click();
        return false;
      });
    };
    const row = (texts: string[], id: string, state: RegExp) => texts.some((x) => x.includes(id) && state.test(x));

    t.is((await e.query({ type: 'run_sql', args: { sql: "INSERT INTO note VALUES (1, 'first')" } })).status, 200);
    const [first] = await hook.waitFor((r) => r.body?.event?.data?.new?.id === 1);
    const id1: string = first.body.id;
    await stored(id1, { delivered: true, error: false });
    await page.goto(`${e.url}/console/events/note_created`);
    await page.getByRole('heading', { name: /note_created/ }).waitFor();
    await show('delivered', (texts) => row(texts, id1, /delivered/));
    t.is(await rows.count(), 1);
    t.regex(await rows.first().innerText(), /delivered/);
    await rows.first().getByRole('button', { name: 'Invocations' }).click();
    const logs = page.getByLabel('Invocation logs');
    await logs.getByText(/status 200/).waitFor();

    // A webhook answering 500: the event (no retries configured) ends up failed; redeliver after fixing it.
    fail = true;
    t.is((await e.query({ type: 'run_sql', args: { sql: "INSERT INTO note VALUES (2, 'second')" } })).status, 200);
    const [second] = await hook.waitFor((r) => r.body?.event?.data?.new?.id === 2);
    const id2: string = second.body.id;
    await stored(id2, { delivered: false, error: true });
    await show('failed', (texts) => row(texts, id2, /failed/));
    t.is(await rows.count(), 1);
    t.regex(await rows.first().innerText(), /failed/);
    fail = false;
    // Another tab is chosen while the redeliver is in flight (held here until that tab shows its own rows): the
    // reload after the redeliver reads the tab shown then, never the one the click was made on.
    const redeliver = await holdRequest(page, '**/v1/query', 'redeliver_event');
    await rows.first().getByRole('button', { name: 'Redeliver' }).click();
    await redeliver.sent;
    await show('delivered', (texts) => row(texts, id1, /delivered/));
    redeliver.release();
    await page.getByRole('status').filter({ hasText: 'Redelivering' }).waitFor();
    // The redeliver's click is done (its reload included) once the buttons it disabled are enabled again.
    await until('the redeliver and its reload done', () => page.getByRole('button', { name: 'Invoke' }).isEnabled());
    await redeliver.stop();
    t.is(await page.getByRole('tab', { name: 'delivered', selected: true }).count(), 1);
    t.true(row(await rows.allInnerTexts(), id1, /delivered/), 'the delivered tab still shows its own rows');
    await hook.waitFor((r) => r.body?.event?.data?.new?.id === 2, 2);
    await stored(id2, { delivered: true, error: false });
    await show('delivered', (texts) => row(texts, id1, /delivered/) && row(texts, id2, /delivered/));
    t.is(await rows.count(), 2);

    // A manual invocation reaches the webhook with op MANUAL.
    await page.getByRole('button', { name: 'Invoke' }).click();
    await page.getByRole('status').filter({ hasText: 'Invoked: event' }).waitFor();
    const [manual] = await hook.waitFor((r) => r.body?.event?.op === 'MANUAL');
    t.is(manual.body.trigger.name, 'note_created');

    assertCleanPage(t, b);
  });
});
