// Integration helpers for the SQL compiler tests: run a compiled operation on a real database, compact JSON text.
import pg from 'pg';
import type { OperationIR } from '../../src/ir/operation.js';
import { compileOperation, splice } from '../../src/sql/operation.js';
import { resolveParams } from '../../src/sql/params.js';

/** JSON text without insignificant whitespace (numbers and key order untouched, unlike JSON.parse/stringify). */
export function compact(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i];
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c !== ' ' && c !== '\n' && c !== '\t' && c !== '\r') out += c;
  }
  return out;
}

export async function runOperation(
  pool: pg.Pool,
  op: OperationIR,
  variables: Record<string, unknown> = {},
  sessionVariables: Record<string, string> = { 'x-engine-role': 'admin' },
): Promise<string> {
  const c = compileOperation(op);
  let row: unknown[] | null = null;
  if (c.statement) {
    const values = resolveParams(c.statement.slots, { variables, sessionVariables });
    const r = await pool.query<unknown[]>({ text: c.statement.text, values, rowMode: 'array' });
    row = r.rows[0];
  }
  return compact(splice(c.pieces, row));
}
