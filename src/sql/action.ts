// An action's output with relationships to tables → ONE statement: the handler's objects come in as one json
// parameter (ACTION_RESPONSE, always an array), each becomes a row whose fields are json columns (plus typed
// copies of the fields a relationship maps), and the relationships are the usual lateral selects with the caller's
// permission filters and limits. Outputs without relationships never reach SQL (src/actions/execute.ts).
import type { ActionOutputIR, ActionRootIR } from '../ir/action.js';
import type { FieldIR, PgTypeRef } from '../ir/types.js';
import type { RelationshipInfo } from '../cache/types.js';
import { compile, empty, ident, join, literal, sql, type CompiledSql, type SQL } from './builder.js';
import { CompileContext } from './context.js';
import { rowObject } from './select.js';
import { rowJson } from './json.js';
import { typedParam, typeName } from './boolexp.js';

/** The variable name under which the executor passes the handler's objects (a JSON array). */
export const ACTION_RESPONSE = '$action_response';

const JSON_T: PgTypeRef = { type: 'json', typeSchema: 'pg_catalog', array: false };
/** The column holding a mapped field cast to the remote column's type. */
const typedColumn = (field: string): string => `${field}#typed`;

/**
 * Mapped fields are cast to the remote column's type (a typed copy beside the json one). `single`: the result is
 * the first row's object (or null), else an array in the handler's order.
 */
export function compileActionOutput(out: ActionOutputIR, single: boolean): CompiledSql {
  const param = typedParam({ kind: 'variable', name: ACTION_RESPONSE, path: [], pgType: JSON_T });
  return compile(sql`SELECT (${actionOutputQuery(out, single, param, new CompileContext())})::text`);
}

/** The output as a json-valued query over `source` (a json array expression). */
function actionOutputQuery(out: ActionOutputIR, single: boolean, source: SQL, ctx: CompileContext): SQL {
  const mappedTypes = new Map<string, PgTypeRef>();
  for (const [, f] of out.fields) if (f.kind === 'relationship') for (const m of f.mapping) mappedTypes.set(m.field, m.pgType);
  const alias = '_action';
  const cols: SQL[] = [sql`e.ord`];
  for (const f of out.spec) cols.push(sql`e.obj -> ${literal(f.name)} AS ${ident(f.name)}`);
  for (const [field, t] of mappedTypes) cols.push(sql`(e.obj ->> ${literal(field)})::${typeName(t)} AS ${ident(typedColumn(field))}`);
  const base = sql`(SELECT ${join(cols, ', ')} FROM json_array_elements(${source}) WITH ORDINALITY AS e(obj, ord)) AS ${ident(alias)}`;
  const fields: Array<[string, FieldIR]> = out.fields.map(([key, f]): [string, FieldIR] => {
    if (f.kind === 'typename') return [key, { kind: 'typename', name: f.name }];
    if (f.kind === 'field') return [key, { kind: 'column', column: f.name, type: 'json', isArray: false, stringify: false }];
    const relationship: RelationshipInfo = {
      name: key, kind: f.array ? 'array' : 'object', remoteTable: f.select.source.kind === 'table' ? f.select.source.table : { schema: 'public', name: '' },
      mapping: f.mapping.map((m): [string, string] => [typedColumn(m.field), m.column]), insertRemoteFirst: false, comment: null,
    };
    return [key, f.array ? { kind: 'array_relationship', relationship, select: f.select } : { kind: 'object_relationship', relationship, select: f.select }];
  });
  const laterals: SQL[] = [];
  const obj = rowObject(fields, alias, ctx, laterals);
  return single
    ? sql`SELECT ${obj} FROM ${base}${laterals} ORDER BY ${ident(alias, 'ord')} LIMIT 1`
    : sql`SELECT coalesce(json_agg(${obj} ORDER BY ${ident(alias, 'ord')}), '[]') FROM ${base}${laterals}`;
}

/** The variable holding the id asked for by `<action>(id:)`. */
export const ACTION_ID = '$action_id';

/**
 * `<action>(id:)`: the stored call as an object, or no row (null) when there is none or, for a non-admin, when it
 * was made with other session variables. `output` is built from the stored response like a sync action's.
 */
export function compileActionStatus(ir: Extract<ActionRootIR, { kind: 'action_status' }>): CompiledSql {
  const id = typedParam({ kind: 'variable', name: ACTION_ID, path: [], pgType: UUID });
  return compile(sql`SELECT (${actionStatusQuery(ir, id, new CompileContext())})::text`);
}

/**
 * The same as a json-valued query whose id is read where the request has it (a literal or a variable): a live
 * query's field (subscription `<action>(id:)`, src/sql/live.ts), one parameter row per subscriber.
 */
export function actionStatusRoot(ir: Extract<ActionRootIR, { kind: 'action_status' }>, ctx: CompileContext): SQL {
  const t = ir.id;
  const id = t.kind === 'variable'
    ? typedParam({ kind: 'variable', name: t.name, path: t.path, pgType: UUID })
    : t.kind === 'json' ? typedParam({ kind: 'literal', value: t.value, pgType: UUID }) : sql`NULL::uuid`;
  return actionStatusQuery(ir, id, ctx);
}

const UUID: PgTypeRef = { type: 'uuid', typeSchema: 'pg_catalog', array: false };

function actionStatusQuery(ir: Extract<ActionRootIR, { kind: 'action_status' }>, id: SQL, ctx: CompileContext): SQL {
  const pairs = ir.fields.map(([key, f]): [string, SQL] => {
    switch (f.kind) {
      case 'typename': return [key, sql`${literal(f.name)}::text`];
      case 'id': return [key, sql`l.id`];
      case 'created_at': return [key, sql`l.created_at`];
      case 'errors': return [key, sql`l.errors`];
      case 'output': {
        const payload = sql`l.response_payload::json`;
        const source = sql`CASE WHEN json_typeof(${payload}) = 'array' THEN ${payload} ELSE json_build_array(${payload}) END`;
        return [key, sql`CASE WHEN l.response_payload IS NULL THEN NULL ELSE (${actionOutputQuery(f.output, !f.output.list, source, ctx)}) END`];
      }
    }
  });
  const own = ir.admin ? empty : sql` AND l.session_variables = ${typedParam({ kind: 'session_object' })}::jsonb`;
  const laterals: SQL[] = [];
  const obj = rowJson(pairs, ctx, laterals);
  return sql`SELECT ${obj} FROM engine_catalog.hdb_action_log AS l${laterals} WHERE l.id = ${id} AND l.action_name = ${literal(ir.action)}${own}`;
}
