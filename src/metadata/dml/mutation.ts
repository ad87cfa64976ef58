// v1 `insert`, `update` and `delete` → the mutation IR (src/ir/mutation.ts) → one statement by the mutation compiler.
// Permissions as the original applies them: insert/update/delete permission required, presets applied (and not
// settable), filters ANDed into `where`, checks on the new rows, `where` and `returning` limited by the select
// permission. Responses: {"affected_rows": n, "returning"?: [...]}.
import { displayName, quote as q } from '../../core/names.js';
import type { ColumnInfo, TableInfo } from '../../cache/types.js';
import type { MutationIR, MutationOutputIR, MutationResponseFieldIR, OnConflictIR, UpdateIR, UpdateOpKind } from '../../ir/mutation.js';
import type { BoolExpIR, FieldIR, PgTypeRef, ValueIR } from '../../ir/types.js';
import { CompileContext } from '../../sql/context.js';
import { compileMutation } from '../../sql/mutation-statement.js';
import { andIR } from '../../ir/permission.js';
import { presetValue } from '../../ir/permission.js';
import { array, isObj, object, optional, parseFailed, required, string, stringList, tableName } from './args.js';
import { WhereParser } from './boolexp.js';
import { boolExpValues, Dml, dmlError, type SelectAccess } from './context.js';

const colType = (c: ColumnInfo): PgTypeRef => ({ type: c.type, typeSchema: c.typeSchema, array: c.isArray });

/**
 * A value written to a column. The original sends numbers for `numeric` columns in Postgres's binary format, whose
 * display scale is a multiple of 4 digits: 12345.67 is stored as 12345.6700. Text with that scale does the same.
 */
function columnLiteral(c: ColumnInfo, v: unknown): ValueIR {
  const value = c.type === 'numeric' && !c.isArray && typeof v === 'number' && Number.isFinite(v) ? numericText(v) : v;
  return { kind: 'literal', value, pgType: colType(c) };
}

