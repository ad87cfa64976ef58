// decide specs for cron triggers and create_scheduled_event's args: the original's parse errors and defaults, the
// exists / does-not-exist rules, the folded metadata in the export's shape (key order, defaults left out), and the
// whole-metadata operations (replace, clear, drop_inconsistent) with triggers in and out of the metadata.
import test from 'ava';
import { blogCatalog, decideCommand, given, type Query } from './fixtures.js';
import type { Event } from '../../events/types.js';
import { fold } from '../../projections/replay.js';
import { emptyMetadata } from '../../projections/metadata.js';
import { exportMetadata, parseMetadataDocument } from '../../projections/export.js';
import { decideMetadata } from '../../events/decide/metadata.js';
import { parseScheduledEventArgs } from '../../events/decide/scheduled-events.js';
import { EngineError } from '../../src/core/errors.js';

const cat = blogCatalog();
const cron = (args: Record<string, unknown> = {}): Query => ({
  type: 'create_cron_trigger',
  args: { name: 'nightly', webhook: 'http://hook/nightly', schedule: '0 3 * * *', include_in_metadata: true, ...args },
});
/** The events of several commands, each decided on the metadata the ones before it made. */
function run(queries: Query[]): Event[] {
  let metadata = emptyMetadata();
  const out: Event[] = [];
  for (const q of queries) {
    const events = decideCommand(cat, metadata, q);
    metadata = fold(metadata, events);
    out.push(...events);
  }
  return out;
}
const exported = (queries: Query[]) => exportMetadata(fold(emptyMetadata(), run(queries)));
const DEFAULT_RETRY = { num_retries: 0, retry_interval_seconds: 10, timeout_seconds: 60, tolerance_seconds: 21600 };
/** The event of `create_cron_trigger` with `cron()`'s arguments (and `over`), written out by hand. */
const created = (over: Record<string, unknown> = {}): Event => ({
  type: 'cron_trigger_created',
  data: {
    trigger: {
      name: 'nightly', webhook: 'http://hook/nightly', schedule: '0 3 * * *', headers: [], include_in_metadata: true,
      retry_conf: DEFAULT_RETRY, ...over,
    },
  },
} as Event);

test('create_cron_trigger: defaults filled in, and the export leaves them out in the original\'s key order', (t) => {
  given(cat).when(cron()).then(t, [{
    type: 'cron_trigger_created',
    data: {
      trigger: {
        name: 'nightly', webhook: 'http://hook/nightly', schedule: '0 3 * * *', headers: [], include_in_metadata: true,
        retry_conf: { num_retries: 0, retry_interval_seconds: 10, timeout_seconds: 60, tolerance_seconds: 21600 },
      },
    },
  }]);
  t.deepEqual(exported([cron()]).cron_triggers, [{ name: 'nightly', webhook: 'http://hook/nightly', schedule: '0 3 * * *', include_in_metadata: true }]);
  const full = exported([cron({
    comment: 'every night', payload: { k: 1 }, headers: [{ name: 'X-A', value: 'a' }, { name: 'X-B', value_from_env: 'B' }],
    retry_conf: { num_retries: 2, tolerance_seconds: 60 },
  })]).cron_triggers as Array<Record<string, unknown>>;
  t.deepEqual(Object.keys(full[0]), ['name', 'webhook', 'schedule', 'include_in_metadata', 'payload', 'retry_conf', 'headers', 'comment']);
  t.deepEqual(full[0].retry_conf, { num_retries: 2, retry_interval_seconds: 10, timeout_seconds: 60, tolerance_seconds: 60 });
  t.deepEqual(full[0].headers, [{ name: 'X-A', value: 'a' }, { name: 'X-B', value_from_env: 'B' }]);
  // a retry_conf given with exactly the default values is left out too; null payload and comment are absent
  t.deepEqual(exported([cron({ retry_conf: { num_retries: 0, timeout_seconds: 60 }, payload: null, comment: null })]).cron_triggers,
    [{ name: 'nightly', webhook: 'http://hook/nightly', schedule: '0 3 * * *', include_in_metadata: true }]);
});

