// Actions and Remote schemas, built on the metadata API: the definitions from export_metadata, their editors
// (actions: ./action-editor.tsx; remote schemas below), drop / remove / reload.
import { useEffect, useState } from 'react';
import { query } from '../api';
import { exportMetadata, qkey, type MetadataDoc } from '../model';
import type { PageProps } from '../router';
import { Confirm, ErrorBox, Json, useAction } from '../ui';
import { ActionEditor, ActionPermissions, actionForm, emptyAction, type ActionForm } from './action-editor';

function useMetadata(): [MetadataDoc | null, () => Promise<void>, ReturnType<typeof useAction>] {
  const action = useAction();
  const [m, setM] = useState<MetadataDoc | null>(null);
  const reload = () => action[0](async () => setM(await exportMetadata()));
  useEffect(() => void reload(), []);
  return [m, reload, action];
}

interface Pending { label: string; body: unknown }

function Shell({ title, hint, error, status, children, pending, setPending, run, reload }: {
  title: string; hint: string; error: unknown; status: string | null; children: React.ReactNode;
  pending: Pending | null; setPending: (p: Pending | null) => void; run: (f: () => Promise<void>) => Promise<void>; reload: () => Promise<void>;
}) {
  return (
    <div className="content">
      <h2>{title}</h2>
      <p className="hint">{hint}</p>
      <ErrorBox error={error} />
      {status && <div className="ok" role="status">{status}</div>}
      {children}
      {pending && (
        <Confirm title={pending.label} confirmLabel={pending.label} onCancel={() => setPending(null)}
          onConfirm={() => run(async () => { setPending(null); await query(pending.body); await reload(); })}>
          {pending.label}?
        </Confirm>
      )}
    </div>
  );
}

export function ActionsPage(_: PageProps) {
  const [m, reload, [run, , error]] = useMetadata();
  const [pending, setPending] = useState<Pending | null>(null);
  const [form, setForm] = useState<ActionForm | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const actions = m?.actions ?? [];
  return (
    <Shell title="Actions" hint="Actions extend the GraphQL schema with custom queries and mutations served by a webhook (create_action, set_custom_types)." error={error} status={status}
      pending={pending} setPending={setPending} run={run} reload={reload}>
      {!form && <button onClick={() => { setStatus(null); setForm(emptyAction()); }}>Create action</button>}
      {form && (
        <ActionEditor form={form} setForm={setForm} customTypes={(m?.custom_types ?? {}) as Record<string, unknown>}
          onSaved={async (name) => { setStatus(form.editing ? `Modified ${name}` : `Created ${name}`); setForm(null); await reload(); }} />
      )}
      {m && actions.length === 0 && <p>No actions.</p>}
      {actions.map((a) => (
        <div className="card" key={a.name}>
          <div className="title-row">
            <h4>{a.name} <span className="hint">{a.definition?.type ?? 'mutation'} · roles: {(a.permissions ?? []).map((p: { role: string }) => p.role).join(', ') || 'admin only'}</span></h4>
            <button onClick={() => { setStatus(null); setForm(actionForm(a)); }}>Modify</button>
            <button className="danger" onClick={() => setPending({ label: `Drop action ${a.name}`, body: { type: 'drop_action', args: { name: a.name } } })}>Drop</button>
          </div>
          <Json value={a.definition} />
          <ActionPermissions action={a.name} roles={(a.permissions ?? []).map((p: { role: string }) => p.role)} reload={reload} />
        </div>
      ))}
      {m?.custom_types && Object.keys(m.custom_types).length > 0 && (
        <div className="card"><h4>Custom types</h4><Json value={m.custom_types} /></div>
      )}
    </Shell>
  );
}

interface RemoteForm {
  /** The remote being modified (null: a new one). */
  editing: string | null;
  name: string;
  urlKind: 'url' | 'url_from_env';
  url: string;
  headers: Array<{ name: string; kind: 'value' | 'value_from_env'; value: string }>;
  forward: boolean;
  timeout: string;
}

const emptyRemote = (): RemoteForm => ({ editing: null, name: '', urlKind: 'url', url: '', headers: [], forward: false, timeout: '' });

function formOf(r: Record<string, any>): RemoteForm {
  const d = r.definition ?? {};
  return {
    editing: r.name, name: r.name, urlKind: d.url_from_env !== undefined ? 'url_from_env' : 'url', url: d.url ?? d.url_from_env ?? '',
    headers: (d.headers ?? []).map((h: Record<string, string>) => ('value_from_env' in h ? { name: h.name, kind: 'value_from_env', value: h.value_from_env } : { name: h.name, kind: 'value', value: h.value })),
    forward: d.forward_client_headers === true, timeout: d.timeout_seconds !== undefined ? String(d.timeout_seconds) : '',
  };
}

/** add_remote_schema's args from the editor (a modification is a remove and an add in one bulk: v1.3 has no update). */
function remoteArgs(f: RemoteForm): Record<string, unknown> {
  const definition: Record<string, unknown> = { [f.urlKind]: f.url, forward_client_headers: f.forward };
  if (f.headers.length) definition.headers = f.headers.filter((h) => h.name).map((h) => ({ name: h.name, [h.kind]: h.value }));
  if (f.timeout.trim() !== '') definition.timeout_seconds = Number(f.timeout);
  return { name: f.name, definition };
}

