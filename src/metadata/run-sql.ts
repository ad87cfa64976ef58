// Executes run_sql's SQL on the request's transaction and shapes the result as the original does: every cell as
// Postgres text ("NULL" for SQL NULL), the header row first, only the last statement's result.
import type pg from 'pg';
import { EngineError } from '../core/errors.js';
import { connectionError, isConnectionError } from '../core/pg-errors.js';

export type RunSqlResult =
  | { result_type: 'CommandOk'; result: null }
  | { result_type: 'TuplesOk'; result: string[][] };

const rawText = { getTypeParser: () => (v: string) => v } as unknown as pg.CustomTypesConfig;

/** Read-only SQL runs in a savepoint with transaction_read_only on, then the savepoint is rolled back. */
export async function runSql(client: pg.ClientBase, sql: string, readOnly: boolean): Promise<RunSqlResult> {
  if (readOnly) {
    await client.query('SAVEPOINT engine_read_only; SET LOCAL transaction_read_only = on');
    try {
      return await exec(client, sql);
    } catch (e) {
      // A write refused by the read-only transaction is reported at the args, as the original.
      if (e instanceof EngineError && readOnlyRefusal(e)) throw e.at('$.args');
      throw e;
    } finally {
      await client.query('ROLLBACK TO SAVEPOINT engine_read_only; RELEASE SAVEPOINT engine_read_only').catch(() => undefined);
    }
  }
  return exec(client, sql);
}

const readOnlyRefusal = (e: EngineError): boolean =>
  (e.internal as { error?: { status_code?: string } } | undefined)?.error?.status_code === '25006';

async function exec(client: pg.ClientBase, sql: string): Promise<RunSqlResult> {
  let res: pg.QueryArrayResult | pg.QueryArrayResult[];
  try {
    res = (await client.query({ text: sql, rowMode: 'array', types: rawText })) as unknown as pg.QueryArrayResult | pg.QueryArrayResult[];
  } catch (e) {
    throw postgresError(e, sql);
  }
  const last = Array.isArray(res) ? res[res.length - 1] : res;
  if (!last || !last.fields || last.fields.length === 0) return { result_type: 'CommandOk', result: null };
  const header = last.fields.map((f) => f.name || 'unknown');
  const rows = last.rows.map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));
  return { result_type: 'TuplesOk', result: [header, ...rows] };
}

export function postgresError(e: unknown, statement: string): EngineError {
  if (isConnectionError(e)) return connectionError(e as Error);
  const err = e as Error & { code?: string; hint?: string; detail?: string };
  if (!err || typeof err.code !== 'string') return new EngineError('unexpected', 'database query error', { status: 500 });
  return new EngineError('postgres-error', 'query execution failed', {
    internal: {
      statement,
      prepared: false,
      error: {
        exec_status: 'FatalError',
        hint: err.hint ?? null,
        message: err.message,
        status_code: err.code,
        description: err.detail ?? null,
      },
      arguments: [],
    },
  });
}
