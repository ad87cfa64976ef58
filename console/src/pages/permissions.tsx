// Permissions: per tracked table, a roles × (insert, select, update, delete) matrix; a cell opens the rule editor
// (filter / check as JSON, columns as checkboxes, presets, limit, aggregations, backend_only). The API's
// validation errors are shown inline, with their path, as it returns them.
import { useEffect, useState } from 'react';
import { ApiError, errorText, query } from '../api';
import { exportMetadata, findTable, loadCatalog, PERM_KINDS, qkey, rolesOf, sameQ, type MetadataDoc, type PermKind, type PgCatalog, type QName } from '../model';
import { href, type PageProps } from '../router';
import { ErrorBox, Link, useAction } from '../ui';

export function PermissionsPage({ route }: PageProps) {
  const [metadata, setMetadata] = useState<MetadataDoc | null>(null);
  const [catalog, setCatalog] = useState<PgCatalog | null>(null);
  const [error, setError] = useState<unknown>(null);
  const reload = async () => {
    try {
      const [m, c] = await Promise.all([exportMetadata(), loadCatalog()]);
      setMetadata(m);
      setCatalog(c);
    } catch (e) {
      setError(e);
    }
  };
  useEffect(() => void reload(), []);
  const [schema, name] = route.rest;
  const current = schema && name ? { schema, name } : metadata?.tables[0]?.table;
  return (
    <div className="with-sidebar">
      <aside>
        <h5>Tracked tables</h5>
        {metadata?.tables.map((t) => (
          <Link key={qkey(t.table)} to={href('permissions', t.table.schema, t.table.name)} className={current && sameQ(current, t.table) ? 'active' : ''}>{qkey(t.table)}</Link>
        ))}
        {metadata && metadata.tables.length === 0 && <p className="hint">No tracked tables yet.</p>}
      </aside>
      <section className="content">
        <ErrorBox error={error} />
        {metadata && catalog && current && <Matrix key={qkey(current)} q={current} metadata={metadata} catalog={catalog} reload={reload} />}
      </section>
    </div>
  );
}

