// SQL function calls: tracked functions as row sources and computed fields (the row argument is the current row).
import type { QualifiedName } from '../core/names.js';
import type { FunctionArgIR, SelectSource } from '../ir/types.js';
import { ident, join, sql, type SQL } from './builder.js';
import { typedParam } from './boolexp.js';

/** `"schema"."fn"(a, name => b)`; `rowAlias` is the whole-row reference passed for `row` arguments. */
export function functionCall(fn: QualifiedName, args: readonly FunctionArgIR[], rowAlias: string | null): SQL {
  const items = args.map((a) => {
    let v: SQL;
    if (a.kind === 'row') {
      if (rowAlias === null) throw new Error(`function ${fn.name}: row argument outside a table row`);
      v = ident(rowAlias);
    } else v = typedParam(a.value);
    return a.name === null ? v : sql`${ident(a.name)} => ${v}`;
  });
  return sql`${ident(fn.schema, fn.name)}(${join(items, ', ')})`;
}

/** A FROM item for a select source. */
export function sourceSql(source: SelectSource, parentAlias: string | null): SQL {
  if (source.kind === 'relation') return ident(source.name);
  return source.kind === 'table' ? ident(source.table.schema, source.table.name) : functionCall(source.function, source.args, parentAlias);
}
