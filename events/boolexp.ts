// Walks permission boolean expressions (the `where` grammar) to find, or rename, the columns they use on their
// own table. Relationship and _exists sub-expressions belong to other tables and are left alone here.

const LOGICAL_ARRAY = new Set(['_and', '_or', '$and', '$or']);
const LOGICAL_NOT = new Set(['_not', '$not']);
/** Operators whose value is a column name of the same table. */
const COLUMN_OPS = new Set(['_ceq', '_cne', '_cneq', '_cgt', '_clt', '_cgte', '_clte', '$ceq', '$cne', '$cneq', '$cgt', '$clt', '$cgte', '$clte']);

export interface BoolExpRefs {
  /** Names used as fields of the table (columns, relationships or computed fields). */
  fields: Set<string>;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The field names an expression uses at its top level (through and/or/not), plus column-comparison operands. */
export function boolExpFields(exp: unknown, out: Set<string> = new Set()): Set<string> {
  if (!isObj(exp)) return out;
  for (const [k, v] of Object.entries(exp)) {
    if (LOGICAL_ARRAY.has(k)) {
      if (Array.isArray(v)) for (const e of v) boolExpFields(e, out);
    } else if (LOGICAL_NOT.has(k)) boolExpFields(v, out);
    else if (k === '_exists' || k === '$exists') continue;
    else {
      out.add(k);
      if (isObj(v)) for (const [op, operand] of Object.entries(v)) if (COLUMN_OPS.has(op) && typeof operand === 'string') out.add(operand);
    }
  }
  return out;
}

/** Renames one field (column) at the top level of an expression; relationship sub-expressions are untouched. */
export function renameBoolExpField(exp: Record<string, unknown>, from: string, to: string, isRelationship: (n: string) => boolean): Record<string, unknown>;
export function renameBoolExpField(exp: unknown, from: string, to: string, isRelationship: (n: string) => boolean): unknown;
export function renameBoolExpField(exp: unknown, from: string, to: string, isRelationship: (n: string) => boolean): unknown {
  if (!isObj(exp)) return exp;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(exp)) {
    if (LOGICAL_ARRAY.has(k)) out[k] = Array.isArray(v) ? v.map((e) => renameBoolExpField(e, from, to, isRelationship)) : v;
    else if (LOGICAL_NOT.has(k)) out[k] = renameBoolExpField(v, from, to, isRelationship);
    else if (k === '_exists' || k === '$exists' || isRelationship(k)) out[k] = v;
    else {
      let value = v;
      if (isObj(v)) {
        value = Object.fromEntries(Object.entries(v).map(([op, operand]) => [op, COLUMN_OPS.has(op) && operand === from ? to : operand]));
      }
      out[k === from ? to : k] = value;
    }
  }
  return out;
}

/** Sub-expressions under a named field (relationship traversal), with the field name. */
export function boolExpRelationshipParts(exp: unknown, out: Array<[string, unknown]> = []): Array<[string, unknown]> {
  if (!isObj(exp)) return out;
  for (const [k, v] of Object.entries(exp)) {
    if (LOGICAL_ARRAY.has(k)) {
      if (Array.isArray(v)) for (const e of v) boolExpRelationshipParts(e, out);
    } else if (LOGICAL_NOT.has(k)) boolExpRelationshipParts(v, out);
    else if (k !== '_exists' && k !== '$exists') out.push([k, v]);
  }
  return out;
}
