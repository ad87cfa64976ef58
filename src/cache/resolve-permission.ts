// Resolving a permission's definition against its table: columns, presets, and boolean expressions (operators,
// columns, relationships), with the original's reasons.
import { qualifiedKey, quote as q, quoteName as qt, type QualifiedName } from '../core/names.js';
import type { PermKind } from '../../projections/metadata.js';
import { own } from '../../events/types.js';
import type { BoolExpJson, TableInfo } from './types.js';
import { fail } from './resolve.js';


const COMPARISON_OPS = new Set([
  '_eq', '_ne', '_neq', '_gt', '_lt', '_gte', '_lte', '_in', '_nin', '_like', '_nlike', '_ilike', '_nilike',
  '_similar', '_nsimilar', '_is_null', '_contains', '_contained_in', '_has_key', '_has_keys_any', '_has_keys_all',
  '_ceq', '_cne', '_cneq', '_cgt', '_clt', '_cgte', '_clte', '_st_contains', '_st_crosses', '_st_equals',
  '_st_intersects', '_st_overlaps', '_st_touches', '_st_within', '_st_d_within', '_st_3d_d_within', '_st_3d_intersects',
  '_st_intersects_rast', '_st_intersects_nband_geom', '_st_intersects_geom_nband',
  '$eq', '$ne', '$neq', '$gt', '$lt', '$gte', '$lte', '$in', '$nin', '$like', '$nlike', '$ilike', '$nilike',
  '$similar', '$nsimilar', '$is_null', '$contains', '$contained_in', '$has_key', '$has_keys_any', '$has_keys_all',
  '$ceq', '$cne', '$cneq', '$cgt', '$clt', '$cgte', '$clte',
  // PostGIS operators in the `$` spelling (the permissions corpus uses $st_d_within); added by C1
  '$st_contains', '$st_crosses', '$st_equals', '$st_intersects', '$st_overlaps', '$st_touches', '$st_within', '$st_d_within',
  '$st_intersects_rast', '$st_intersects_nband_geom', '$st_intersects_geom_nband',
]);

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function validateBoolExp(exp: unknown, info: TableInfo, tables: Record<string, TableInfo>, depth = 0): void {
  if (!isObj(exp)) fail('expecting an object for boolean expression');
  for (const [k, v] of Object.entries(exp as Record<string, unknown>)) {
    if (k === '_and' || k === '_or' || k === '$and' || k === '$or') {
      if (!Array.isArray(v)) fail(`expecting an array for ${k}`);
      for (const e of v as unknown[]) validateBoolExp(e, info, tables, depth);
    } else if (k === '_not' || k === '$not') {
      validateBoolExp(v, info, tables, depth);
    } else if (k === '_exists' || k === '$exists') {
      const e = v as Record<string, unknown>;
      const t = e && (e._table as unknown);
      const name = typeof t === 'string' ? { schema: 'public', name: t } : (t as QualifiedName | undefined);
      const target = name && tables[qualifiedKey({ schema: name.schema ?? 'public', name: name.name })];
      if (!target) fail(`table ${name ? qt({ schema: name.schema ?? 'public', name: name.name }) : '""'} does not exist`);
      validateBoolExp(e._where ?? {}, target!, tables, depth + 1);
    } else if (own(info.relationships, k)) {
      const target = tables[qualifiedKey(own(info.relationships, k)!.remoteTable)];
      if (target && depth < 16) validateBoolExp(v, target, tables, depth + 1);
    } else if (info.columns.some((c) => c.name === k)) {
      if (isObj(v)) {
        for (const op of Object.keys(v)) {
          if (!COMPARISON_OPS.has(op)) fail(`Unknown operator : ${op}`);
          const operand = v[op];
          if (/^[$_]c/.test(op) && typeof operand === 'string' && !info.columns.some((c) => c.name === operand)) {
            fail(`column ${q(operand)} does not exist`);
          }
        }
      }
    } else if (own(info.computedFields, k)) {
      // Scalar computed fields may appear in boolean expressions.
    } else {
      fail(`${q(k)} does not exist`);
    }
  }
}

