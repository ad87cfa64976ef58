// The scheduled-trigger tables of engine_catalog as tables the admin can read with the v1 `select`/`count`
// operations, as users of the original read hdb_catalog.hdb_cron_events (run_sql reads them too). Not tracked
// metadata: the v1 DML looks them up here when a name is neither a tracked table nor an event-trigger table.
import type { QualifiedName } from '../core/names.js';
import type { TableInfo } from '../cache/types.js';
import { bool, tableInfo, text, ts, type Col } from '../triggers/system-tables.js';

const json = (name: string, nullable = true): Col => [name, 'json', 'json', nullable];
const int = (name: string, nullable = false): Col => [name, 'int4', 'integer', nullable];
const lease = [ts('locked_at', true), text('locked_by', true)];
const invocationLog = { pk: 'id', columns: [text('id'), text('event_id', true), int('status', true), json('request'), json('response'), ts('created_at', true)] };

const DEFINITIONS: Record<string, { columns: Col[]; pk: string }> = {
  hdb_cron_triggers: {
    pk: 'name',
    columns: [
      text('name'), json('webhook_conf', false), text('cron_schedule'), json('payload'), json('retry_conf'),
      json('header_conf'), bool('include_in_metadata'), text('comment', true),
    ],
  },
  hdb_cron_events: {
    pk: 'id',
    columns: [text('id'), text('trigger_name'), ts('scheduled_time'), text('status'), int('tries'), ts('created_at', true), ts('next_retry_at', true), ...lease],
  },
  hdb_cron_event_invocation_logs: invocationLog,
  hdb_scheduled_events: {
    pk: 'id',
    columns: [
      text('id'), json('webhook_conf', false), ts('scheduled_time'), json('retry_conf'), json('payload'), json('header_conf'),
      text('status'), int('tries'), ts('created_at', true), ts('next_retry_at', true), text('comment', true), ...lease,
    ],
  },
  hdb_scheduled_event_invocation_logs: invocationLog,
};

const TABLES = new Map(Object.entries(DEFINITIONS).map(([n, d]) => [n, tableInfo({ schema: 'engine_catalog', name: n }, d)]));

/** engine_catalog.hdb_cron_triggers / hdb_cron_events / ... ; undefined for any other name. */
export const scheduledSystemTable = (name: QualifiedName): TableInfo | undefined =>
  name.schema === 'engine_catalog' ? TABLES.get(name.name) : undefined;
