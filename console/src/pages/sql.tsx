// Run SQL: the run_sql operation with its cascade and read-only options; a TuplesOk result is shown as a table.
import { useState } from 'react';
import { ApiError, runSql, type SqlResult } from '../api';
import { ErrorBox, Json, ResultTable, useAction } from '../ui';

export function RunSqlPage({ onRan }: { onRan: () => Promise<void> }) {
  const [sql, setSql] = useState('');
  const [cascade, setCascade] = useState(false);
  const [readOnly, setReadOnly] = useState(false);
  const [result, setResult] = useState<SqlResult | null>(null);
  const [run, busy, error] = useAction();
  const go = () => run(async () => {
    setResult(null);
    setResult(await runSql(sql, { cascade, read_only: readOnly }));
    if (!readOnly) await onRan();
  });
  return (
    <div>
      <h2>Run SQL</h2>
      <textarea aria-label="SQL" className="code" rows={10} value={sql} onChange={(e) => setSql(e.target.value)}
        onKeyDown={(e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) go(); }} placeholder="CREATE TABLE ..." />
      <div className="toolbar">
        <label><input type="checkbox" checked={cascade} onChange={(e) => setCascade(e.target.checked)} /> cascade (drop dependent metadata)</label>
        <label><input type="checkbox" checked={readOnly} onChange={(e) => setReadOnly(e.target.checked)} /> read only</label>
        <span className="spacer" />
        <button onClick={go} disabled={busy || !sql.trim()}>Run</button>
      </div>
      <ErrorBox error={error} />
      {error instanceof ApiError && error.internal !== undefined && <Json value={error.internal} />}
      {result && (result.result_type === 'TuplesOk' && result.result ? <ResultTable rows={result.result} /> : <div className="ok" role="status">SQL executed ({result.result_type})</div>)}
    </div>
  );
}
