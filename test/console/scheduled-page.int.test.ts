// The console's Scheduled page in Chromium against real deliveries to a loopback webhook: a cron trigger created
// with the form, its upcoming events, a delivered one and a failed one with their invocation logs, an edit (replace)
// and a delete; a one-off event scheduled with the form, delivered, with its invocation log.
import pg from 'pg';
import { assertCleanPage, browserTest, withConsole } from '../helpers/browser.js';
import { startWebhook } from '../triggers/webhook.js';

/** Polls `check` until it holds; the deadline only catches a hang (a loaded machine is slow, not wrong). */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

browserTest('scheduled page: cron trigger create / events / logs / edit / delete, and a one-off event', async (t) => {
  t.timeout(180_000);
  const hook = await startWebhook();
  t.teardown(() => hook.close());
  await withConsole({ eventsFetchInterval: 100 }, async (e, b) => {
    const { page } = b;
    const db = new pg.Client({ connectionString: e.db.url });
    await db.connect();
    try {
      await scenario();
    } finally {
      // Before withConsole drops the database.
      await db.end();
    }
    assertCleanPage(t, b);

    async function scenario() {
      let fail = false;
      hook.answer = () => ({ status: fail ? 500 : 200 });

      // Create a yearly trigger with the form.
      await page.goto(`${e.url}/console/scheduled/new`);
      const form = page.getByLabel('New cron trigger');
      await form.getByLabel('Name').fill('yearly_report');
      await form.getByLabel('Webhook').fill(`${hook.url}/report`);
      await form.getByLabel('Schedule').fill('0 0 1 1 *');
      await form.getByLabel('Payload (JSON)').fill('{"kind":"report"}');
      await form.getByRole('button', { name: 'Create' }).click();
      await page.getByRole('heading', { name: /yearly_report/ }).waitFor();
      const rows = page.getByRole('table', { name: 'Scheduled events' }).locator('tbody tr');
      await until('50 upcoming events listed', async () => (await rows.count()) === 50);
      t.regex(await rows.first().innerText(), /scheduled/);

      // Its first event brought forward: delivered, shown under "delivered" with its invocation log.
      const bringForward = async () => {
        const r = await db.query(`UPDATE engine_catalog.hdb_cron_events SET scheduled_time = now() WHERE id =
          (SELECT id FROM engine_catalog.hdb_cron_events WHERE trigger_name = 'yearly_report' AND status = 'scheduled' ORDER BY scheduled_time LIMIT 1) RETURNING id`);
        await db.query("SELECT pg_notify('engine_scheduled', '')");
        return r.rows[0].id as string;
      };
      const stored = (id: string, status: string) => until(`event ${id} ${status}`, async () =>
        (await db.query('SELECT status FROM engine_catalog.hdb_cron_events WHERE id = $1', [id])).rows[0]?.status === status);
      const show = async (tab: string, id: string, state: RegExp) => {
        await page.getByRole('tab', { name: tab }).click();
        await until(`${tab} tab showing ${id}`, async () => {
          if (await page.getByRole('tab', { name: tab, selected: true }).count() === 1 && (await rows.allInnerTexts()).some((x) => x.includes(id) && state.test(x))) return true;
          await page.getByRole('button', { name: 'Refresh' }).click();
          return false;
        });
      };
      const delivered = await bringForward();
      const [got] = await hook.waitFor((r) => r.path === '/report');
      t.deepEqual(got.body.payload, { kind: 'report' });
      t.is(got.body.name, 'yearly_report');
      await stored(delivered, 'delivered');
      await show('delivered', delivered, /delivered/);
      t.is(await rows.count(), 1);
      await rows.first().getByRole('button', { name: 'Invocations' }).click();
      await page.getByLabel('Invocation logs').getByText(/status 200/).waitFor();

      // A failing webhook: the next event ends up under "failed" after its one try.
      fail = true;
      const failed = await bringForward();
      await hook.waitFor((r) => r.path === '/report', 2);
      await stored(failed, 'error');
      await show('failed', failed, /error/);
      await rows.first().getByRole('button', { name: 'Invocations' }).click();
      await page.getByLabel('Invocation logs').getByText(/status 500/).waitFor();
      fail = false;

      // Edit: a daily schedule (create_cron_trigger with replace).
      await page.getByRole('button', { name: 'Edit' }).click();
      const edit = page.getByLabel('Edit cron trigger');
      await edit.getByLabel('Schedule').fill('0 0 * * *');
      await edit.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('heading', { name: /0 0 \* \* \*/ }).waitFor();
      t.is((await db.query("SELECT cron_schedule FROM engine_catalog.hdb_cron_triggers WHERE name = 'yearly_report'")).rows[0].cron_schedule, '0 0 * * *');

      // A one-off event scheduled with the form: delivered, with its invocation log.
      await page.getByRole('link', { name: 'Scheduled events' }).click();
      const oneOff = page.getByLabel('New scheduled event');
      await oneOff.getByLabel('Webhook').fill(`${hook.url}/once`);
      await oneOff.getByLabel('Schedule at (ISO 8601)').fill(new Date().toISOString());
      await oneOff.getByLabel('Payload (JSON)').fill('{"n":1}');
      await oneOff.getByLabel('Comment').fill('from the console');
      await oneOff.getByRole('button', { name: 'Schedule' }).click();
      const status = page.getByRole('status').filter({ hasText: 'Scheduled event' });
      await status.waitFor();
      const id = /Scheduled event (\S+)/.exec(await status.innerText())![1];
      const [once] = await hook.waitFor((r) => r.path === '/once');
      t.deepEqual([once.body.id, once.body.payload, once.body.comment], [id, { n: 1 }, 'from the console']);
      await until('the one-off event stored as delivered', async () =>
        (await db.query('SELECT status FROM engine_catalog.hdb_scheduled_events WHERE id = $1', [id])).rows[0]?.status === 'delivered');
      await show('delivered', id, /delivered/);
      await rows.first().getByRole('button', { name: 'Invocations' }).click();
      await page.getByLabel('Invocation logs').getByText(/status 200/).waitFor();

      // Delete the trigger: gone from the sidebar and from the catalog with its events.
      await page.getByRole('link', { name: 'yearly_report' }).click();
      await page.getByRole('button', { name: 'Delete trigger' }).click();
      await page.getByRole('dialog', { name: 'Delete cron trigger' }).getByRole('button', { name: 'Delete' }).click();
      await until('the trigger gone from the sidebar', async () => (await page.getByRole('link', { name: 'yearly_report' }).count()) === 0);
      t.is((await db.query("SELECT count(*)::int AS n FROM engine_catalog.hdb_cron_events WHERE trigger_name = 'yearly_report'")).rows[0].n, 0);
    }
  });
});
