// Relationship suggestions: foreign keys between tracked tables that no relationship uses yet, each added with one
// click (the Data overview lists all, a table's page its own).
import { query } from '../api';
import { findTable, qkey, sameQ, type ForeignKey, type QName, type TableEntry } from '../model';
import { ErrorBox, useAction } from '../ui';
import type { DataState } from './data-state';

export interface Suggestion { table: QName; kind: 'object' | 'array'; name: string; using: unknown; fk: ForeignKey }

const plural = (s: string) => (s.endsWith('s') ? s : s.endsWith('y') ? `${s.slice(0, -1)}ies` : `${s}s`);

/** Single-column foreign keys between tracked tables that no relationship uses yet, both directions. */
export function suggestions(state: DataState): Suggestion[] {
  const out: Suggestion[] = [];
  const taken = (t: TableEntry, name: string) =>
    [...(t.object_relationships ?? []), ...(t.array_relationships ?? [])].some((r) => r.name === name) ||
    !!state.catalog.tables.find((x) => sameQ(x, t.table))?.columns.some((c) => c.name === name);
  for (const fk of state.catalog.fks) {
    if (fk.columns.length !== 1) continue;
    const child = findTable(state.metadata, fk.table);
    const parent = findTable(state.metadata, fk.ref);
    if (!child || !parent) continue;
    const col = fk.columns[0];
    const hasObj = (child.object_relationships ?? []).some((r) => r.using?.foreign_key_constraint_on === col);
    if (!hasObj) {
      let name = fk.ref.name;
      if (taken(child, name)) name = `${fk.ref.name}_by_${col}`;
      out.push({ table: fk.table, kind: 'object', name, using: { foreign_key_constraint_on: col }, fk });
    }
    const hasArr = (parent.array_relationships ?? []).some((r) => {
      const u = r.using?.foreign_key_constraint_on;
      return u && typeof u === 'object' && u.column === col && sameQ(typeof u.table === 'string' ? { schema: 'public', name: u.table } : u.table, fk.table);
    });
    if (!hasArr) {
      let name = plural(fk.table.name);
      if (taken(parent, name)) name = `${plural(fk.table.name)}_by_${col}`;
      out.push({ table: fk.ref, kind: 'array', name, using: { foreign_key_constraint_on: { table: fk.table, column: col } }, fk });
    }
  }
  return out;
}

export const addRelationship = (s: Suggestion) =>
  query({ type: `create_${s.kind}_relationship`, args: { table: s.table, name: s.name, using: s.using } });

export function Suggestions({ state, reload, only }: { state: DataState; reload: () => Promise<void>; only?: QName }) {
  const [run, busy, error] = useAction();
  const list = suggestions(state).filter((s) => !only || sameQ(s.table, only));
  if (!list.length) return null;
  return (
    <div className="card">
      <h4>Suggested relationships</h4>
      <p className="hint">Foreign keys between tracked tables that are not relationships yet.</p>
      <ErrorBox error={error} />
      <table className="grid">
        <tbody>
          {list.map((s) => (
            <tr key={`${qkey(s.table)}.${s.name}`}>
              <td><code>{qkey(s.table)}</code> → {s.kind} relationship <b>{s.name}</b></td>
              <td className="hint">{s.fk.columns.join(', ')} → {qkey(s.fk.ref)}.{s.fk.ref_columns.join(', ')}</td>
              <td><button disabled={busy} onClick={() => run(async () => { await addRelationship(s); await reload(); })}>Add {s.name}</button></td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.length > 1 && (
        <button disabled={busy} onClick={() => run(async () => { await query({ type: 'bulk', args: list.map((s) => ({ type: `create_${s.kind}_relationship`, args: { table: s.table, name: s.name, using: s.using } })) }); await reload(); })}>Add all</button>
      )}
    </div>
  );
}
