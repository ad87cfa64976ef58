// Scheduled: cron triggers (create, edit with replace, delete; their upcoming, delivered and failed events with each
// event's invocation logs) and one-off scheduled events (create, list, logs). Definitions and events are read from
// engine_catalog.hdb_cron_triggers / hdb_cron_events / hdb_scheduled_events and their invocation logs with the v1
// `select` (as users of the original read hdb_catalog); changes go through create_cron_trigger,
// delete_cron_trigger and create_scheduled_event.
import { useEffect, useRef, useState } from 'react';
import { query } from '../api';
import type { PageProps } from '../router';
import { href, navigate } from '../router';
import { Confirm, ErrorBox, InvocationLogs, Json, Link, useAction, type Invocation } from '../ui';

interface CronRow {
  name: string; webhook_conf: string; cron_schedule: string; payload: unknown; retry_conf: Record<string, number>;
  header_conf: unknown[]; include_in_metadata: boolean; comment: string | null;
}
interface EventRow { id: string; scheduled_time: string; status: string; tries: number; next_retry_at: string | null; comment?: string | null }

const catalogTable = (name: string) => ({ schema: 'engine_catalog', name });
const TABS = {
  upcoming: { where: { status: { $in: ['scheduled', 'locked'] } }, order: '+scheduled_time' },
  delivered: { where: { status: 'delivered' }, order: '-scheduled_time' },
  failed: { where: { status: { $in: ['error', 'dead'] } }, order: '-scheduled_time' },
} as const;
type Tab = keyof typeof TABS;

export function ScheduledPage({ route }: PageProps) {
  const [crons, setCrons] = useState<CronRow[] | null>(null);
  const [run, , error] = useAction();
  const reload = () => run(async () => setCrons(await query<CronRow[]>({ type: 'select', args: { table: catalogTable('hdb_cron_triggers'), columns: ['*'], order_by: ['+name'] } })));
  useEffect(() => void reload(), []);
  const [section, name] = route.rest;
  const current = section === 'cron' ? crons?.find((c) => c.name === name) : undefined;
  return (
    <div className="with-sidebar">
      <aside>
        <h5>Cron triggers</h5>
        {(crons ?? []).map((c) => (
          <Link key={c.name} to={href('scheduled', 'cron', c.name)} className={current?.name === c.name ? 'active' : ''}>{c.name}</Link>
        ))}
        {crons && crons.length === 0 && <p className="hint">No cron triggers yet.</p>}
        <Link to={href('scheduled', 'new')} className={section === 'new' ? 'active' : ''}>+ New cron trigger</Link>
        <h5>One-off events</h5>
        <Link to={href('scheduled', 'one-off')} className={section === 'one-off' ? 'active' : ''}>Scheduled events</Link>
      </aside>
      <section className="content">
        <ErrorBox error={error} />
        {section === 'new' && <CronForm onSaved={(n) => { void reload(); navigate(href('scheduled', 'cron', n)); }} />}
        {current && <CronTrigger key={current.name} trigger={current} onChanged={reload} />}
        {section === 'one-off' && <OneOffEvents />}
        {section === undefined && <p className="hint">Cron triggers call a webhook on a schedule; one-off events call one once, at a given time.</p>}
      </section>
    </div>
  );
}

