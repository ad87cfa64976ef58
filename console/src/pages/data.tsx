// Data: schemas and tables (tracked or not) with Track / Untrack, foreign keys not yet tracked as relationships
// offered as one-click suggestions, a table's rows (./browse) and the Run SQL page (./sql).
import { query } from '../api';
import { findTable, qkey, sameQ, type QName } from '../model';
import { href, type PageProps } from '../router';
import { ErrorBox, Link, useAction } from '../ui';
import { BrowseTable } from './browse';
import { useDataState, type DataState } from './data-state';
import { RunSqlPage } from './sql';
import { Suggestions } from './suggestions';

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
