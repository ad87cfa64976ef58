// Events: the event triggers (from export_metadata) and, per trigger, its pending / delivered / failed events and
// each event's invocation logs, read from engine_catalog.event_log and event_invocation_logs with the v1 `select`
// (as users of the original read hdb_catalog.event_log); redeliver an event, invoke a manual trigger, delete one.
import { useEffect, useRef, useState } from 'react';
import { query } from '../api';
import { exportMetadata, qkey, type MetadataDoc, type QName } from '../model';
import { href, type PageProps } from '../router';
import { Confirm, ErrorBox, InvocationLogs, Json, Link, useAction, type Invocation } from '../ui';

interface EventRow { id: string; delivered: boolean; error: boolean; tries: number; created_at: string; next_retry_at: string | null; payload: unknown }

const TABS = { pending: { delivered: false, error: false }, delivered: { delivered: true }, failed: { error: true } } as const;
type Tab = keyof typeof TABS;

const catalogTable = (name: string) => ({ schema: 'engine_catalog', name });

export function EventsPage({ route }: PageProps) {
  const [m, setM] = useState<MetadataDoc | null>(null);
  const [run, , error] = useAction();
  useEffect(() => void run(async () => setM(await exportMetadata())), []);
  const triggers = (m?.tables ?? []).flatMap((t) => (t.event_triggers ?? []).map((tr) => ({ table: t.table, trigger: tr })));
  const current = triggers.find((x) => x.trigger.name === route.rest[0]) ?? triggers[0];
  return (
    <div className="with-sidebar">
      <aside>
        <h5>Event triggers</h5>
        {triggers.map(({ trigger }) => (
          <Link key={trigger.name} to={href('events', trigger.name)} className={current?.trigger.name === trigger.name ? 'active' : ''}>{trigger.name}</Link>
        ))}
        {m && triggers.length === 0 && <p className="hint">No event triggers yet (create_event_trigger).</p>}
      </aside>
      <section className="content">
        <ErrorBox error={error} />
        {current && <Trigger key={current.trigger.name} table={current.table} trigger={current.trigger} onDeleted={() => run(async () => setM(await exportMetadata()))} />}
      </section>
    </div>
  );
}

function Trigger({ table, trigger, onDeleted }: { table: QName; trigger: Record<string, any>; onDeleted: () => void }) {
  const [tab, setTab] = useState<Tab>('pending');
  const [events, setEvents] = useState<EventRow[] | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [logs, setLogs] = useState<Invocation[] | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [run, busy, error] = useAction();
  // Only the latest read may show: an earlier one (another tab's, or an earlier Refresh) that answers late would
  // otherwise put its rows under the tab now selected.
  const latest = useRef(0);
  // The tab a read is for is the one shown when it starts: a reload after a redeliver or an invoke runs from that
  // click's closure, and another tab may have been chosen while its request was in flight.
  const shown = useRef(tab);
  shown.current = tab;
  const load = () => run(async () => {
    const n = ++latest.current;
    const tab = shown.current;
    const rows = await query<EventRow[]>({
      type: 'select',
      args: { table: catalogTable('event_log'), columns: ['id', 'delivered', 'error', 'tries', 'created_at', 'next_retry_at', 'payload'], where: { trigger_name: trigger.name, ...TABS[tab] }, order_by: ['-created_at'], limit: 50 },
    });
    if (n === latest.current) setEvents(rows);
  });
  useEffect(() => void load(), [tab]);
  // A new tab shows no rows until its own read answers (never the previous tab's rows under the new name).
  const selectTab = (k: Tab) => {
    if (k === tab) return;
    setEvents(null);
    setTab(k);
  };
  // Likewise the invocation logs shown are those of the event opened last, never a late answer for an earlier one.
  const opened = useRef<string | null>(null);
  const showLogs = (id: string) => run(async () => {
    opened.current = id;
    setOpen(id);
    setLogs(null);
    const logs = await query<Invocation[]>({ type: 'select', args: { table: catalogTable('event_invocation_logs'), columns: ['*'], where: { event_id: id }, order_by: ['-created_at'] } });
    if (opened.current === id) setLogs(logs);
  });
  const manual = !!trigger.definition?.enable_manual;
  return (
    <div>
      <div className="title-row">
        <h2>{trigger.name} <span className="hint">on {qkey(table)}</span></h2>
        {manual && <button disabled={busy} onClick={() => run(async () => { const r = await query<{ event_id: string }>({ type: 'invoke_event_trigger', args: { name: trigger.name, payload: {} } }); setStatus(`Invoked: event ${r.event_id}`); await load(); })}>Invoke</button>}
        <button className="danger" onClick={() => setConfirmDelete(true)}>Delete trigger</button>
      </div>
      <ErrorBox error={error} />
      {status && <div className="ok" role="status">{status}</div>}
      <details><summary>Definition</summary><Json value={trigger} /></details>
      <div className="toolbar" role="tablist">
        {(Object.keys(TABS) as Tab[]).map((k) => <button key={k} role="tab" aria-selected={tab === k} className={tab === k ? 'cell active' : 'cell'} onClick={() => selectTab(k)}>{k}</button>)}
        <button className="link" onClick={load}>Refresh</button>
      </div>
      {events && events.length === 0 && <p className="hint">No {tab} events.</p>}
      {events && events.length > 0 && (
        <table className="grid" aria-label="Events">
          <thead><tr><th>event</th><th>created</th><th>tries</th><th>state</th><th /></tr></thead>
          <tbody>
            {events.map((ev) => (
              <tr key={ev.id}>
                <td><code>{ev.id}</code></td>
                <td className="hint">{new Date(ev.created_at).toLocaleString()}</td>
                <td>{ev.tries}</td>
                <td>{ev.delivered ? 'delivered' : ev.error ? 'failed' : ev.next_retry_at ? `retry at ${new Date(ev.next_retry_at).toLocaleTimeString()}` : 'pending'}</td>
                <td className="row-actions">
                  <button className="link" onClick={() => showLogs(ev.id)}>Invocations</button>
                  <button className="link" disabled={busy} onClick={() => run(async () => { await query({ type: 'redeliver_event', args: { event_id: ev.id } }); setStatus(`Redelivering ${ev.id}`); await load(); })}>Redeliver</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {open && <InvocationLogs eventId={open} logs={logs} onClose={() => setOpen(null)} />}
      {confirmDelete && (
        <Confirm title="Delete event trigger" confirmLabel="Delete" onCancel={() => setConfirmDelete(false)}
          onConfirm={() => run(async () => { setConfirmDelete(false); await query({ type: 'delete_event_trigger', args: { name: trigger.name } }); onDeleted(); })}>
          Delete event trigger {trigger.name}? Its pending events are not delivered any more.
        </Confirm>
      )}
    </div>
  );
}