test('create_cron_trigger: the original\'s parse errors', (t) => {
  const g = given(cat);
  g.when(cron({ name: '' })).throws(t, { code: 'parse-failed', message: 'empty string not allowed', path: '$.name' });
  g.when(cron({ include_in_metadata: undefined })).throws(t, { code: 'parse-failed', message: 'key "include_in_metadata" not found' });
  g.when(cron({ schedule: undefined })).throws(t, { code: 'parse-failed', message: 'key "schedule" not found' });
  g.when(cron({ webhook: undefined })).throws(t, { code: 'parse-failed', message: 'key "webhook" not found' });
  g.when(cron({ schedule: '* * *' })).throws(t, { code: 'parse-failed', message: /^invalid cron expression "\* \* \*": expected 5 fields/, path: '$.schedule' });
  g.when(cron({ schedule: '61 * * * *' })).throws(t, { code: 'parse-failed', message: /^invalid cron expression "61 \* \* \* \*"/, path: '$.schedule' });
  g.when(cron({ retry_conf: { num_retries: -1 } })).throws(t, { code: 'parse-failed', message: 'num_retries cannot be a negative value', path: '$.retry_conf' });
  g.when(cron({ retry_conf: { retry_interval_seconds: -5 } })).throws(t, { code: 'parse-failed', message: 'negative value not allowed', path: '$.retry_conf.retry_interval_seconds' });
  g.when(cron({ retry_conf: { tolerance_seconds: -1 } })).throws(t, { code: 'parse-failed', message: 'negative value not allowed', path: '$.retry_conf.tolerance_seconds' });
  g.when(cron({ headers: [{ name: 'h' }] })).throws(t, { code: 'parse-failed', message: 'expecting exactly one of "value" and "value_from_env"' });
  g.when(cron({ include_in_metadata: 'yes' })).throws(t, { code: 'parse-failed', path: '$.include_in_metadata' });
});

test('create_cron_trigger: a second one of the same name, replace of an unknown one; delete', (t) => {
  given(cat, created()).when(cron()).throws(t, { code: 'already-exists', message: 'cron trigger with name: nightly already exists', path: '$.args' });
  given(cat).when(cron({ replace: true })).throws(t, { code: 'not-exists', message: 'cron trigger with name: nightly does not exist', path: '$.args' });
  const replaced = given(cat, created()).when(cron({ replace: true, schedule: '*/5 * * * *' })).then(t, [{
    type: 'cron_trigger_updated',
    data: {
      trigger: {
        name: 'nightly', webhook: 'http://hook/nightly', schedule: '*/5 * * * *', headers: [], include_in_metadata: true, retry_conf: DEFAULT_RETRY,
      },
    },
  } as Event]);
  const m = fold(emptyMetadata(), [created(), created({ name: 'other' }), ...replaced]);
  // replacing keeps the trigger's place and takes the new definition
  t.deepEqual(m.cron_triggers.map((c) => [(c as { name: string }).name, (c as { schedule: string }).schedule]), [['nightly', '*/5 * * * *'], ['other', '0 3 * * *']]);
  given(cat).when({ type: 'delete_cron_trigger', args: { name: 'nightly' } }).throws(t, { code: 'not-exists', message: 'cron trigger with name: nightly does not exist' });
  given(cat, created()).when({ type: 'delete_cron_trigger', args: { name: 'nightly' } }).then(t, [{ type: 'cron_trigger_deleted', data: { name: 'nightly' } }]);
  given(cat).when({ type: 'delete_cron_trigger', args: {} }).throws(t, { code: 'parse-failed', message: 'key "name" not found' });
});

test('the export lists only triggers included in the metadata, by name', (t) => {
  const doc = exported([cron({ name: 'zeta' }), cron({ name: 'alpha' }), cron({ name: 'hidden', include_in_metadata: false })]);
  t.deepEqual((doc.cron_triggers as Array<{ name: string }>).map((c) => c.name), ['alpha', 'zeta']);
});

