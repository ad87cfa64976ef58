// Small shared pieces: links that route in-page, error boxes, a confirmation dialog, a JSON block, a results table,
// an event's invocation logs.
import { useState, type ReactNode, type MouseEvent } from 'react';
import { navigate } from './router';
import { errorText } from './api';

export function Link({ to, children, className }: { to: string; children: ReactNode; className?: string }) {
  const go = (e: MouseEvent) => {
    if (e.metaKey || e.ctrlKey || e.button !== 0) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={go} className={className}>{children}</a>;
}

export function ErrorBox({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  return <div className="error" role="alert">{errorText(error)}</div>;
}

export function Json({ value }: { value: unknown }) {
  return <pre className="json">{JSON.stringify(value, null, 2)}</pre>;
}

export function Confirm({ title, children, onConfirm, onCancel, confirmLabel = 'Confirm' }: {
  title: string; children: ReactNode; onConfirm: () => void; onCancel: () => void; confirmLabel?: string;
}) {
  return (
    <div className="modal-backdrop">
      <div className="modal" role="dialog" aria-label={title}>
        <h3>{title}</h3>
        <div>{children}</div>
        <div className="actions">
          <button onClick={onCancel}>Cancel</button>
          <button className="danger" onClick={onConfirm}>{confirmLabel}</button>
        </div>
      </div>
    </div>
  );
}

/** run_sql's TuplesOk result (first row: column names) as a table. */
export function ResultTable({ rows }: { rows: string[][] }) {
  const [head, ...body] = rows;
  return (
    <table className="grid">
      <thead><tr>{head.map((h, i) => <th key={i}>{h}</th>)}</tr></thead>
      <tbody>{body.map((r, i) => <tr key={i}>{r.map((c, j) => <td key={j}>{c}</td>)}</tr>)}</tbody>
    </table>
  );
}

/** Runs an async action, keeping its error and a busy flag for the button that started it. */
export function useAction(): [(f: () => Promise<void>) => Promise<void>, boolean, unknown, (e: unknown) => void] {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (f: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await f();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return [run, busy, error, setError];
}

/** An invocation log row of event_invocation_logs or the scheduled events' logs. */
export interface Invocation { id: string; status: number | null; request: unknown; response: unknown; created_at: string }

/** The invocation logs of the event opened (null while they are read), newest first, each with request and response. */
export function InvocationLogs({ eventId, logs, onClose }: { eventId: string; logs: Invocation[] | null; onClose: () => void }) {
  return (
    <div className="card" aria-label="Invocation logs">
      <div className="title-row"><h4>Invocations of {eventId}</h4><button className="link" onClick={onClose}>Close</button></div>
      {logs?.length === 0 && <p className="hint">No invocations yet.</p>}
      {logs?.map((l) => (
        <details key={l.id}>
          <summary>{new Date(l.created_at).toLocaleString()} · status <b>{l.status ?? '–'}</b></summary>
          <div className="sides"><div><h5>request</h5><Json value={l.request} /></div><div><h5>response</h5><Json value={l.response} /></div></div>
        </details>
      ))}
    </div>
  );
}