function RemoteSchemaEditor({ form, setForm, busy, onSave }: { form: RemoteForm; setForm: (f: RemoteForm | null) => void; busy: boolean; onSave: () => void }) {
  const header = (i: number, patch: Partial<RemoteForm['headers'][number]>) =>
    setForm({ ...form, headers: form.headers.map((h, j) => (j === i ? { ...h, ...patch } : h)) });
  return (
    <div className="row-form" aria-label={form.editing ? `Modify ${form.editing}` : 'Add remote schema'}>
      <h4>{form.editing ? `Modify ${form.editing}` : 'Add remote schema'}</h4>
      <label><span>Name</span><input aria-label="Remote schema name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} /></label>
      <label>
        <span>URL</span>
        <select aria-label="URL kind" value={form.urlKind} onChange={(e) => setForm({ ...form, urlKind: e.target.value as RemoteForm['urlKind'] })}>
          <option value="url">URL</option><option value="url_from_env">from env variable</option>
        </select>
        <input aria-label="Remote schema URL" value={form.url} placeholder={form.urlKind === 'url' ? 'https://…' : 'ENV_VARIABLE'} onChange={(e) => setForm({ ...form, url: e.target.value })} />
      </label>
      {form.headers.map((h, i) => (
        <label key={i}>
          <span>Header</span>
          <input aria-label={`Header ${i + 1} name`} value={h.name} onChange={(e) => header(i, { name: e.target.value })} />
          <select aria-label={`Header ${i + 1} kind`} value={h.kind} onChange={(e) => header(i, { kind: e.target.value as 'value' | 'value_from_env' })}>
            <option value="value">value</option><option value="value_from_env">from env variable</option>
          </select>
          <input aria-label={`Header ${i + 1} value`} value={h.value} onChange={(e) => header(i, { value: e.target.value })} />
          <button className="link danger" onClick={() => setForm({ ...form, headers: form.headers.filter((_, j) => j !== i) })}>Remove header</button>
        </label>
      ))}
      <button className="link" onClick={() => setForm({ ...form, headers: [...form.headers, { name: '', kind: 'value', value: '' }] })}>Add header</button>
      <label className="check"><input type="checkbox" aria-label="Forward client headers" checked={form.forward} onChange={(e) => setForm({ ...form, forward: e.target.checked })} /> Forward all headers from the client</label>
      <label><span>Timeout (seconds)</span><input aria-label="Timeout seconds" value={form.timeout} placeholder="60" onChange={(e) => setForm({ ...form, timeout: e.target.value })} /></label>
      <div className="actions"><button onClick={() => setForm(null)}>Cancel</button><button disabled={busy || !form.name || !form.url} onClick={onSave}>Save</button></div>
    </div>
  );
}

export function RemoteSchemasPage(_: PageProps) {
  const [m, reload, [run, busy, error]] = useMetadata();
  const [pending, setPending] = useState<Pending | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [form, setForm] = useState<RemoteForm | null>(null);
  const remotes = m?.remote_schemas ?? [];
  const save = () => run(async () => {
    if (!form) return;
    const add = { type: 'add_remote_schema', args: remoteArgs(form) };
    await query(form.editing ? { type: 'bulk', args: [{ type: 'remove_remote_schema', args: { name: form.editing } }, add] } : add);
    setStatus(form.editing ? `Modified ${form.name}` : `Added ${form.name}`);
    setForm(null);
    await reload();
  });
  return (
    <Shell title="Remote Schemas" hint="Remote GraphQL servers added with add_remote_schema." error={error} status={status}
      pending={pending} setPending={setPending} run={run} reload={reload}>
      {!form && <button onClick={() => { setStatus(null); setForm(emptyRemote()); }}>Add remote schema</button>}
      {form && <RemoteSchemaEditor form={form} setForm={setForm} busy={busy} onSave={save} />}
      {m && remotes.length === 0 && <p>No remote schemas.</p>}
      {remotes.map((r) => (
        <div className="card" key={r.name}>
          <div className="title-row">
            <h4>{r.name} <span className="hint">{r.definition?.url ?? r.definition?.url_from_env ?? ''}</span></h4>
            <button disabled={busy} onClick={() => run(async () => { await query({ type: 'reload_remote_schema', args: { name: r.name } }); setStatus(`Reloaded ${r.name}`); })}>Reload</button>
            <button disabled={busy} onClick={() => { setStatus(null); setForm(formOf(r)); }}>Modify</button>
            <button className="danger" onClick={() => setPending({ label: `Remove remote schema ${r.name}`, body: { type: 'remove_remote_schema', args: { name: r.name } } })}>Remove</button>
          </div>
          <Json value={r.definition} />
          {r.permissions && <><h5>Permissions</h5><Json value={r.permissions} /></>}
        </div>
      ))}
    </Shell>
  );
}