/**
 * A name a permission uses as a column must be one: the original's askPGColInfo, whose message ends with what the
 * caller says about that use (`why`).
 */
function assertColumn(info: TableInfo, name: string, why: string): void {
  if (info.columns.some((x) => x.name === name)) return;
  const kind = own(info.relationships, name) ? 'relationship' : own(info.computedFields, name) ? 'computed field' : null;
  if (kind) fail(`expecting a postgres column; but, ${q(name)} is a ${kind}; ${why}`);
  fail(`column ${q(name)} does not exist`);
}

/** What the original adds when a permission's column list names a relationship or computed field. */
const COLUMNS_WHY = { select: 'permissions for relationships are automatically inferred', insert: '', update: "relationships can't be used in update" } as const;

function resolveColumns(cols: unknown, info: TableInfo, kind: keyof typeof COLUMNS_WHY): string[] {
  if (cols === undefined || cols === '*') return info.columns.map((c) => c.name);
  const list = cols as string[];
  for (const c of list) assertColumn(info, c, COLUMNS_WHY[kind]);
  return list;
}

function resolvePresets(set: unknown, info: TableInfo): Record<string, unknown> {
  const s = (isObj(set) ? set : {}) as Record<string, unknown>;
  for (const c of Object.keys(s)) assertColumn(info, c, `column ${q(c)} not found in table ${qt(info.name)}`);
  return s;
}

const MUTABILITY = { insert: 'insertable', update: 'updatable', delete: 'deletable' } as const;

export function resolvePermission(info: TableInfo, kind: PermKind, def: Record<string, unknown>, tables: Record<string, TableInfo>): unknown {
  // Mutation permissions on a view need a view Postgres can write through.
  if (kind !== 'select' && info.pg.kind !== 'table' && info.pg.kind !== 'partitioned_table' && !info.pg[MUTABILITY[kind]]) {
    fail(`view ${qt(info.name)} is not ${MUTABILITY[kind]}`);
  }
  // In the original's order of checks (the first problem is the one reported): row expressions, presets, columns.
  switch (kind) {
    case 'select': {
      const filter = (def.filter ?? {}) as BoolExpJson;
      validateBoolExp(filter, info, tables);
      const columns = resolveColumns(def.columns, info, 'select');
      const cfs = (def.computed_fields as string[] | undefined) ?? [];
      for (const c of cfs) {
        const cf = own(info.computedFields, c) ?? fail(`computed field ${q(c)} does not exist`);
        if (cf.returns.kind === 'table') {
          fail(`select permissions on computed field ${q(c)} are auto-derived from the permissions on its returning table ${qt(cf.returns.table)} and cannot be specified manually`);
        }
      }
      return { columns, computedFields: cfs, filter, limit: (def.limit as number | undefined) ?? null, allowAggregations: def.allow_aggregations === true };
    }
    case 'insert': {
      const check = (def.check ?? {}) as BoolExpJson;
      validateBoolExp(check, info, tables);
      const set = resolvePresets(def.set, info);
      return { columns: resolveColumns(def.columns, info, 'insert'), check, set, backendOnly: def.backend_only === true };
    }
    case 'update': {
      const filter = (def.filter ?? {}) as BoolExpJson;
      validateBoolExp(filter, info, tables);
      const check = (def.check ?? null) as BoolExpJson | null;
      if (check) validateBoolExp(check, info, tables);
      const set = resolvePresets(def.set, info);
      return { columns: resolveColumns(def.columns, info, 'update'), filter, check, set };
    }
    case 'delete': {
      const filter = (def.filter ?? {}) as BoolExpJson;
      validateBoolExp(filter, info, tables);
      return { filter };
    }
  }
}