/** create_cron_trigger's form; with `trigger` it edits that one (replace: true). */
function CronForm({ trigger, onSaved }: { trigger?: CronRow; onSaved: (name: string) => void }) {
  const rc = trigger?.retry_conf ?? {};
  const [f, setF] = useState({
    name: trigger?.name ?? '', webhook: trigger?.webhook_conf ?? '', schedule: trigger?.cron_schedule ?? '* * * * *',
    payload: trigger?.payload == null ? '' : JSON.stringify(trigger.payload), headers: JSON.stringify(trigger?.header_conf ?? []),
    num_retries: String(rc.num_retries ?? 0), retry_interval_seconds: String(rc.retry_interval_seconds ?? 10),
    timeout_seconds: String(rc.timeout_seconds ?? 60), tolerance_seconds: String(rc.tolerance_seconds ?? 21600),
    include_in_metadata: trigger?.include_in_metadata ?? true, comment: trigger?.comment ?? '',
  });
  const [run, busy, error, setError] = useAction();
  const field = (k: keyof typeof f, label: string, type = 'text') => (
    <label>{label}<input aria-label={label} type={type} value={String(f[k])} onChange={(e) => setF({ ...f, [k]: e.target.value })} /></label>
  );
  const save = () => run(async () => {
    let payload: unknown;
    let headers: unknown;
    try {
      payload = f.payload.trim() === '' ? undefined : JSON.parse(f.payload);
      headers = JSON.parse(f.headers || '[]');
    } catch (e) {
      setError(new Error(`payload and headers must be JSON: ${(e as Error).message}`));
      return;
    }
    await query({
      type: 'create_cron_trigger',
      args: {
        name: f.name, webhook: f.webhook, schedule: f.schedule, payload, headers, include_in_metadata: f.include_in_metadata,
        comment: f.comment === '' ? null : f.comment, replace: trigger !== undefined,
        retry_conf: {
          num_retries: Number(f.num_retries), retry_interval_seconds: Number(f.retry_interval_seconds),
          timeout_seconds: Number(f.timeout_seconds), tolerance_seconds: Number(f.tolerance_seconds),
        },
      },
    });
    onSaved(f.name);
  });
  return (
    <div className="row-form" aria-label={trigger ? 'Edit cron trigger' : 'New cron trigger'}>
      <h4>{trigger ? `Edit ${trigger.name}` : 'New cron trigger'}</h4>
      {!trigger && field('name', 'Name')}
      {field('webhook', 'Webhook')}
      {field('schedule', 'Schedule')}
      {field('payload', 'Payload (JSON)')}
      {field('headers', 'Headers (JSON)')}
      {field('num_retries', 'Retries', 'number')}
      {field('retry_interval_seconds', 'Retry interval (s)', 'number')}
      {field('timeout_seconds', 'Timeout (s)', 'number')}
      {field('tolerance_seconds', 'Tolerance (s)', 'number')}
      {field('comment', 'Comment')}
      <label><span><input type="checkbox" checked={f.include_in_metadata} onChange={(e) => setF({ ...f, include_in_metadata: e.target.checked })} /> Include in metadata</span></label>
      <div className="actions"><ErrorBox error={error} /><button disabled={busy} onClick={save}>{trigger ? 'Save' : 'Create'}</button></div>
    </div>
  );
}

function CronTrigger({ trigger, onChanged }: { trigger: CronRow; onChanged: () => Promise<void> }) {
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [run, , error] = useAction();
  return (
    <div>
      <div className="title-row">
        <h2>{trigger.name} <span className="hint">{trigger.cron_schedule}</span></h2>
        <button onClick={() => setEditing(!editing)}>{editing ? 'Close editor' : 'Edit'}</button>
        <button className="danger" onClick={() => setConfirmDelete(true)}>Delete trigger</button>
      </div>
      <ErrorBox error={error} />
      {editing && <CronForm trigger={trigger} onSaved={() => { setEditing(false); void onChanged(); }} />}
      <details><summary>Definition</summary><Json value={trigger} /></details>
      <Events table="hdb_cron_events" logs="hdb_cron_event_invocation_logs" where={{ trigger_name: trigger.name }} />
      {confirmDelete && (
        <Confirm title="Delete cron trigger" confirmLabel="Delete" onCancel={() => setConfirmDelete(false)}
          onConfirm={() => run(async () => {
            setConfirmDelete(false);
            await query({ type: 'delete_cron_trigger', args: { name: trigger.name } });
            navigate(href('scheduled'));
            await onChanged();
          })}>
          Delete cron trigger {trigger.name}? Its events and their logs go with it.
        </Confirm>
      )}
    </div>
  );
}

