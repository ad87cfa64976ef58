// Data: schemas and tables (tracked or not) with Track / Untrack, foreign keys not yet tracked as relationships
// offered as one-click suggestions, a table's rows (./browse) and the Run SQL page (./sql).
import { useCallback, useEffect, useState } from 'react';
import { query } from '../api';
import { exportMetadata, findTable, loadCatalog, qkey, sameQ, type ForeignKey, type MetadataDoc, type PgCatalog, type QName, type TableEntry } from '../model';
import { href } from '../router';
import { ErrorBox, Link, useAction } from '../ui';
import type { PageProps } from '../pages';
import { BrowseTable } from './browse';
import { RunSqlPage } from './sql';

export interface DataState { catalog: PgCatalog; metadata: MetadataDoc }

export function useDataState(): [DataState | null, () => Promise<void>, unknown] {
  const [state, setState] = useState<DataState | null>(null);
  const [error, setError] = useState<unknown>(null);
  const reload = useCallback(async () => {
    try {
      const [catalog, metadata] = await Promise.all([loadCatalog(), exportMetadata()]);
      setState({ catalog, metadata });
      setError(null);
    } catch (e) {
      setError(e);
    }
  }, []);
  useEffect(() => void reload(), [reload]);
  return [state, reload, error];
}

export function DataPage({ route }: PageProps) {
  const [state, reload, error] = useDataState();
  const [schema, table] = route.rest;
  let body;
  if (schema === 'sql') body = <RunSqlPage onRan={reload} />;
  else if (!state) body = <ErrorBox error={error} />;
  else if (schema && table) body = <BrowseTable key={`${schema}.${table}`} q={{ schema, name: table }} state={state} reload={reload} />;
  else body = <Overview state={state} reload={reload} />;
  return (
    <div className="with-sidebar">
      <aside>
        <Link to={href('data', 'sql')} className={schema === 'sql' ? 'active' : ''}>Run SQL</Link>
        {state && <TableList state={state} current={schema && table ? { schema, name: table } : null} />}
      </aside>
      <section className="content">{body}</section>
    </div>
  );
}

function TableList({ state, current }: { state: DataState; current: QName | null }) {
  const schemas = [...new Set(state.catalog.tables.map((t) => t.schema))];
  return (
    <>
      {schemas.map((s) => (
        <div key={s} className="schema">
          <h5>{s}</h5>
          {state.catalog.tables.filter((t) => t.schema === s).map((t) => {
            const tracked = !!findTable(state.metadata, t);
            return (
              <Link key={t.name} to={href('data', t.schema, t.name)} className={`table-link ${current && sameQ(current, t) ? 'active' : ''} ${tracked ? '' : 'untracked'}`}>
                {t.name}{tracked ? '' : ' (untracked)'}
              </Link>
            );
          })}
        </div>
      ))}
    </>
  );
}

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

function Overview({ state, reload }: { state: DataState; reload: () => Promise<void> }) {
  const [run, busy, error] = useAction();
  const untracked = state.catalog.tables.filter((t) => !findTable(state.metadata, t));
  const track = (qs: QName[]) => run(async () => {
    await query({ type: 'bulk', args: qs.map((q) => ({ type: 'track_table', args: { table: q } })) });
    await reload();
  });
  return (
    <div>
      <h2>Data</h2>
      <ErrorBox error={error} />
      <div className="card">
        <h4>Untracked tables and views</h4>
        {untracked.length === 0 ? <p className="hint">Every table is tracked.</p> : (
          <>
            <table className="grid">
              <tbody>
                {untracked.map((t) => (
                  <tr key={qkey(t)}>
                    <td><code>{qkey(t)}</code> <span className="hint">{t.kind}</span></td>
                    <td><button disabled={busy} onClick={() => track([t])}>Track {t.name}</button></td>
                  </tr>
                ))}
              </tbody>
            </table>
            {untracked.length > 1 && <button disabled={busy} onClick={() => track(untracked)}>Track all</button>}
          </>
        )}
      </div>
      <Suggestions state={state} reload={reload} />
      <div className="card">
        <h4>Tracked tables</h4>
        <ul>
          {state.metadata.tables.map((t) => (
            <li key={qkey(t.table)}><Link to={href('data', t.table.schema, t.table.name)}>{qkey(t.table)}</Link></li>
          ))}
        </ul>
      </div>
    </div>
  );
}
