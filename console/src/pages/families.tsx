// Actions and Remote schemas, built on the metadata API as far as the engine serves them: the definitions
// from export_metadata, with delete / reload / invoke where the engine has the operation.
import { useEffect, useState } from 'react';
import { query } from '../api';
import { exportMetadata, qkey, type MetadataDoc } from '../model';
import type { PageProps } from '../router';
import { Confirm, ErrorBox, Json, useAction } from '../ui';

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
  const actions = m?.actions ?? [];
  return (
    <Shell title="Actions" hint="Actions extend the GraphQL schema with custom queries and mutations served by a webhook (create_action, set_custom_types)." error={error} status={null}
      pending={pending} setPending={setPending} run={run} reload={reload}>
      {m && actions.length === 0 && <p>No actions.</p>}
      {actions.map((a) => (
        <div className="card" key={a.name}>
          <div className="title-row">
            <h4>{a.name} <span className="hint">{a.definition?.type ?? 'mutation'} · roles: {(a.permissions ?? []).map((p: { role: string }) => p.role).join(', ') || 'admin only'}</span></h4>
            <button className="danger" onClick={() => setPending({ label: `Drop action ${a.name}`, body: { type: 'drop_action', args: { name: a.name } } })}>Drop</button>
          </div>
          <Json value={a.definition} />
        </div>
      ))}
      {m?.custom_types && Object.keys(m.custom_types).length > 0 && (
        <div className="card"><h4>Custom types</h4><Json value={m.custom_types} /></div>
      )}
    </Shell>
  );
}

export function RemoteSchemasPage(_: PageProps) {
  const [m, reload, [run, busy, error]] = useMetadata();
  const [pending, setPending] = useState<Pending | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const remotes = m?.remote_schemas ?? [];
  return (
    <Shell title="Remote Schemas" hint="Remote GraphQL servers added with add_remote_schema." error={error} status={status}
      pending={pending} setPending={setPending} run={run} reload={reload}>
      {m && remotes.length === 0 && <p>No remote schemas.</p>}
      {remotes.map((r) => (
        <div className="card" key={r.name}>
          <div className="title-row">
            <h4>{r.name} <span className="hint">{r.definition?.url ?? r.definition?.url_from_env ?? ''}</span></h4>
            <button disabled={busy} onClick={() => run(async () => { await query({ type: 'reload_remote_schema', args: { name: r.name } }); setStatus(`Reloaded ${r.name}`); })}>Reload</button>
            <button className="danger" onClick={() => setPending({ label: `Remove remote schema ${r.name}`, body: { type: 'remove_remote_schema', args: { name: r.name } } })}>Remove</button>
          </div>
          <Json value={r.definition} />
          {r.permissions && <><h5>Permissions</h5><Json value={r.permissions} /></>}
        </div>
      ))}
    </Shell>
  );
}