function Matrix({ q, metadata, catalog, reload }: { q: QName; metadata: MetadataDoc; catalog: PgCatalog; reload: () => Promise<void> }) {
  const entry = findTable(metadata, q);
  const [extraRoles, setExtraRoles] = useState<string[]>([]);
  const [newRole, setNewRole] = useState('');
  const [editing, setEditing] = useState<{ role: string; kind: PermKind } | null>(null);
  if (!entry) return <p>{qkey(q)} is not tracked.</p>;
  const roles = [...new Set([...rolesOf(metadata), ...extraRoles])].sort();
  const columns = catalog.tables.find((t) => sameQ(t, q))?.columns.map((c) => c.name) ?? [];
  const rule = (role: string, kind: PermKind) => entry[`${kind}_permissions`]?.find((p) => p.role === role)?.permission;
  const mark = (role: string, kind: PermKind) => {
    const p = rule(role, kind);
    if (!p) return '✗';
    const f = kind === 'insert' ? p.check : p.filter;
    const allCols = kind === 'delete' || (Array.isArray(p.columns) && p.columns.length === columns.length) || p.columns === '*';
    return f && Object.keys(f).length === 0 && allCols ? '✓' : '◐';
  };
  return (
    <div>
      <div className="title-row"><h2>Permissions: {qkey(q)}</h2><Link to={href('data', q.schema, q.name)}>Data</Link></div>
      <table className="grid matrix" aria-label="Permissions matrix">
        <thead><tr><th>role</th>{PERM_KINDS.map((k) => <th key={k}>{k}</th>)}</tr></thead>
        <tbody>
          <tr><td>admin</td>{PERM_KINDS.map((k) => <td key={k} className="hint">✓</td>)}</tr>
          {roles.map((r) => (
            <tr key={r}>
              <td>{r}</td>
              {PERM_KINDS.map((k) => (
                <td key={k}>
                  <button className={`cell ${editing?.role === r && editing.kind === k ? 'active' : ''}`} aria-label={`${k} permission for ${r}`} onClick={() => setEditing({ role: r, kind: k })}>{mark(r, k)}</button>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <form className="toolbar" onSubmit={(e) => { e.preventDefault(); if (newRole.trim()) { setExtraRoles([...extraRoles, newRole.trim()]); setEditing({ role: newRole.trim(), kind: 'select' }); setNewRole(''); } }}>
        <input aria-label="New role" placeholder="new role" value={newRole} onChange={(e) => setNewRole(e.target.value)} />
        <button type="submit">Add role</button>
        <span className="hint">✓ all rows and columns · ◐ partial · ✗ none</span>
      </form>
      {editing && (
        <RuleEditor key={`${editing.role}.${editing.kind}`} q={q} role={editing.role} kind={editing.kind} columns={columns}
          existing={rule(editing.role, editing.kind)} onSaved={async () => { await reload(); }} onClose={() => setEditing(null)} />
      )}
    </div>
  );
}

const pretty = (v: unknown) => JSON.stringify(v ?? {}, null, 2);

function RuleEditor({ q, role, kind, columns, existing, onSaved, onClose }: {
  q: QName; role: string; kind: PermKind; columns: string[]; existing?: Record<string, any>; onSaved: () => Promise<void>; onClose: () => void;
}) {
  const e = existing ?? {};
  const [filter, setFilter] = useState(pretty(kind === 'insert' ? e.check : e.filter));
  const [check, setCheck] = useState(pretty(e.check));
  const [cols, setCols] = useState<string[]>(e.columns === '*' ? columns : e.columns ?? []);
  const [set, setSet] = useState(pretty(e.set));
  const [limit, setLimit] = useState(e.limit === undefined ? '' : String(e.limit));
  const [aggs, setAggs] = useState(!!e.allow_aggregations);
  const [backendOnly, setBackendOnly] = useState(!!e.backend_only);
  const [run, busy, error, setError] = useAction();
  const [saved, setSaved] = useState(false);
  const json = (label: string, text: string) => {
    try {
      return JSON.parse(text || '{}');
    } catch (x) {
      throw new ApiError(400, 'invalid-json', label, `${label} is not valid JSON: ${(x as Error).message}`);
    }
  };
  const permission = (): Record<string, unknown> => {
    const p: Record<string, unknown> = {};
    if (kind === 'insert') { p.check = json('check', filter); p.columns = cols; p.set = json('presets', set); if (backendOnly) p.backend_only = true; }
    if (kind === 'select') { p.columns = cols; p.filter = json('filter', filter); if (limit !== '') p.limit = Number(limit); if (aggs) p.allow_aggregations = true; }
    if (kind === 'update') { p.columns = cols; p.filter = json('filter', filter); const c = json('check', check); if (Object.keys(c).length) p.check = c; p.set = json('presets', set); }
    if (kind === 'delete') p.filter = json('filter', filter);
    return p;
  };
  const save = () => run(async () => {
    setSaved(false);
    const create = { type: `create_${kind}_permission`, args: { table: q, role, permission: permission() } };
    // Replacing a rule is drop + create in one bulk: both or neither.
    if (existing) await query({ type: 'bulk', args: [{ type: `drop_${kind}_permission`, args: { table: q, role } }, create] });
    else await query(create);
    setSaved(true);
    await onSaved();
  });
  const remove = () => run(async () => {
    await query({ type: `drop_${kind}_permission`, args: { table: q, role } });
    await onSaved();
    onClose();
  });
  const cond = kind === 'insert' ? 'check' : 'filter';
  return (
    <div className="card editor" aria-label="Permission editor">
      <div className="title-row"><h4>{kind} permission for role <b>{role}</b></h4><button className="link" onClick={onClose}>Close</button></div>
      <label className="block">
        <span>Row {cond} (boolean expression, e.g. <code>{'{"id": {"_eq": "X-Engine-User-Id"}}'}</code>)</span>
        <textarea aria-label={`${cond} JSON`} className="code" rows={5} value={filter} onChange={(x) => { setFilter(x.target.value); setError(null); }} />
      </label>
      {kind === 'update' && (
        <label className="block"><span>Post-update check</span><textarea aria-label="check JSON" className="code" rows={3} value={check} onChange={(x) => setCheck(x.target.value)} /></label>
      )}
      {kind !== 'delete' && (
        <fieldset>
          <legend>Columns <button className="link" onClick={() => setCols(cols.length === columns.length ? [] : columns)}>{cols.length === columns.length ? 'none' : 'all'}</button></legend>
          {columns.map((c) => (
            <label key={c} className="check"><input type="checkbox" aria-label={`column ${c}`} checked={cols.includes(c)} onChange={(x) => setCols(x.target.checked ? [...cols, c] : cols.filter((y) => y !== c))} /> {c}</label>
          ))}
        </fieldset>
      )}
      {(kind === 'insert' || kind === 'update') && (
        <label className="block"><span>Column presets (<code>{'{"author_id": "X-Engine-User-Id"}'}</code>)</span><textarea aria-label="presets JSON" className="code" rows={3} value={set} onChange={(x) => setSet(x.target.value)} /></label>
      )}
      {kind === 'select' && (
        <div className="toolbar">
          <label>Row limit <input aria-label="limit" type="number" min={0} value={limit} onChange={(x) => setLimit(x.target.value)} /></label>
          <label><input type="checkbox" checked={aggs} onChange={(x) => setAggs(x.target.checked)} /> allow aggregations</label>
        </div>
      )}
      {kind === 'insert' && <label><input type="checkbox" checked={backendOnly} onChange={(x) => setBackendOnly(x.target.checked)} /> backend only</label>}
      {error !== null && <div className="error" role="alert">{errorText(error)}</div>}
      {saved && !error && <div className="ok" role="status">Saved</div>}
      <div className="actions">
        {existing && <button className="danger" disabled={busy} onClick={remove}>Delete permission</button>}
        <button disabled={busy} onClick={save}>Save permission</button>
      </div>
    </div>
  );
}

