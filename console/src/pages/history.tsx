// History: the timeline of metadata changes (engine_history_list), a diff between any two versions
// (engine_history_diff) and revert-to-version after a confirmation (replace_metadata with engine_history_export at
// N: the revert is itself a new entry and can be reverted).
import { useEffect, useState } from 'react';
import { query } from '../api';
import type { PageProps } from '../router';
import { Confirm, ErrorBox, Json, useAction } from '../ui';

interface Migration { version: string; name: string; direction: 'up' | 'down'; file: string | null; skip_execution: boolean }
interface Entry { seq: number; time: string; type: string; operation: string | null; request_id: string | null; role: string | null; summary: string; migration?: Migration | null }
interface Page { head: number; offset: number; limit: number; entries: Entry[] }
interface Change { kind: 'added' | 'removed' | 'changed'; path: string; before?: unknown; after?: unknown }
interface Diff { from: number; to: number; changes: Change[] }

const LIMIT = 25;

export function HistoryPage(_: PageProps) {
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<Page | null>(null);
  const [from, setFrom] = useState<number | null>(null);
  const [to, setTo] = useState<number | null>(null);
  const [diff, setDiff] = useState<Diff | null>(null);
  const [revert, setRevert] = useState<Entry | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [run, busy, error] = useAction();
  const load = () => run(async () => setPage(await query<Page>({ type: 'engine_history_list', args: { offset, limit: LIMIT } })));
  useEffect(() => void load(), [offset]);

  const showDiff = (a: number, b: number) => run(async () => {
    setDiff(await query<Diff>({ type: 'engine_history_diff', args: { from: Math.min(a, b), to: Math.max(a, b) } }));
  });
  const doRevert = (e: Entry) => run(async () => {
    setRevert(null);
    const doc = await query({ type: 'engine_history_export', args: { version: e.seq } });
    await query({ type: 'replace_metadata', args: doc });
    setStatus(`Reverted to version ${e.seq}`);
    setDiff(null);
    setOffset(0);
    setPage(await query<Page>({ type: 'engine_history_list', args: { offset: 0, limit: LIMIT } }));
  });

  return (
    <div className="content">
      <h2>History</h2>
      <p className="hint">Every metadata change is a version; a schema migration applied from a project folder shows its migration version beside it. Pick two versions to compare them, or revert to one: a revert replaces the metadata with that version's and is itself a new version.</p>
      <ErrorBox error={error} />
      {status && <div className="ok" role="status">{status}</div>}
      <div className="toolbar">
        <span>Compare <b>{from ?? '–'}</b> with <b>{to ?? '–'}</b></span>
        <button disabled={from === null || to === null || busy} onClick={() => showDiff(from!, to!)}>Show diff</button>
      </div>
      {diff && <DiffView diff={diff} />}
      {page && (
        <>
          <table className="grid history" aria-label="History">
            <thead><tr><th>version</th><th>migration</th><th>time</th><th>role</th><th>change</th><th>from</th><th>to</th><th /></tr></thead>
            <tbody>
              {page.entries.map((e) => (
                <tr key={e.seq} data-seq={e.seq}>
                  <td>{e.seq}</td>
                  <td>{e.migration ? <span title={e.migration.file ?? undefined}><code>{e.migration.version}</code> {e.migration.name} <span className="hint">{e.migration.direction}</span></span> : <span className="hint">–</span>}</td>
                  <td className="hint">{new Date(e.time).toLocaleString()}</td>
                  <td>{e.role ?? '–'}</td>
                  <td>{e.summary} {e.operation && e.operation !== e.type && <span className="hint">({e.operation})</span>}</td>
                  <td><input type="radio" name="from" aria-label={`diff from ${e.seq}`} checked={from === e.seq} onChange={() => setFrom(e.seq)} /></td>
                  <td><input type="radio" name="to" aria-label={`diff to ${e.seq}`} checked={to === e.seq} onChange={() => setTo(e.seq)} /></td>
                  <td className="row-actions">
                    <button className="link" onClick={() => showDiff(e.seq - 1, e.seq)}>Changes</button>
                    {e.seq !== page.head && <button className="link danger" onClick={() => setRevert(e)}>Revert to this version</button>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="pager">
            <button disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - LIMIT))}>Newer</button>
            <span>{page.head} versions</span>
            <button disabled={offset + LIMIT >= page.head} onClick={() => setOffset(offset + LIMIT)}>Older</button>
          </div>
        </>
      )}
      {revert && (
        <Confirm title="Revert metadata" confirmLabel={`Revert to version ${revert.seq}`} onCancel={() => setRevert(null)} onConfirm={() => doRevert(revert)}>
          <p>Replace the current metadata (version {page?.head}) with the metadata as it was at version {revert.seq} ({revert.summary})?</p>
          <p className="hint">Tables, relationships, permissions and the rest go back to that version; the database's tables and rows are not changed.</p>
        </Confirm>
      )}
    </div>
  );
}

function DiffView({ diff }: { diff: Diff }) {
  return (
    <div className="card diff" aria-label="Diff">
      <h4>Version {diff.from} → {diff.to}: {diff.changes.length === 0 ? 'no metadata changes' : `${diff.changes.length} change${diff.changes.length === 1 ? '' : 's'}`}</h4>
      {diff.changes.map((c, i) => (
        <details key={i} open={diff.changes.length <= 5}>
          <summary className={c.kind}><span className="sign">{c.kind === 'added' ? '+' : c.kind === 'removed' ? '−' : '~'}</span> <code>{c.path}</code> <span className="hint">{c.kind}</span></summary>
          <div className="sides">
            {c.before !== undefined && <div><h5>before</h5><Json value={c.before} /></div>}
            {c.after !== undefined && <div><h5>after</h5><Json value={c.after} /></div>}
          </div>
        </details>
      ))}
    </div>
  );
}