export function numericText(n: number): string {
  const [mantissa, expText] = n.toExponential().split('e');
  const exp = Number(expText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  // value = 0.d1d2... * 10^(exp + 1)
  const point = exp + 1;
  let int: string;
  let frac: string;
  if (point <= 0) {
    int = '0';
    frac = '0'.repeat(-point) + digits;
  } else if (point >= digits.length) {
    int = digits + '0'.repeat(point - digits.length);
    frac = '';
  } else {
    int = digits.slice(0, point);
    frac = digits.slice(point);
  }
  frac = frac.replace(/0+$/, '');
  if (frac.length % 4 !== 0) frac += '0'.repeat(4 - (frac.length % 4));
  return `${negative ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

/** A view must accept the operation (pg_relation_is_updatable), as the original checks before permissions. */
function mutable(table: TableInfo, what: 'insertable' | 'updatable' | 'deletable'): void {
  const ok = what === 'insertable' ? table.pg.insertable : what === 'updatable' ? table.pg.updatable : table.pg.deletable;
  if (!ok) throw dmlError('not-supported', `view ${q(displayName(table.name))} is not ${what}`);
}

/** Collects every value of the statement whose session variable must be present. */
class Values {
  readonly all: ValueIR[] = [];
  exp(e: BoolExpIR | null): BoolExpIR | null {
    this.all.push(...boolExpValues(e));
    return e;
  }
  list<T extends [string, ValueIR]>(xs: T[]): T[] {
    for (const [, v] of xs) this.all.push(v);
    return xs;
  }
}

function presets(table: TableInfo, set: Record<string, unknown> | undefined): Array<[string, ValueIR]> {
  const out: Array<[string, ValueIR]> = [];
  for (const [name, v] of Object.entries(set ?? {})) {
    const c = table.columns.find((x) => x.name === name);
    if (c) out.push([c.name, presetValue(v, c)]);
  }
  return out;
}

/**
 * `returning`: every column must be selectable (errors at `$.args.returning`); without `select` access given (insert),
 * the select permission is required for it.
 */
function returningFields(d: Dml, table: TableInfo, raw: unknown, select?: SelectAccess): Array<[string, FieldIR]> | null {
  if (raw === undefined) return null;
  const cols = stringList(raw, ['returning']);
  const access = select ?? d.requireSelect(table, '; "returning" can only be used if the role has "select" permission on the table');
  for (const c of cols) if (!access.columns.has(c) || !table.columns.some((x) => x.name === c)) throw d.columnDenied('select', c, 'returning');
  return cols.map((c) => [c, d.columnField(table, c)]);
}

function output(returning: Array<[string, FieldIR]> | null): MutationOutputIR {
  const fields: Array<[string, MutationResponseFieldIR]> = [['affected_rows', { kind: 'affected_rows' }]];
  if (returning) fields.push(['returning', { kind: 'returning', fields: returning }]);
  return { kind: 'response', fields };
}

async function run(d: Dml, m: MutationIR, values: Values): Promise<unknown> {
  d.checkSessionVariables(values.all);
  const [statement] = compileMutation(m, new CompileContext());
  return d.statementJson(statement);
}

/** Update and delete read their `where` (and `returning`) with the select permission, which they therefore require. */
const requireSelectFor = (d: Dml, table: TableInfo, op: 'update' | 'delete'): SelectAccess =>
  d.requireSelect(table, `; "${op}" is only allowed if the role has "select" permission as "where" can't be used without "select" permission on the table`);

// ---------------------------------------------------------------------------------------------------------------
// insert

function parseOnConflict(raw: unknown): { action: 'ignore' | 'update'; constraint?: string; constraintOn?: string[] } | null {
  if (raw === undefined) return null;
  const o = object(raw, ['on_conflict'], 'OnConflict');
  if (o.action === undefined) throw parseFailed("the key 'action' was not present", ['on_conflict']);
  if (o.action !== 'ignore' && o.action !== 'update') {
    throw parseFailed(`expected one of "ignore", "update", but encountered ${JSON.stringify(o.action)}`, ['on_conflict', 'action']);
  }
  const constraint = optional(o, 'constraint');
  const constraintOn = optional(o, 'constraint_on');
  return {
    action: o.action,
    constraint: constraint === undefined ? undefined : string(constraint, ['on_conflict', 'constraint']),
    constraintOn: constraintOn === undefined ? undefined : stringList(constraintOn, ['on_conflict', 'constraint_on']),
  };
}

function conflictTarget(d: Dml, table: TableInfo, oc: NonNullable<ReturnType<typeof parseOnConflict>>): string {
  if (oc.constraint !== undefined && oc.constraintOn !== undefined) {
    throw dmlError('unexpected-payload', "'constraint' and 'constraint_on' cannot be set at a time", 'on_conflict');
  }
  const constraints = [...(table.pg.primaryKey ? [table.pg.primaryKey] : []), ...table.pg.uniqueConstraints];
  if (oc.constraint !== undefined) {
    if (!constraints.some((c) => c.name === oc.constraint)) {
      throw dmlError('unexpected', `constraint ${q(oc.constraint)} for table ${q(displayName(table.name))} does not exist`, 'on_conflict', 'constraint');
    }
    return oc.constraint;
  }
  if (oc.constraintOn !== undefined) {
    oc.constraintOn.forEach((c, i) => {
      if (!table.columns.some((x) => x.name === c)) throw dmlError('not-exists', `column ${q(c)} does not exist`, 'on_conflict', 'constraint_on', i);
    });
    const want = [...new Set(oc.constraintOn)].sort().join(',');
    const match = constraints.find((c) => [...c.columns].sort().join(',') === want);
    if (!match) throw dmlError('constraint-error', 'there is no unique or exclusion constraint on target column(s)', 'on_conflict');
    return match.name;
  }
  if (oc.action === 'update') {
    throw dmlError('unexpected-payload', "Expecting 'constraint' or 'constraint_on' when the 'action' is 'update'", 'on_conflict');
  }
  return '';
}

export async function runInsert(d: Dml, raw: unknown): Promise<unknown> {
  const o = object(raw, [], 'InsertQuery');
  const name = tableName(required(o, 'table', []), ['table']);
  const objectsRaw = required(o, 'objects', []);
  const objects = isObj(objectsRaw) ? [objectsRaw] : array(objectsRaw, ['objects'], '[Object]').map((x, i) => object(x, ['objects', i]));
  const onConflict = parseOnConflict(optional(o, 'on_conflict'));
  const returningRaw = optional(o, 'returning');
  if (objects.length === 0) throw dmlError('unexpected-payload', 'objects should not be empty', 'objects');

  const table = d.table(name);
  mutable(table, 'insertable');
  const perm = d.admin ? null : table.permissions[d.role]?.insert;
  if (!d.admin && !perm) throw dmlError('permission-denied', d.notAllowed('insert', table));
  const values = new Values();
  const returning = returningFields(d, table, returningRaw);
  const allowed = new Set(perm ? perm.columns : table.columns.map((c) => c.name));
  const preset = values.list(presets(table, perm?.set));
  const presetCols = new Set(preset.map(([c]) => c));
  const given = new Set<string>();
  const rows = objects.map((obj, i) => {
    const vals: Array<[string, ValueIR]> = [];
    for (const [k, v] of Object.entries(obj)) {
      const c = table.columns.find((x) => x.name === k);
      if (!c) {
        throw table.relationships[k]
          ? dmlError('unexpected-payload', `expecting a postgres column; but, ${q(k)} is a relationship; relationships can't be inserted`, 'objects', i)
          : dmlError('not-exists', `column ${q(k)} does not exist`, 'objects', i);
      }
      if (presetCols.has(c.name)) {
        throw dmlError('not-supported', `column ${q(c.name)} is not insertable for role ${q(d.role)}`, 'objects', i);
      }
      if (!allowed.has(c.name)) throw d.columnDenied('insert', c.name, 'objects', i);
      vals.push([c.name, columnLiteral(c, v)]);
      given.add(c.name);
    }
    return { values: [...preset, ...vals], objectRelationships: [], arrayRelationships: [] };
  });

  let conflict: OnConflictIR | null = null;
  let updateCheck: BoolExpIR | null = null;
  if (onConflict) {
    const upd = d.admin ? null : table.permissions[d.role]?.update;
    if (!d.admin && !upd) {
      throw dmlError('permission-denied', `upsert is not allowed for role ${q(d.role)} since update permissions are not defined`, 'on_conflict');
    }
    const constraint = conflictTarget(d, table, onConflict);
    if (onConflict.action === 'update' && upd) {
      // The inserted columns are the ones an upsert updates: the update permission must allow them.
      const updatable = new Set(upd.columns);
      for (const c of table.columns) {
        if (given.has(c.name) && !updatable.has(c.name)) throw dmlError('validation-failed', `column ${q(c.name)} is not updatable`, 'on_conflict');
      }
    }
    conflict = onConflict.action === 'ignore'
      ? { constraint, updateColumns: [], where: null, presets: [] }
      : {
        constraint,
        updateColumns: table.columns.map((c) => c.name).filter((c) => given.has(c)),
        where: values.exp(upd ? d.permission(table, upd.filter) : null),
        presets: values.list(presets(table, upd?.set)),
      };
    if (onConflict.action === 'update' && upd) updateCheck = values.exp(d.permission(table, upd.check));
  }
  const m: MutationIR = {
    kind: 'insert',
    insert: {
      table: table.name,
      columns: table.columns.map((c) => c.name),
      rows,
      onConflict: conflict,
      check: values.exp(perm ? d.permission(table, perm.check) : null),
      updateCheck,
    },
    output: output(returning),
  };
  return run(d, m, values);
}

// ---------------------------------------------------------------------------------------------------------------
// update

const OPERATORS: Array<[string, UpdateOpKind]> = [['$set', 'set'], ['$inc', 'inc'], ['$mul', 'mul'], ['$default', 'default']];

export async function runUpdate(d: Dml, raw: unknown): Promise<unknown> {
  const o = object(raw, [], 'UpdateQuery');
  const name = tableName(required(o, 'table', []), ['table']);
  const whereRaw = required(o, 'where', []);
  const opsRaw = new Map<string, unknown>();
  for (const [key] of OPERATORS) {
    const v = optional(o, key);
    if (v === undefined) continue;
    if (key === '$default') stringList(v, [key]);
    else object(v, [key]);
    opsRaw.set(key, v);
  }
  const returningRaw = optional(o, 'returning');

  const table = d.table(name);
  mutable(table, 'updatable');
  const perm = d.admin ? null : table.permissions[d.role]?.update;
  if (!d.admin && !perm) throw dmlError('permission-denied', d.notAllowed('update', table));
  const values = new Values();
  const select = requireSelectFor(d, table, 'update');
  const allowed = new Set(perm ? perm.columns : table.columns.map((c) => c.name));
  const preset = values.list(presets(table, perm?.set));
  const presetCols = new Set(preset.map(([c]) => c));
  const ops: UpdateIR['ops'] = preset.map(([column, value]) => ({ column, op: 'set', value }));
  for (const [key, op] of OPERATORS) {
    const v = opsRaw.get(key);
    if (v === undefined) continue;
    const entries: Array<[string, unknown]> = op === 'default' ? (v as string[]).map((c) => [c, null]) : Object.entries(v as Record<string, unknown>);
    for (const [col, value] of entries) {
      if (presetCols.has(col)) {
        throw dmlError('not-supported', `column ${q(col)} is not updatable for role ${q(d.role)}; its value is predefined in permission`, key);
      }
      if (!allowed.has(col)) throw d.columnDenied('update', col, key);
      const c = table.columns.find((x) => x.name === col);
      if (!c) throw dmlError('not-exists', `column ${q(col)} does not exist`, key);
      ops.push({ column: c.name, op, value: columnLiteral(c, value) });
    }
  }
  const returning = returningFields(d, table, returningRaw, select);
  if (ops.length === 0) throw dmlError('unexpected-payload', 'atleast one of $set, $inc, $mul has to be present');
  const where = new WhereParser(d, ['where']).parse(table, select, whereRaw);
  const m: MutationIR = {
    kind: 'update',
    update: {
      table: table.name,
      columns: table.columns.map((c) => c.name),
      where: values.exp(andIR([where, perm ? d.permission(table, perm.filter) : null])),
      ops,
      check: values.exp(perm?.check ? d.permission(table, perm.check) : null),
    },
    output: output(returning),
  };
  return run(d, m, values);
}

// ---------------------------------------------------------------------------------------------------------------
// delete

export async function runDelete(d: Dml, raw: unknown): Promise<unknown> {
  const o = object(raw, [], 'DeleteQuery');
  const name = tableName(required(o, 'table', []), ['table']);
  const whereRaw = required(o, 'where', []);
  const returningRaw = optional(o, 'returning');

  const table = d.table(name);
  mutable(table, 'deletable');
  const perm = d.admin ? null : table.permissions[d.role]?.delete;
  if (!d.admin && !perm) throw dmlError('permission-denied', d.notAllowed('delete', table));
  const values = new Values();
  const select = requireSelectFor(d, table, 'delete');
  const returning = returningFields(d, table, returningRaw, select);
  const where = new WhereParser(d, ['where']).parse(table, select, whereRaw);
  const m: MutationIR = {
    kind: 'delete',
    delete: {
      table: table.name,
      columns: table.columns.map((c) => c.name),
      where: values.exp(andIR([where, perm ? d.permission(table, perm.filter) : null])),
    },
    output: output(returning),
  };
  return run(d, m, values);
}
