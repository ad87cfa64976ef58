// The Actions page's editor: an action's signature and the custom types it uses as GraphQL SDL (read with the CLI's
// reader, src/project/actions-sdl.ts), its kind, handler, headers and client-header forwarding; saved as one bulk
// (set_custom_types with the types merged into the current ones, then create_action or update_action). And an
// action's permissions: the roles that may call it, added and dropped.
import { useState } from 'react';
import { query } from '../api';
import { parseActionsSdl } from '../../../src/project/actions-sdl';
import { ErrorBox, useAction } from '../ui';

type Obj = Record<string, any>;

export interface ActionForm {
  /** The action being modified (null: a new one). */
  editing: string | null;
  signature: string;
  types: string;
  kind: 'synchronous' | 'asynchronous';
  handler: string;
  headers: Array<{ name: string; value: string }>;
  forward: boolean;
}

export const emptyAction = (): ActionForm => ({
  editing: null, signature: 'type Mutation {\n  actionName(arg: String!): ActionOutput\n}', types: 'type ActionOutput {\n  id: Int!\n}',
  kind: 'synchronous', handler: '', headers: [], forward: false,
});

/** The editor's fields for an existing action: its signature printed back as SDL, no types (those stay as they are). */
export function actionForm(a: Obj): ActionForm {
  const d = a.definition ?? {};
  const args = (d.arguments ?? []).map((x: Obj) => `${x.name}: ${x.type}`).join(', ');
  return {
    editing: a.name,
    signature: `type ${d.type === 'query' ? 'Query' : 'Mutation'} {\n  ${a.name}${args ? `(${args})` : ''}: ${d.output_type}\n}`,
    types: '', kind: d.kind === 'asynchronous' ? 'asynchronous' : 'synchronous', handler: d.handler ?? '',
    headers: (d.headers ?? []).filter((h: Obj) => 'value' in h).map((h: Obj) => ({ name: h.name, value: h.value })),
    forward: d.forward_client_headers === true,
  };
}

/** The current custom types with those of the SDL put in their place (an object's relationships are kept). */
function mergedTypes(current: Obj, sdl: ReturnType<typeof parseActionsSdl>['types']): Obj {
  const out: Obj = {};
  for (const kind of ['scalars', 'enums', 'input_objects', 'objects'] as const) {
    const mine: Obj[] = [...(current[kind] ?? [])];
    for (const t of sdl[kind] as Obj[]) {
      const i = mine.findIndex((x) => x.name === t.name);
      const kept = i >= 0 && mine[i].relationships ? { relationships: mine[i].relationships } : {};
      if (i >= 0) mine[i] = { ...t, ...kept };
      else mine.push(t);
    }
    out[kind] = mine;
  }
  return out;
}

export function ActionEditor({ form, setForm, customTypes, onSaved }: {
  form: ActionForm; setForm: (f: ActionForm | null) => void; customTypes: Obj; onSaved: (name: string) => Promise<void>;
}) {
  const [run, busy, error] = useAction();
  const save = () => run(async () => {
    const { actions } = parseActionsSdl(form.signature);
    if (actions.length !== 1) throw new Error('the action definition must declare exactly one field of Query or Mutation');
    const types = parseActionsSdl(form.types).types;
    const a = actions[0];
    const definition: Obj = {
      kind: form.kind, type: a.type, arguments: a.arguments, output_type: a.output_type, handler: form.handler,
      forward_client_headers: form.forward, headers: form.headers.filter((h) => h.name).map((h) => ({ name: h.name, value: h.value })),
    };
    const steps: Obj[] = [];
    if (form.types.trim()) steps.push({ type: 'set_custom_types', args: mergedTypes(customTypes, types) });
    steps.push(form.editing ? { type: 'update_action', args: { name: form.editing, definition } } : { type: 'create_action', args: { name: a.name, definition } });
    await query({ type: 'bulk', args: steps });
    await onSaved(a.name);
  });
  const header = (i: number, patch: Partial<ActionForm['headers'][number]>) =>
    setForm({ ...form, headers: form.headers.map((h, j) => (j === i ? { ...h, ...patch } : h)) });
  return (
    <div className="row-form" aria-label={form.editing ? `Modify ${form.editing}` : 'Create action'}>
      <h4>{form.editing ? `Modify ${form.editing}` : 'Create action'}</h4>
      <label><span>Action definition</span><textarea aria-label="Action definition" rows={4} value={form.signature} onChange={(e) => setForm({ ...form, signature: e.target.value })} /></label>
      <label><span>Type definitions</span><textarea aria-label="Type definitions" rows={6} value={form.types} placeholder="(unchanged)" onChange={(e) => setForm({ ...form, types: e.target.value })} /></label>
      <label>
        <span>Kind</span>
        <select aria-label="Action kind" value={form.kind} onChange={(e) => setForm({ ...form, kind: e.target.value as ActionForm['kind'] })}>
          <option value="synchronous">synchronous</option><option value="asynchronous">asynchronous</option>
        </select>
      </label>
      <label><span>Handler</span><input aria-label="Handler" value={form.handler} placeholder="https://… or {{ENV}}/path" onChange={(e) => setForm({ ...form, handler: e.target.value })} /></label>
      {form.headers.map((h, i) => (
        <label key={i}>
          <span>Header</span>
          <input aria-label={`Action header ${i + 1} name`} value={h.name} onChange={(e) => header(i, { name: e.target.value })} />
          <input aria-label={`Action header ${i + 1} value`} value={h.value} onChange={(e) => header(i, { value: e.target.value })} />
        </label>
      ))}
      <button className="link" onClick={() => setForm({ ...form, headers: [...form.headers, { name: '', value: '' }] })}>Add header</button>
      <label className="check"><input type="checkbox" aria-label="Forward client headers to the handler" checked={form.forward} onChange={(e) => setForm({ ...form, forward: e.target.checked })} /> Forward client headers</label>
      <ErrorBox error={error} />
      <div className="actions"><button onClick={() => setForm(null)}>Cancel</button><button disabled={busy || !form.handler} onClick={save}>Save</button></div>
    </div>
  );
}

export function ActionPermissions({ action, roles, reload }: { action: string; roles: string[]; reload: () => Promise<void> }) {
  const [run, busy, error] = useAction();
  const [role, setRole] = useState('');
  return (
    <div className="permissions">
      <h5>Permissions</h5>
      <ErrorBox error={error} />
      <ul>
        {roles.map((r) => (
          <li key={r}>{r} <button className="link danger" aria-label={`Drop permission ${r} on ${action}`} disabled={busy}
            onClick={() => run(async () => { await query({ type: 'drop_action_permission', args: { action, role: r } }); await reload(); })}>Drop</button></li>
        ))}
      </ul>
      <input aria-label={`New role for ${action}`} value={role} placeholder="role" onChange={(e) => setRole(e.target.value)} />
      <button disabled={busy || !role} onClick={() => run(async () => {
        await query({ type: 'create_action_permission', args: { action, role } });
        setRole('');
        await reload();
      })}>Allow role</button>
    </div>
  );
}
