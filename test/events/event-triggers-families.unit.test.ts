// decide specs for event triggers and remote schemas: parse errors, checks against metadata/catalog, the events,
// and the folded metadata (export shape). Starting events and expected events are written out by hand.
import test from 'ava';
import { ARTICLE_TRACKED, AUTHOR_TRACKED, author, blogCatalog, given, type Query } from './fixtures.js';
import { ev, type Event } from '../../events/types.js';
import { fold } from '../../projections/replay.js';
import { emptyMetadata } from '../../projections/metadata.js';
import { exportMetadata } from '../../projections/export.js';
import { eventTriggerEnvError, manualTrigger, parseInvokeArgs, parseRedeliverArgs } from '../../events/decide/event-triggers.js';
import type { EventTriggerConf } from '../../events/event-triggers.js';

const cat = blogCatalog();
const trigger = (args: Record<string, unknown> = {}): Query => ({
  type: 'create_event_trigger',
  args: { name: 't1', table: 'author', webhook: 'http://hook', insert: { columns: '*' }, ...args },
});
/** The retry configuration a trigger gets when it names none: no retries, 10 s apart, a 60 s time-out. */
const DEFAULT_RETRY = { num_retries: 0, interval_sec: 10, timeout_sec: 60 };
/** trigger(args) as stored on author: `conf` over the defaults (inserts of every column, manual runs off). */
const triggerCreated = (conf: Partial<EventTriggerConf> = {}) =>
  ev('event_trigger_created', {
    table: author,
    trigger: { name: 't1', definition: { insert: { columns: '*' }, enable_manual: false }, retry_conf: DEFAULT_RETRY, webhook: 'http://hook', ...conf },
  });
const T1_CREATED = triggerCreated();

// create_event_trigger --------------------------------------------------------------------------------------------

test('create_event_trigger stores the export shape (defaults filled, absent specs left out)', (t) => {
  const [e] = given(cat, AUTHOR_TRACKED)
    .when(trigger({ update: { columns: ['name'], payload: ['id'] } }))
    .then(t, [triggerCreated({ definition: { insert: { columns: '*' }, update: { columns: ['name'], payload: ['id'] }, enable_manual: false } })]);
  const m = fold(emptyMetadata(), [AUTHOR_TRACKED, e]);
  t.deepEqual((exportMetadata(m).tables as Array<Record<string, unknown>>)[0].event_triggers, [
    {
      name: 't1',
      definition: { insert: { columns: '*' }, update: { columns: ['name'], payload: ['id'] }, enable_manual: false },
      retry_conf: { num_retries: 0, interval_sec: 10, timeout_sec: 60 },
      webhook: 'http://hook',
    },
  ]);
});

test('create_event_trigger: parse errors of the original', (t) => {
  const g = given(cat, AUTHOR_TRACKED);
  g.when(trigger({ name: '' })).throws(t, { code: 'parse-failed', message: 'empty string not allowed', path: '$.name' });
  g.when(trigger({ name: '1abc' })).throws(t, { code: 'parse-failed', message: 'only alphanumeric and underscore and hyphens allowed for name' });
  g.when(trigger({ name: 'a'.repeat(43) })).throws(t, { code: 'parse-failed', message: 'event trigger name can be at most 42 characters' });
  g.when(trigger({ insert: undefined })).throws(t, { code: 'parse-failed', message: 'atleast one amongst insert/update/delete/enable_manual spec must be provided' });
  g.when(trigger({ webhook: undefined })).throws(t, { code: 'parse-failed', message: 'must provide webhook or webhook_from_env' });
  g.when(trigger({ webhook_from_env: 'X' })).throws(t, { code: 'parse-failed', message: 'only one of webhook or webhook_from_env should be given' });
  g.when(trigger({ insert: { columns: [] } })).throws(t, { code: 'parse-failed', message: 'found empty column specification' });
  g.when(trigger({ insert: { columns: '*', payload: [] } })).throws(t, { code: 'parse-failed', message: 'found empty payload specification' });
  g.when(trigger({ headers: [{ name: 'h' }] })).throws(t, { code: 'parse-failed' });
  g.when(trigger({ headers: [{ name: 'h', value_from_env: 'ENGINE_GRAPHQL_ADMIN_SECRET' }] })).throws(t, { code: 'parse-failed', message: /not allowed/ });
  // enable_manual alone is enough; a name of exactly 42 characters is fine
  g.when(trigger({ insert: undefined, enable_manual: true, name: 'a'.repeat(42) })).then(t, [
    triggerCreated({ name: 'a'.repeat(42), definition: { enable_manual: true } }),
  ]);
});

