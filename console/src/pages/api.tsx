// API: GraphiQL (docs from introspection, query history) with a headers panel to try a role: the admin secret is
// sent unless unticked, plus X-Engine-Role and any session variables. Changing the headers re-introspects, so the
// docs show the role's own schema.
import { useMemo, useState } from 'react';
import { GraphiQL } from 'graphiql';
import type { Fetcher } from '@graphiql/toolkit';
import 'graphiql/style.css';
import { adminSecret } from '../api';

interface Row { key: string; value: string; on: boolean }

const STORE = 'engine-console-headers';
const initialRows = (): Row[] => {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORE) ?? 'null') as Row[] | null;
    if (Array.isArray(saved)) return saved;
  } catch { /* none */ }
  return [{ key: 'x-engine-role', value: '', on: false }];
};

export function ApiPage() {
  const [sendSecret, setSendSecret] = useState(true);
  const [rows, setRows] = useState<Row[]>(initialRows);
  const update = (next: Row[]) => {
    setRows(next);
    sessionStorage.setItem(STORE, JSON.stringify(next));
  };
  const headers = useMemo(() => {
    const h: Record<string, string> = {};
    const secret = adminSecret.get();
    if (secret && sendSecret) h['x-engine-admin-secret'] = secret;
    for (const r of rows) if (r.on && r.key.trim()) h[r.key.trim().toLowerCase()] = r.value;
    return h;
  }, [rows, sendSecret]);
  const fetcher = useMemo<Fetcher>(() => {
    const h = { ...headers };
    return async (params, opts) => {
      const res = await fetch('/v1/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...h, ...(opts?.headers ?? {}) },
        body: JSON.stringify(params),
      });
      return res.json();
    };
  }, [JSON.stringify(headers)]);

  return (
    <div className="api-page">
      <section className="headers-panel" aria-label="Request headers">
        <h4>Request headers</h4>
        {adminSecret.get() && (
          <label className="row"><input type="checkbox" checked={sendSecret} onChange={(e) => setSendSecret(e.target.checked)} /> x-engine-admin-secret <code>••••••</code></label>
        )}
        {rows.map((r, i) => (
          <div className="row" key={i}>
            <input type="checkbox" aria-label={`send header ${i + 1}`} checked={r.on} onChange={(e) => update(rows.map((x, j) => (j === i ? { ...x, on: e.target.checked } : x)))} />
            <input aria-label={`header name ${i + 1}`} placeholder="header" value={r.key} onChange={(e) => update(rows.map((x, j) => (j === i ? { ...x, key: e.target.value } : x)))} />
            <input aria-label={`header value ${i + 1}`} placeholder="value" value={r.value}
              onChange={(e) => update(rows.map((x, j) => (j === i ? { ...x, value: e.target.value, on: x.on || e.target.value !== '' } : x)))} />
            <button className="link" aria-label={`remove header ${i + 1}`} onClick={() => update(rows.filter((_, j) => j !== i))}>✕</button>
          </div>
        ))}
        <button onClick={() => update([...rows, { key: 'x-engine-', value: '', on: false }])}>Add header</button>
        <p className="hint">Set <code>x-engine-role</code> and session variables such as <code>x-engine-user-id</code> to run as a role: the admin secret, sent along, lets the admin act as any role. Untick it to see what a request without credentials gets.</p>
      </section>
      <div className="graphiql-wrap">
        <GraphiQL key={JSON.stringify(headers)} fetcher={fetcher} shouldPersistHeaders={false} defaultQuery={'# Write a query, e.g.\n# { author { id name } }\n'} />
      </div>
    </div>
  );
}
