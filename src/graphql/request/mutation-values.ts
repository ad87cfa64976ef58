// Small helpers shared by the mutation translators: leaf values as ValueIR, permission presets, permission
// expressions, and a stand-in select view for tables the role cannot select (their bool_exp has no columns).
import type { BoolExpJson, ColumnPresets, TableInfo } from '../../cache/types.js';
import { qualifiedKey } from '../../core/names.js';
import type { BoolExpIR, PgTypeRef, ValueIR } from '../../ir/types.js';
import type { TableView } from '../schema/context.js';
import { typeNames } from '../schema/names.js';
import { concrete, type Parsed } from './input.js';
import { showScientific } from '../schema/scalars.js';
import { permissionToIR, pgTypeOf, presetValue } from '../../ir/permission.js';
import { plain } from './values.js';
import type { Translator } from '../role-schema.js';

export const TEXT: PgTypeRef = { type: 'text', typeSchema: 'pg_catalog', array: false };

/** `-2E-2` → `-0.02`: money input does not read exponents (numbers reach Postgres as their literal text). */
export function fixedDecimal(text: string): string {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?[eE]([+-]?\d+)$/.exec(text);
  if (!m) return text;
  const [, sign, ip, fp = '', e] = m;
  const digits = ip + fp;
  const point = ip.length + Number(e);
  const int = point <= 0 ? '0' : digits.slice(0, point).padEnd(point, '0');
  const frac = point < 0 ? '0'.repeat(-point) + digits : digits.slice(Math.max(point, 0));
  return `${sign}${int.replace(/^0+(?=\d)/, '')}${frac ? `.${frac}` : ''}`;
}

/** A leaf input value: GraphQL variables stay variables (reusable plans), everything else becomes a literal. */
export function leafValue(t: Translator, p: Parsed, pgType: PgTypeRef): ValueIR {
  if (p.kind === 'variable') return { kind: 'variable', name: p.name, path: p.path ?? [], pgType };
  const v = plain(t, p);
  if (typeof v === 'string' && /^[+-]?[\d.]+[eE][+-]?\d+$/.test(v)) {
    // The original sends numbers as Haskell shows them (-1E-30 as -1.0e-30: numeric keeps that scale).
    if (pgType.type === 'money') return { kind: 'literal', value: fixedDecimal(v), pgType };
    if (pgType.type === 'numeric') return { kind: 'literal', value: showScientific(v), pgType };
  }
  return { kind: 'literal', value: v, pgType };
}


/** A permission preset value: a session variable reference or a static value (sent as Postgres text). */
export { pgTypeOf };

export function presetValues(t: TableInfo, presets: ColumnPresets): Array<[string, ValueIR]> {
  const out: Array<[string, ValueIR]> = [];
  for (const [name, v] of Object.entries(presets)) {
    const c = t.columns.find((x) => x.name === name);
    if (c) out.push([c.name, presetValue(v, c)]);
  }
  return out;
}

/** A permission filter/check as IR; null when absent or always true. */
export function permissionIR(t: Translator, table: TableInfo, exp: BoolExpJson | null): BoolExpIR | null {
  if (exp === null) return null;
  const ir = permissionToIR(t.rs.ctx.cache, table, exp);
  return ir.kind === 'true' ? null : ir;
}

/** The role's select view of a table, or an empty stand-in (no columns or relationships to filter on). */
export function viewOrStub(t: Translator, table: TableInfo): TableView {
  const key = qualifiedKey(table.name);
  const view = t.rs.ctx.tables.get(key);
  if (view) return view;
  return {
    key,
    info: table,
    access: { admin: false, columns: new Set(), computedFields: new Set(), filter: null, limit: null, allowAggregations: false },
    names: typeNames(table.name),
    columns: [],
    columnByField: new Map(),
    objectRels: new Map(),
    arrayRels: new Map(),
    computed: new Map(),
    numericColumns: [],
    comparableColumns: [],
  };
}

/** Fields of an input object (variables resolved); empty for null. */
export function objectFields(t: Translator, p: Parsed | undefined): Array<[string, Parsed]> {
  if (p === undefined) return [];
  const c = concrete(p, t.cc.lc);
  return c.kind === 'object' ? c.fields : [];
}

export function listItems(t: Translator, p: Parsed | undefined): Parsed[] {
  if (p === undefined) return [];
  const c = concrete(p, t.cc.lc);
  if (c.kind === 'null') return [];
  return c.kind === 'list' ? c.items : [c];
}

export const isNullValue = (t: Translator, p: Parsed | undefined): boolean => p === undefined || concrete(p, t.cc.lc).kind === 'null';

export const enumValue = (t: Translator, p: Parsed): string => {
  const c = concrete(p, t.cc.lc);
  return c.kind === 'enum' || c.kind === 'scalar' ? String(c.value) : '';
};
