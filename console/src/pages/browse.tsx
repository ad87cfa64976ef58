// A tracked table's rows through GraphQL (as admin): pagination, a filter, insert / edit / delete by primary key;
// untracked tables get a Track button; the table's relationships, remote relationships and suggestions are below.
import { useEffect, useRef, useState } from 'react';
import { gqlData, query } from '../api';
import { findTable, gqlName, qkey, sameQ, type Column, type QName, type TableEntry } from '../model';
import { href } from '../router';
import { Confirm, ErrorBox, Link, useAction } from '../ui';
import type { DataState } from './data-state';
import { Suggestions } from './suggestions';
import { RemoteRelationships } from './remote-relationships';

const PAGE = 10;
const OPS = ['_eq', '_neq', '_gt', '_lt', '_gte', '_lte', '_like', '_ilike', '_is_null'] as const;

type Row = Record<string, unknown>;

/** A text input's value as the column's GraphQL value. */
export function toValue(type: string, text: string): unknown {
  if (/^(smallint|integer|bigint|numeric|real|double precision)/.test(type)) {
    const n = Number(text);
    if (text.trim() === '' || Number.isNaN(n)) throw new Error(`"${text}" is not a number (${type})`);
    return n;
  }
  if (type === 'boolean') return text === 'true' || text === 't';
  if (type === 'json' || type === 'jsonb') return JSON.parse(text);
  return text;
}

const show = (v: unknown) => (v === null || v === undefined ? <i className="hint">NULL</i> : typeof v === 'object' ? JSON.stringify(v) : String(v));
const literal = (v: unknown) => JSON.stringify(v);

export function BrowseTable({ q, state, reload }: { q: QName; state: DataState; reload: () => Promise<void> }) {
  const pg = state.catalog.tables.find((t) => sameQ(t, q));
  const entry = findTable(state.metadata, q);
  const [run, busy, error] = useAction();
  if (!pg) return <p>No table {qkey(q)}.</p>;
  const header = (
    <div className="title-row">
      <h2>{qkey(q)}</h2>
      {entry ? (
        <button disabled={busy} onClick={() => run(async () => { await query({ type: 'untrack_table', args: { table: q } }); await reload(); })}>Untrack</button>
      ) : (
        <button disabled={busy} onClick={() => run(async () => { await query({ type: 'track_table', args: { table: q } }); await reload(); })}>Track</button>
      )}
      {entry && <Link to={href('permissions', q.schema, q.name)}>Permissions</Link>}
    </div>
  );
  return (
    <div>
      {header}
      <ErrorBox error={error} />
      {entry ? <Rows key={JSON.stringify(entry.configuration ?? {})} entry={entry} columns={pg.columns} pk={pg.pk} /> : <p className="hint">Track this table to browse its rows through GraphQL.</p>}
      {entry && <Relationships entry={entry} />}
      {entry && <RemoteRelationships entry={entry} columns={pg.columns} remoteSchemas={(state.metadata.remote_schemas ?? []).map((r) => String(r.name))} reload={reload} />}
      <Suggestions state={state} reload={reload} only={q} />
    </div>
  );
}

function Relationships({ entry }: { entry: TableEntry }) {
  const rels = [...(entry.object_relationships ?? []).map((r) => ({ ...r, kind: 'object' })), ...(entry.array_relationships ?? []).map((r) => ({ ...r, kind: 'array' }))];
  if (!rels.length) return null;
  return (
    <div className="card">
      <h4>Relationships</h4>
      <ul>{rels.map((r) => <li key={r.name}><b>{r.name}</b> <span className="hint">{r.kind} · {JSON.stringify(r.using)}</span></li>)}</ul>
    </div>
  );
}

