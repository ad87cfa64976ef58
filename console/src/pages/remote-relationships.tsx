// A tracked table's remote relationships (Data page): the list with Remove, and an editor that adds one: a name,
// a remote schema, one of its query fields (from introspect_remote_schema) and, for each of the field's arguments,
// the column whose value it takes ("$column"). The engine validates it (its errors are shown as they come).
import { useState } from 'react';
import { query } from '../api';
import type { Column, RemoteFieldCall, TableEntry } from '../model';
import { Confirm, ErrorBox, useAction } from '../ui';

interface RemoteField { name: string; args: string[] }

/** The query fields of a remote schema and their arguments, from the introspection the engine keeps. */
async function remoteFields(name: string): Promise<RemoteField[]> {
  const r = await query<{ data: { __schema: { queryType: { name: string } | null; types: Array<{ name: string; fields?: Array<{ name: string; args: Array<{ name: string }> }> | null }> } } }>(
    { type: 'introspect_remote_schema', args: { name } },
  );
  const s = r.data.__schema;
  const root = s.types.find((t) => t.name === s.queryType?.name);
  return (root?.fields ?? []).map((f) => ({ name: f.name, args: f.args.map((a) => a.name) }));
}

/** `message(id: $id)` for a remote field template, nested levels joined by dots. */
function describe(f: Record<string, RemoteFieldCall>): string {
  const [name, call] = Object.entries(f)[0] ?? ['?', { arguments: {} }];
  const args = Object.entries(call.arguments).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ');
  return `${name}(${args})${call.field ? `.${describe(call.field)}` : ''}`;
}

export function RemoteRelationships({ entry, columns, remoteSchemas, reload }: {
  entry: TableEntry; columns: Column[]; remoteSchemas: string[]; reload: () => Promise<void>;
}) {
  const rels = entry.remote_relationships ?? [];
  const [run, busy, error] = useAction();
  const [removing, setRemoving] = useState<string | null>(null);
  const [form, setForm] = useState<{ name: string; remote: string; fields: RemoteField[]; field: string; mapping: Record<string, string> } | null>(null);
  const pickRemote = (remote: string) => run(async () => {
    const fields = remote ? await remoteFields(remote) : [];
    setForm((f) => f && { ...f, remote, fields, field: '', mapping: {} });
  });
  const field = form?.fields.find((f) => f.name === form.field);
  const add = () => run(async () => {
    if (!form) return;
    const mapped = Object.entries(form.mapping).filter(([, c]) => c);
    await query({
      type: 'create_remote_relationship',
      args: {
        name: form.name, table: entry.table, remote_schema: form.remote, engine_fields: [...new Set(mapped.map(([, c]) => c))],
        remote_field: { [form.field]: { arguments: Object.fromEntries(mapped.map(([a, c]) => [a, `$${c}`])) } },
      },
    });
    setForm(null);
    await reload();
  });
  return (
    <div className="card">
      <div className="title-row">
        <h4>Remote relationships</h4>
        {!form && <button disabled={busy || remoteSchemas.length === 0} onClick={() => setForm({ name: '', remote: '', fields: [], field: '', mapping: {} })}>Add remote relationship</button>}
      </div>
      {remoteSchemas.length === 0 && rels.length === 0 && <p className="hint">Add a remote schema to join this table to one of its fields.</p>}
      <ErrorBox error={error} />
      {rels.length > 0 && (
        <ul>
          {rels.map((r) => (
            <li key={r.name}>
              <b>{r.name}</b> <span className="hint">{r.definition.remote_schema} · {describe(r.definition.remote_field)}</span>{' '}
              <button className="link danger" aria-label={`Remove ${r.name}`} onClick={() => setRemoving(r.name)}>Remove</button>
            </li>
          ))}
        </ul>
      )}
      {form && (
        <div className="row-form" aria-label="Add remote relationship">
          <label><span>Name</span><input aria-label="Remote relationship name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} /></label>
          <label>
            <span>Remote schema</span>
            <select aria-label="Remote schema" value={form.remote} onChange={(e) => void pickRemote(e.target.value)}>
              <option value="">(choose)</option>
              {remoteSchemas.map((r) => <option key={r}>{r}</option>)}
            </select>
          </label>
          {form.fields.length > 0 && (
            <label>
              <span>Remote field</span>
              <select aria-label="Remote field" value={form.field} onChange={(e) => setForm({ ...form, field: e.target.value, mapping: {} })}>
                <option value="">(choose)</option>
                {form.fields.map((f) => <option key={f.name}>{f.name}</option>)}
              </select>
            </label>
          )}
          {field?.args.map((a) => (
            <label key={a}>
              <span>argument {a} <span className="hint">from column</span></span>
              <select aria-label={`Column for ${a}`} value={form.mapping[a] ?? ''} onChange={(e) => setForm({ ...form, mapping: { ...form.mapping, [a]: e.target.value } })}>
                <option value="">(not set)</option>
                {columns.map((c) => <option key={c.name}>{c.name}</option>)}
              </select>
            </label>
          ))}
          <div className="actions">
            <button onClick={() => setForm(null)}>Cancel</button>
            <button disabled={busy || !form.name || !form.field} onClick={add}>Create</button>
          </div>
        </div>
      )}
      {removing && (
        <Confirm title="Remove remote relationship" confirmLabel="Remove" onCancel={() => setRemoving(null)}
          onConfirm={() => run(async () => { setRemoving(null); await query({ type: 'delete_remote_relationship', args: { table: entry.table, name: removing } }); await reload(); })}>
          Remove the remote relationship {removing}?
        </Confirm>
      )}
    </div>
  );
}