test('replace_metadata reads cron triggers back, checks duplicates, and keeps the ones not included in the metadata', (t) => {
  const before = fold(emptyMetadata(), run([cron({ name: 'shown', payload: [1] }), cron({ name: 'hidden', include_in_metadata: false })]));
  const doc = exportMetadata(before);
  // round trip: the document replaces to the same export
  t.deepEqual(exportMetadata(parseMetadataDocument(doc)), doc);
  const replaced = decideMetadata({ op: 'replace_metadata', metadata: parseMetadataDocument({ version: 2, tables: [] }) }, { metadata: before, catalog: cat });
  const after = fold(before, replaced);
  t.deepEqual(after.cron_triggers.map((c) => (c as { name: string }).name), ['hidden'], 'the included trigger went, the other stayed');
  // a trigger of the document named like a kept one replaces it
  const named = decideMetadata({
    op: 'replace_metadata',
    metadata: parseMetadataDocument({ version: 2, tables: [], cron_triggers: [{ name: 'hidden', webhook: 'http://x', schedule: '@daily', include_in_metadata: true }] }),
  }, { metadata: before, catalog: cat });
  t.deepEqual(fold(before, named).cron_triggers.map((c) => [(c as { name: string }).name, (c as { schedule: string }).schedule]), [['hidden', '@daily']]);
  const dup = t.throws(() => parseMetadataDocument({ tables: [], cron_triggers: [{ name: 'a', webhook: 'w', schedule: '@daily', include_in_metadata: true }, { name: 'a', webhook: 'w', schedule: '@daily', include_in_metadata: true }] }), { instanceOf: EngineError });
  t.is(dup?.message, 'multiple declarations exist for the following cron triggers : ["a"]');
  const bad = t.throws(() => parseMetadataDocument({ tables: [], cron_triggers: [{ name: 'a', webhook: 'w', schedule: 'never', include_in_metadata: true }] }), { instanceOf: EngineError });
  t.is(bad?.path, '$.cron_triggers[0].schedule');
});

test('clear_metadata removes the included cron triggers and keeps the others', (t) => {
  const m = fold(emptyMetadata(), run([cron({ name: 'shown' }), cron({ name: 'hidden', include_in_metadata: false }), { type: 'clear_metadata', args: {} }]));
  t.deepEqual(m.cron_triggers.map((c) => (c as { name: string }).name), ['hidden']);
  t.deepEqual(exportMetadata(m), { version: 2, tables: [] });
});

test('drop_inconsistent_metadata deletes an inconsistent cron trigger', (t) => {
  const events = decideMetadata({ op: 'drop_inconsistent_metadata' }, { metadata: emptyMetadata(), catalog: cat, inconsistent: [JSON.stringify(['cron_trigger', 'nightly'])] });
  t.deepEqual(events, [{ type: 'cron_trigger_deleted', data: { name: 'nightly' } }]);
});

test('create_scheduled_event args: defaults, timestamps with and without a zone, the original\'s errors', (t) => {
  t.deepEqual(parseScheduledEventArgs({ webhook: 'http://h', schedule_at: '2030-01-02T03:04:05Z' }), {
    webhook: 'http://h', schedule_at: '2030-01-02T03:04:05Z', payload: null, headers: [], comment: null,
    retry_conf: { num_retries: 0, retry_interval_seconds: 10, timeout_seconds: 60, tolerance_seconds: 21600 },
  });
  t.is(parseScheduledEventArgs({ webhook: 'w', schedule_at: '2030-01-02T03:04:05.123456' }).schedule_at, '2030-01-02T03:04:05.123456Z', 'no zone: UTC');
  t.is(parseScheduledEventArgs({ webhook: 'w', schedule_at: '2030-01-02 03:04:05+05:30' }).schedule_at, '2030-01-02 03:04:05+05:30');
  const fails = (args: unknown, message: RegExp | string, path?: string) => {
    const e = t.throws(() => parseScheduledEventArgs(args), { instanceOf: EngineError });
    t.is(e?.code, 'parse-failed');
    if (typeof message === 'string') t.is(e?.message, message);
    else t.regex(e?.message ?? '', message);
    if (path) t.is(e?.path, path);
  };
  fails({ webhook: 'w', schedule_at: 'tomorrow' }, /^could not parse timestamp: "tomorrow"/, '$.schedule_at');
  fails({ webhook: 'w', schedule_at: '2030-02-30T00:00:00Z' }, /could not parse timestamp/);
  fails({ webhook: 'w', schedule_at: '2030-01-01T25:00:00Z' }, /could not parse timestamp/);
  fails({ webhook: 'w' }, 'key "schedule_at" not found');
  fails({ schedule_at: '2030-01-01T00:00:00Z' }, 'key "webhook" not found');
  fails({ webhook: 'w', schedule_at: '2030-01-01T00:00:00Z', retry_conf: { num_retries: -2 } }, 'num_retries cannot be a negative value', '$.retry_conf');
  fails({ webhook: 'w', schedule_at: '2030-01-01T00:00:00Z', retry_conf: { timeout_seconds: -1 } }, 'negative value not allowed');
});
