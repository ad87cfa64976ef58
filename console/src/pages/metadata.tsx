// Metadata: export (download), import (replace_metadata from a file), reload, and the inconsistent objects with
// a button to drop them.
import { useEffect, useState } from 'react';
import { query } from '../api';
import type { PageProps } from '../router';
import { ErrorBox, Json, useAction } from '../ui';

interface Inconsistent { is_consistent: boolean; inconsistent_objects: Array<{ type: string; reason: string; definition: unknown }> }

export function MetadataPage(_: PageProps) {
  const [run, busy, error] = useAction();
  const [status, setStatus] = useState<string | null>(null);
  const [inc, setInc] = useState<Inconsistent | null>(null);
  const loadInc = () => run(async () => setInc(await query<Inconsistent>({ type: 'get_inconsistent_metadata', args: {} })));
  useEffect(() => void loadInc(), []);
  const done = async (message: string) => { setStatus(message); setInc(await query<Inconsistent>({ type: 'get_inconsistent_metadata', args: {} })); };

  const download = () => run(async () => {
    const m = await query({ type: 'export_metadata', args: {} });
    const url = URL.createObjectURL(new Blob([JSON.stringify(m, null, 2)], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'metadata.json';
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    setStatus('Metadata exported');
  });
  const importFile = (file: File) => run(async () => {
    const doc = JSON.parse(await file.text());
    await query({ type: 'replace_metadata', args: doc });
    await done(`Imported ${file.name}`);
  });
  return (
    <div className="content narrow">
      <h2>Metadata</h2>
      <ErrorBox error={error} />
      {status && <div className="ok" role="status">{status}</div>}
      <div className="card">
        <h4>Export and import</h4>
        <div className="toolbar">
          <button disabled={busy} onClick={download}>Export metadata</button>
          <label className="button">Import metadata <input type="file" accept="application/json,.json" hidden onChange={(e) => e.target.files?.[0] && importFile(e.target.files[0])} /></label>
          <button disabled={busy} onClick={() => run(async () => { await query({ type: 'reload_metadata', args: {} }); await done('Metadata reloaded'); })}>Reload metadata</button>
        </div>
        <p className="hint">Import replaces the whole metadata (replace_metadata); it becomes one entry of the History, which can revert it.</p>
      </div>
      <div className="card">
        <h4>Inconsistent objects</h4>
        {inc?.is_consistent && <p>The metadata is consistent.</p>}
        {inc && !inc.is_consistent && (
          <>
            <table className="grid"><thead><tr><th>type</th><th>reason</th><th>definition</th></tr></thead>
              <tbody>{inc.inconsistent_objects.map((o, i) => <tr key={i}><td>{o.type}</td><td>{o.reason}</td><td><Json value={o.definition} /></td></tr>)}</tbody>
            </table>
            <button className="danger" disabled={busy} onClick={() => run(async () => { await query({ type: 'drop_inconsistent_metadata', args: {} }); await done('Inconsistent objects dropped'); })}>Drop inconsistent objects</button>
          </>
        )}
      </div>
    </div>
  );
}