function OneOffEvents() {
  const [f, setF] = useState({ webhook: '', schedule_at: new Date(Date.now() + 60_000).toISOString(), payload: '', comment: '', num_retries: '0' });
  const [run, busy, error, setError] = useAction();
  const [status, setStatus] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const create = () => run(async () => {
    let payload: unknown;
    try {
      payload = f.payload.trim() === '' ? undefined : JSON.parse(f.payload);
    } catch (e) {
      setError(new Error(`payload must be JSON: ${(e as Error).message}`));
      return;
    }
    const r = await query<{ event_id: string }>({
      type: 'create_scheduled_event',
      args: { webhook: f.webhook, schedule_at: f.schedule_at, payload, comment: f.comment === '' ? null : f.comment, retry_conf: { num_retries: Number(f.num_retries) } },
    });
    setStatus(`Scheduled event ${r.event_id}`);
    setVersion((v) => v + 1);
  });
  const field = (k: keyof typeof f, label: string) => (
    <label>{label}<input aria-label={label} value={f[k]} onChange={(e) => setF({ ...f, [k]: e.target.value })} /></label>
  );
  return (
    <div>
      <h2>One-off scheduled events</h2>
      <div className="row-form" aria-label="New scheduled event">
        <h4>New scheduled event</h4>
        {field('webhook', 'Webhook')}
        {field('schedule_at', 'Schedule at (ISO 8601)')}
        {field('payload', 'Payload (JSON)')}
        {field('comment', 'Comment')}
        {field('num_retries', 'Retries')}
        <div className="actions"><ErrorBox error={error} /><button disabled={busy} onClick={create}>Schedule</button></div>
      </div>
      {status && <div className="ok" role="status">{status}</div>}
      <Events key={version} table="hdb_scheduled_events" logs="hdb_scheduled_event_invocation_logs" where={{}} />
    </div>
  );
}

/** An events table by tab (upcoming / delivered / failed) and the invocation logs of the event opened. */
function Events({ table, logs: logTable, where }: { table: string; logs: string; where: Record<string, unknown> }) {
  const [tab, setTab] = useState<Tab>('upcoming');
  const [events, setEvents] = useState<EventRow[] | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [logs, setLogs] = useState<Invocation[] | null>(null);
  const [run, , error] = useAction();
  // Only the latest read may show (a late answer for another tab is dropped), as on the Events page.
  const latest = useRef(0);
  const load = (which: Tab) => run(async () => {
    const n = ++latest.current;
    const columns = ['id', 'scheduled_time', 'status', 'tries', 'next_retry_at', ...(table === 'hdb_scheduled_events' ? ['comment'] : [])];
    const rows = await query<EventRow[]>({
      type: 'select',
      args: { table: catalogTable(table), columns, where: { ...where, ...TABS[which].where }, order_by: [TABS[which].order], limit: 50 },
    });
    if (n === latest.current) setEvents(rows);
  });
  useEffect(() => void load(tab), [tab]);
  const opened = useRef<string | null>(null);
  const showLogs = (id: string) => run(async () => {
    opened.current = id;
    setOpen(id);
    setLogs(null);
    const rows = await query<Invocation[]>({ type: 'select', args: { table: catalogTable(logTable), columns: ['*'], where: { event_id: id }, order_by: ['-created_at'] } });
    if (opened.current === id) setLogs(rows);
  });
  return (
    <div>
      <ErrorBox error={error} />
      <div className="toolbar" role="tablist">
        {(Object.keys(TABS) as Tab[]).map((k) => (
          <button key={k} role="tab" aria-selected={tab === k} className={tab === k ? 'cell active' : 'cell'} onClick={() => { if (k !== tab) { setEvents(null); setTab(k); } }}>{k}</button>
        ))}
        <button className="link" onClick={() => load(tab)}>Refresh</button>
      </div>
      {events && events.length === 0 && <p className="hint">No {tab} events.</p>}
      {events && events.length > 0 && (
        <table className="grid" aria-label="Scheduled events">
          <thead><tr><th>event</th><th>scheduled for</th><th>tries</th><th>status</th><th /></tr></thead>
          <tbody>
            {events.map((ev) => (
              <tr key={ev.id}>
                <td><code>{ev.id}</code>{ev.comment ? <span className="hint"> {ev.comment}</span> : null}</td>
                <td className="hint">{new Date(ev.scheduled_time).toLocaleString()}</td>
                <td>{ev.tries}</td>
                <td>{ev.status === 'scheduled' && ev.next_retry_at ? `retry at ${new Date(ev.next_retry_at).toLocaleTimeString()}` : ev.status}</td>
                <td className="row-actions"><button className="link" onClick={() => showLogs(ev.id)}>Invocations</button></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {open && <InvocationLogs eventId={open} logs={logs} onClose={() => setOpen(null)} />}
    </div>
  );
}