test('create_event_trigger: untracked table, unknown column, replace rules, duplicate name', (t) => {
  given(cat).when(trigger()).throws(t, { code: 'not-exists', message: 'table "author" does not exist', path: '$.args' });
  given(cat, AUTHOR_TRACKED).when(trigger({ update: { columns: ['nope'] } })).throws(t, { code: 'not-exists', message: 'column "nope" does not exist' });
  given(cat, AUTHOR_TRACKED).when(trigger({ replace: true })).throws(t, { code: 'not-exists', message: 'event trigger "t1" does not exist' });
  given(cat, AUTHOR_TRACKED, ARTICLE_TRACKED, T1_CREATED)
    .when(trigger({ table: 'article', replace: true }))
    .throws(t, { code: 'not-supported', message: 'cannot replace table or schema for trigger' });
  given(cat, AUTHOR_TRACKED, T1_CREATED).when(trigger()).throws(t, { code: 'unexpected', message: 'database query error' });
  given(cat, AUTHOR_TRACKED, T1_CREATED).when(trigger({ replace: true, webhook: 'http://other' })).then(t, [triggerCreated({ webhook: 'http://other' })]);
});

test('delete_event_trigger: removes it; an unknown name is a no-op success', (t) => {
  given(cat, AUTHOR_TRACKED, T1_CREATED).when({ type: 'delete_event_trigger', args: { name: 't1' } }).then(t, [ev('event_trigger_deleted', { name: 't1' })]);
  given(cat, AUTHOR_TRACKED).when({ type: 'delete_event_trigger', args: { name: 'nope' } }).then(t, []);
  given(cat).when({ type: 'delete_event_trigger', args: { name: '' } }).throws(t, { code: 'parse-failed', path: '$.name' });
});

// redeliver_event / invoke_event_trigger act on event_log (src/triggers/manual-events.ts, tested on Postgres in
// test/triggers/); their args and the manual-mode check are pure.
test('redeliver_event and invoke_event_trigger: args and the manual-mode check answer with the original errors', (t) => {
  const err = (f: () => unknown) => t.throws(f) as unknown as { code: string; message: string };
  t.like(err(() => parseRedeliverArgs({})), { code: 'parse-failed', message: 'key "event_id" not found' });
  t.deepEqual(parseRedeliverArgs({ event_id: 'x' }), { event_id: 'x' });
  t.like(err(() => parseInvokeArgs({ name: 't1' })), { code: 'parse-failed', message: 'key "payload" not found' });
  t.deepEqual(parseInvokeArgs({ name: 't1', payload: { a: 1 } }), { name: 't1', payload: { a: 1 } });
  t.like(err(() => manualTrigger(emptyMetadata(), 'x')), { code: 'not-exists', message: 'event trigger "x" does not exist' });
  const m = fold(emptyMetadata(), [AUTHOR_TRACKED, T1_CREATED]);
  t.like(err(() => manualTrigger(m, 't1')), { code: 'not-supported', message: 'manual mode is not enabled for event trigger' });
  const manual = fold(emptyMetadata(), [AUTHOR_TRACKED, triggerCreated({ definition: { insert: { columns: '*' }, enable_manual: true } })]);
  t.like(manualTrigger(manual, 't1'), { table: { schema: 'public', name: 'author' }, trigger: { name: 't1' } });
});

// What the events fold into (evolve), from hand-written events.
test('a trigger replaced, deleted, or its table untracked: what the metadata holds', (t) => {
  const triggers = (...events: Event[]) => fold(emptyMetadata(), [AUTHOR_TRACKED, ...events]).tables['public.author'].event_triggers as EventTriggerConf[];
  t.deepEqual(triggers(T1_CREATED, triggerCreated({ webhook: 'http://other' })).map((x) => x.webhook), ['http://other']);
  t.deepEqual(triggers(T1_CREATED, ev('event_trigger_deleted', { name: 't1' })), []);
  t.deepEqual(triggers(T1_CREATED, ev('table_untracked', { table: author }), AUTHOR_TRACKED), []);
  t.deepEqual(fold(emptyMetadata(), [AUTHOR_TRACKED, T1_CREATED, ev('metadata_cleared', {})]).tables, {});
});