function Rows({ entry, columns, pk }: { entry: TableEntry; columns: Column[]; pk: string[] }) {
  const g = gqlName(entry.table);
  const custom = entry.configuration?.custom_root_fields ?? {};
  const colName = (c: string) => entry.configuration?.custom_column_names?.[c] ?? c;
  const fields = columns.map((c) => colName(c.name)).join(' ');
  const [offset, setOffset] = useState(0);
  const [filter, setFilter] = useState<{ col: string; op: string; value: string }>({ col: columns[0]?.name ?? '', op: '_eq', value: '' });
  const [where, setWhere] = useState<Record<string, unknown>>({});
  const [data, setData] = useState<{ rows: Row[]; count: number; offset: number } | null>(null);
  // Only the newest load may show its rows: an earlier page answering late must not replace them.
  const latest = useRef(0);
  // What a load reads is the page and filter shown now: a load started after a save or a delete runs from that
  // click's closure, whose filter may have been cleared (or its page left) while the mutation was in flight.
  const current = useRef({ offset, where });
  current.current = { offset, where };
  const [editing, setEditing] = useState<{ row: Row | null; values: Record<string, string> } | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [run, busy, error, setError] = useAction();

  const load = () => run(async () => {
    const ticket = ++latest.current;
    const { offset, where } = current.current;
    const order = pk.length ? `order_by: {${pk.map((c) => `${colName(c)}: asc`).join(', ')}}` : '';
    const d = await gqlData<{ rows: Row[]; agg: { aggregate: { count: number } } }>(
      `query ($limit: Int, $offset: Int, $where: ${g}_bool_exp) {
        rows: ${custom.select ?? g}(limit: $limit, offset: $offset, where: $where ${order}) { ${fields} }
        agg: ${custom.select_aggregate ?? `${g}_aggregate`}(where: $where) { aggregate { count } }
      }`, { limit: PAGE, offset, where });
    if (ticket === latest.current) setData({ rows: d.rows, count: d.agg.aggregate.count, offset });
  });
  useEffect(() => void load(), [offset, JSON.stringify(where)]);

  const typeOf = (c: string) => columns.find((x) => x.name === c)?.type ?? 'text';
  const pkArgs = (row: Row) => pk.map((c) => `${colName(c)}: ${literal(row[colName(c)])}`).join(', ');
  const save = () => run(async () => {
    if (!editing) return;
    const obj: Record<string, unknown> = {};
    for (const [c, v] of Object.entries(editing.values)) {
      if (editing.row === null && v === '') continue; // left out: the column default
      if (editing.row !== null && v === show(editing.row[colName(c)])) continue;
      obj[colName(c)] = v === '' && editing.row !== null ? null : toValue(typeOf(c), v);
    }
    if (editing.row === null) {
      await gqlData(`mutation ($o: ${g}_insert_input!) { r: ${custom.insert_one ?? `insert_${g}_one`}(object: $o) { ${fields} } }`, { o: obj });
    } else if (Object.keys(obj).length) {
      await gqlData(`mutation ($s: ${g}_set_input) { r: ${custom.update_by_pk ?? `update_${g}_by_pk`}(pk_columns: {${pkArgs(editing.row)}}, _set: $s) { ${fields} } }`, { s: obj });
    }
    setEditing(null);
    await load();
  });
  const remove = (row: Row) => run(async () => {
    await gqlData(`mutation { r: ${custom.delete_by_pk ?? `delete_${g}_by_pk`}(${pkArgs(row)}) { ${fields} } }`);
    setDeleting(null);
    await load();
  });
  const applyFilter = () => {
    if (!filter.col || (filter.value === '' && filter.op !== '_is_null')) return setWhere({});
    try {
      const v = filter.op === '_is_null' ? filter.value !== 'false' : /like$/.test(filter.op) ? filter.value : toValue(typeOf(filter.col), filter.value);
      setOffset(0);
      setWhere({ [colName(filter.col)]: { [filter.op]: v } });
    } catch (x) {
      setError(x);
    }
  };
  const startEdit = (row: Row | null) =>
    setEditing({ row, values: Object.fromEntries(columns.map((c) => [c.name, row ? (row[colName(c.name)] === null ? '' : String(show(row[colName(c.name)]))) : ''])) });

  return (
    <div className="card">
      <div className="toolbar">
        <select aria-label="Filter column" value={filter.col} onChange={(e) => setFilter({ ...filter, col: e.target.value })}>
          {columns.map((c) => <option key={c.name}>{c.name}</option>)}
        </select>
        <select aria-label="Filter operator" value={filter.op} onChange={(e) => setFilter({ ...filter, op: e.target.value })}>
          {OPS.map((o) => <option key={o}>{o}</option>)}
        </select>
        <input aria-label="Filter value" value={filter.value} onChange={(e) => setFilter({ ...filter, value: e.target.value })} onKeyDown={(e) => e.key === 'Enter' && applyFilter()} />
        <button onClick={applyFilter}>Filter</button>
        {Object.keys(where).length > 0 && <button className="link" onClick={() => { setFilter({ ...filter, value: '' }); setWhere({}); }}>Clear</button>}
        <span className="spacer" />
        <button onClick={() => startEdit(null)} disabled={busy}>Insert row</button>
      </div>
      <ErrorBox error={error} />
      {editing && (
        <div className="row-form" aria-label={editing.row ? 'Edit row' : 'Insert row'}>
          <h4>{editing.row ? 'Edit row' : 'Insert row'}</h4>
          {columns.map((c) => (
            <label key={c.name}>
              <span>{c.name} <span className="hint">{c.type}{c.default ? ` = ${c.default}` : ''}</span></span>
              <input aria-label={`value of ${c.name}`} value={editing.values[c.name]} placeholder={editing.row ? 'NULL' : c.default ? 'default' : ''}
                onChange={(e) => setEditing({ ...editing, values: { ...editing.values, [c.name]: e.target.value } })} />
            </label>
          ))}
          <div className="actions"><button onClick={() => setEditing(null)}>Cancel</button><button onClick={save} disabled={busy}>Save</button></div>
        </div>
      )}
      {data && (
        <>
          <table className="grid rows">
            <thead><tr>{columns.map((c) => <th key={c.name}>{c.name}</th>)}{pk.length > 0 && <th />}</tr></thead>
            <tbody>
              {data.rows.map((r, i) => (
                <tr key={i}>
                  {columns.map((c) => <td key={c.name}>{show(r[colName(c.name)])}</td>)}
                  {pk.length > 0 && <td className="row-actions"><button className="link" onClick={() => startEdit(r)}>Edit</button><button className="link danger" onClick={() => setDeleting(r)}>Delete</button></td>}
                </tr>
              ))}
            </tbody>
          </table>
          <div className="pager">
            <button disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>Previous</button>
            {/* The range of the rows shown, not of the page being fetched, so the label and the rows always agree. */}
            <span>{data.count === 0 ? 'no rows' : `${data.offset + 1}–${Math.min(data.offset + PAGE, data.count)} of ${data.count}`}</span>
            <button disabled={offset + PAGE >= data.count} onClick={() => setOffset(offset + PAGE)}>Next</button>
          </div>
        </>
      )}
      {deleting && (
        <Confirm title="Delete row" confirmLabel="Delete" onCancel={() => setDeleting(null)} onConfirm={() => remove(deleting)}>
          Delete the row with {pkArgs(deleting)}?
        </Confirm>
      )}
    </div>
  );
}

