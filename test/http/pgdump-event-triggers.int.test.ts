// /v1alpha1/pg_dump with clean_output leaves the event triggers' capture triggers out, as the original leaves out
// its notify_hasura_* triggers: statement-level ones on ordinary tables (with transition tables) and row-level ones
// on partitioned tables. Without clean_output the dump keeps them.
import test from 'ava';
import { startTestEngine, queryOk, type TestEngine } from '../helpers/engine.js';
import { pgDumpUsable } from '../helpers/capabilities.js';

// Skipped when this machine's pg_dump cannot dump the run's server (missing, or older than it).
const maybeDump = (await pgDumpUsable()) ? test : test.skip;

let e: TestEngine;
const HOOK = 'http://127.0.0.1:9/never-called';

test.before(async () => {
  e = await startTestEngine();
  await queryOk(e, {
    type: 'bulk',
    args: [
      { type: 'run_sql', args: { sql: `
        CREATE TABLE account (id int PRIMARY KEY, owner text, balance int);
        CREATE TABLE reading (id int, at date NOT NULL, value int) PARTITION BY RANGE (at);
        CREATE TABLE reading_2024 PARTITION OF reading FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
        CREATE TRIGGER audit_account AFTER INSERT ON account FOR EACH ROW EXECUTE FUNCTION suppress_redundant_updates_trigger();` } },
      { type: 'track_table', args: 'account' },
      { type: 'track_table', args: 'reading' },
      {
        type: 'create_event_trigger',
        args: { name: 'account_all', table: 'account', webhook: HOOK, insert: { columns: '*' }, update: { columns: ['balance'] }, delete: { columns: '*' } },
      },
      { type: 'create_event_trigger', args: { name: 'account_sub', table: 'account', webhook: HOOK, update: { columns: '*', payload: ['id', 'owner'] } } },
      { type: 'create_event_trigger', args: { name: 'reading_ins', table: 'reading', webhook: HOOK, insert: { columns: '*' } } },
    ],
  });
});
test.after.always(async () => {
  await e?.close();
});

const dump = async (clean: boolean): Promise<string> => {
  const r = await e.post('/v1alpha1/pg_dump', { opts: ['-O', '-x', '--schema-only', '--schema', 'public'], clean_output: clean });
  if (r.status !== 200) throw new Error(`pg_dump: ${r.status} ${r.text.slice(0, 300)}`);
  return r.text;
};

const triggerLines = (sql: string): string[] => sql.split('\n').filter((l) => l.startsWith('CREATE TRIGGER '));

maybeDump('the raw dump has the capture triggers: statement-level with transition tables, row-level on the partitioned table', async (t) => {
  const lines = triggerLines(await dump(false));
  const capture = lines.filter((l) => l.includes('notify_engine_'));
  t.is(capture.length, 5, lines.join('\n'));
  t.true(capture.some((l) => /REFERENCING OLD TABLE AS engine_old_rows NEW TABLE AS engine_new_rows FOR EACH STATEMENT/.test(l)));
  t.true(capture.some((l) => /ON public\.reading FOR EACH ROW/.test(l)));
});

maybeDump('clean_output leaves out every capture trigger and keeps the user\'s own trigger and tables', async (t) => {
  const clean = await dump(true);
  t.false(clean.includes('notify_engine_'), triggerLines(clean).join('\n'));
  t.false(clean.includes('REFERENCING'));
  t.deepEqual(triggerLines(clean), ['CREATE TRIGGER audit_account AFTER INSERT ON public.account FOR EACH ROW EXECUTE FUNCTION suppress_redundant_updates_trigger();']);
  t.regex(clean, /^CREATE TABLE public\.account \($/m);
  t.regex(clean, /^CREATE TABLE public\.reading_2024 \($/m);
});