test('eventTriggerEnvError: webhook_from_env and header env variables must be set', (t) => {
  const conf: EventTriggerConf = {
    name: 't1', definition: { enable_manual: true }, retry_conf: { num_retries: 0, interval_sec: 10, timeout_sec: 60 },
    webhook_from_env: 'HOOK', headers: [{ name: 'h', value_from_env: 'HDR' }],
  };
  const table = { schema: 'public', name: 'author' };
  t.is(eventTriggerEnvError(table, conf, { HOOK: 'x', HDR: 'y' }), null);
  const e = eventTriggerEnvError(table, conf, { HOOK: 'x' });
  t.is(e?.code, 'constraint-violation');
  t.is(e?.message, `in table "author": in event trigger "t1": environment variable 'HDR' not set`);
  t.is(e?.path, '$.args');
});

// remote schemas ----------------------------------------------------------------------------------------------------

const remote = (def: Record<string, unknown> = { url: 'http://remote/graphql' }, extra: Record<string, unknown> = {}): Query => ({
  type: 'add_remote_schema',
  args: { name: 'rs', definition: def, ...extra },
});
/** remote() as stored: its name and url. */
const RS_ADDED = ev('remote_schema_added', { remote_schema: { name: 'rs', definition: { url: 'http://remote/graphql' } } });

test('add_remote_schema stores the export shape; name taken; url xor url_from_env', (t) => {
  // Empty headers and a false forward_client_headers are the defaults: left out, as the export leaves them out.
  const [e] = given(cat)
    .when(remote({ url: 'http://remote/graphql', headers: [], forward_client_headers: false }, { comment: 'c' }))
    .then(t, [ev('remote_schema_added', { remote_schema: { name: 'rs', definition: { url: 'http://remote/graphql' }, comment: 'c' } })]);
  t.deepEqual(exportMetadata(fold(emptyMetadata(), [e])).remote_schemas, [{ name: 'rs', definition: { url: 'http://remote/graphql' }, comment: 'c' }]);
  const full = { url_from_env: 'U', timeout_seconds: 5, headers: [{ name: 'a', value: 'b' }], forward_client_headers: true as const };
  const [e2] = given(cat).when(remote(full)).then(t, [ev('remote_schema_added', { remote_schema: { name: 'rs', definition: full } })]);
  // ... with its keys in the export's order.
  t.is(JSON.stringify(e2.data), JSON.stringify({ remote_schema: { name: 'rs', definition: full } }));
  given(cat, RS_ADDED).when(remote()).throws(t, { code: 'already-exists', message: 'remote schema with name "rs" already exists' });
  given(cat).when(remote({})).throws(t, { code: 'invalid-params', message: "both `url` and `url_from_env` can't be empty" });
  given(cat).when(remote({ url: 'http://a', url_from_env: 'U' })).throws(t, { code: 'invalid-params', message: "both `url` and `url_from_env` can't be present" });
  given(cat).when(remote(undefined, { name: '' })).throws(t, { code: 'parse-failed', message: 'empty string not allowed', path: '$.name' });
});

test('remove_remote_schema and reload_remote_schema', (t) => {
  given(cat, RS_ADDED).when({ type: 'remove_remote_schema', args: { name: 'rs' } }).then(t, [ev('remote_schema_removed', { name: 'rs' })]);
  given(cat).when({ type: 'remove_remote_schema', args: { name: 'rs' } }).throws(t, { code: 'not-exists', message: 'no such remote schema' });
  // A line of the metadata log (other instances introspect the remote again when they fold it); no change to the metadata.
  const reloaded = ev('remote_schema_reloaded', { name: 'rs' });
  given(cat, RS_ADDED).when({ type: 'reload_remote_schema', args: { name: 'rs' } }).then(t, [reloaded]);
  const before = fold(emptyMetadata(), [RS_ADDED]);
  t.deepEqual(fold(before, [reloaded]), before);
  given(cat).when({ type: 'reload_remote_schema', args: { name: 'rs' } }).throws(t, { code: 'not-exists', message: 'remote schema with name "rs" does not exist' });
  t.deepEqual(fold(emptyMetadata(), [RS_ADDED, ev('remote_schema_removed', { name: 'rs' })]).remote_schemas, []);
});

test('remove_remote_schema: remote relationships using it are dependents', (t) => {
  const withRel = structuredClone(fold(emptyMetadata(), [AUTHOR_TRACKED, RS_ADDED]));
  withRel.tables['public.author'].remote_relationships = [{ name: 'greeting', definition: { remote_schema: 'rs', engine_fields: ['id'], remote_field: { hello: { arguments: {} } } } }];
  given(cat, AUTHOR_TRACKED, RS_ADDED, ev('metadata_replaced', { metadata: withRel }))
    .when({ type: 'remove_remote_schema', args: { name: 'rs' } })
    .throws(t, { code: 'dependency-error', message: 'cannot drop due to the following dependent objects : remote relationship author.greeting' });
});
