// A whole query operation → ONE statement whose columns are the root fields' JSON texts, plus the template that
// splices them (and __typename / introspection JSON known at compile time) into the `data` object, in query order.
import type { OperationIR, RootFieldIR } from '../ir/operation.js';
import { compile, ident, join, sql, type CompiledSql, type SQL } from './builder.js';
import { CompileContext } from './context.js';
import { rootAggregate, rootConnection, rootSelect } from './select.js';
import { compileMutation } from './mutation-statement.js';
import { actionStatusRoot } from './action.js';

/** Static JSON text, or the index of a result column holding JSON text (SQL NULL splices as `null`). */
export type Piece = string | number;

export interface CompiledOperation {
  /** null when nothing needs the database (only __typename / introspection fields). */
  statement: CompiledSql | null;
  /** The `data` object: concatenating the pieces gives its JSON text. */
  pieces: Piece[];
}

/** The SQL of one database root field (a query returning one row, one column "json"), or null. */
export function compileRootField(f: RootFieldIR, ctx: CompileContext = new CompileContext()): SQL | null {
  switch (f.kind) {
    case 'typename':
    case 'raw':
      return null;
    case 'mutation':
      throw new Error('a mutation root field is compiled as a statement of its own (compileSequential)');
    case 'select':
      return rootSelect(f.select, false, ctx);
    case 'select_one':
      return rootSelect(f.select, true, ctx);
    case 'aggregate':
      return rootAggregate(f.aggregate, ctx);
    case 'connection':
      return rootConnection(f.connection, ctx);
    case 'action_root':
      // Queries and mutations run action fields in src/actions/execute.ts; a live query's `<action>(id:)` is SQL.
      if (f.action.kind === 'action_status') return actionStatusRoot(f.action, ctx);
      throw new Error('an action root field is run by src/actions/execute.ts');
  }
}

function pushStatic(pieces: Piece[], s: string): void {
  const last = pieces.length - 1;
  if (last >= 0 && typeof pieces[last] === 'string') pieces[last] = (pieces[last] as string) + s;
  else pieces.push(s);
}

/** Compiles a query (or subscription) operation into one statement. */
export function compileOperation(op: OperationIR): CompiledOperation {
  const ctx = new CompileContext();
  const columns: SQL[] = [];
  const pieces: Piece[] = [];
  op.fields.forEach(([key, f], i) => {
    pushStatic(pieces, `${i === 0 ? '{' : ','}${JSON.stringify(key)}:`);
    if (f.kind === 'typename') pushStatic(pieces, JSON.stringify(f.name));
    else if (f.kind === 'raw') pushStatic(pieces, f.json);
    else {
      const q = compileRootField(f, ctx)!;
      pieces.push(columns.length);
      columns.push(sql`(${q})::text AS ${ident(String(columns.length))}`);
    }
  });
  pushStatic(pieces, op.fields.length === 0 ? '{}' : '}');
  const statement = columns.length === 0 ? null : { ...compile(sql`SELECT ${join(columns, ', ')}`), textRow: true };
  return { statement, pieces };
}

/**
 * A mutation: root fields run one after another in one transaction (each sees the previous one's writes), so each
 * database field is its own statement; piece `i` is the JSON text returned by statement `i`.
 */
export function compileSequential(op: OperationIR): { statements: CompiledSql[]; pieces: Piece[] } {
  const ctx = new CompileContext();
  const statements: CompiledSql[] = [];
  const pieces: Piece[] = [];
  op.fields.forEach(([key, f], i) => {
    pushStatic(pieces, `${i === 0 ? '{' : ','}${JSON.stringify(key)}:`);
    if (f.kind === 'typename') pushStatic(pieces, JSON.stringify(f.name));
    else if (f.kind === 'raw') pushStatic(pieces, f.json);
    else if (f.kind === 'mutation') {
      // A nested insert whose output reads other tables takes two statements (Note [Nested returning]): the last one's result is the piece.
      const sts = compileMutation(f.mutation, ctx);
      for (const st of sts) statements.push({ ...compile(st), errorPath: f.mutation.errorPath, standalone: sts.length === 1 });
      pieces.push(statements.length - 1);
    } else {
      pieces.push(statements.length);
      statements.push({ ...compile(sql`SELECT (${compileRootField(f, ctx)!})::text`), textRow: true });
    }
  });
  pushStatic(pieces, op.fields.length === 0 ? '{}' : '}');
  return { statements, pieces };
}

/**
 * The response text `{"data":...}` of the pieces and one result row, as one flat string (see spliced).
 */
export const dataText = (pieces: readonly Piece[], row: readonly unknown[] | null): string => spliced('{"data":', pieces, row, '}');

/** Concatenates the pieces with one result row (pg rowMode 'array'). */
export const splice = (pieces: readonly Piece[], row: readonly unknown[] | null): string => spliced('', pieces, row, '');

/**
 * head, the pieces with the row's values, tail: joined, not concatenated. A concatenation is a rope (cons string) that
 * Buffer.byteLength measures through V8's slow Utf8Length (node's fast path takes flat strings only) after
 * flattening it: ~6 µs of a 40 KB answer (perf: v8::String::Utf8Length).
 */
function spliced(head: string, pieces: readonly Piece[], row: readonly unknown[] | null, tail: string): string {
  const parts: string[] = [head];
  for (const p of pieces) parts.push(typeof p === 'string' ? p : ((row?.[p] as string | null | undefined) ?? 'null'));
  parts.push(tail);
  return parts.join('');
}
