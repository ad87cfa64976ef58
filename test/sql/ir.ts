// Small constructors for hand-built IR in the SQL compiler tests.
import type { RelationshipInfo } from '../../src/cache/types.js';
import type { AggregateIR, BoolExpIR, FieldIR, OrderByIR, PgTypeRef, SelectArgsIR, SelectIR, SelectSource, ValueIR } from '../../src/ir/types.js';
import type { OperationIR, RootFieldIR } from '../../src/ir/operation.js';

export const T = (type: string, array = false): PgTypeRef => ({ type, typeSchema: 'pg_catalog', array });
export const table = (name: string, schema = 'public'): SelectSource => ({ kind: 'table', table: { schema, name } });
export const lit = (value: unknown, type = 'int4', array = false): ValueIR => ({ kind: 'literal', value, pgType: T(type, array) });
export const variable = (name: string, type = 'int4', path: Array<string | number> = [], array = false): ValueIR =>
  ({ kind: 'variable', name, path, pgType: T(type, array) });

export const args = (a: Partial<SelectArgsIR> = {}): SelectArgsIR => ({
  where: null, orderBy: [], limit: null, permissionLimit: null, offset: null, distinctOn: null, ...a,
});

export const col = (column: string, type = 'int4', extra: Partial<Extract<FieldIR, { kind: 'column' }>> = {}): FieldIR =>
  ({ kind: 'column', column, type, isArray: false, stringify: false, ...extra });

export const cols = (...names: string[]): Array<[string, FieldIR]> => names.map((n) => [n, col(n)]);

export const select = (source: SelectSource, fields: Array<[string, FieldIR]>, a: Partial<SelectArgsIR> = {}): SelectIR =>
  ({ source, args: args(a), fields });

export const rel = (name: string, kind: 'object' | 'array', remote: string, mapping: Array<[string, string]>): RelationshipInfo =>
  ({ name, kind, remoteTable: { schema: 'public', name: remote }, mapping, insertRemoteFirst: false, comment: null });

export const asc = (column: string): OrderByIR => ({ target: { kind: 'column', column }, direction: 'asc', nulls: 'last' });
export const desc = (column: string): OrderByIR => ({ target: { kind: 'column', column }, direction: 'desc', nulls: 'first' });

export const eq = (column: string, value: ValueIR): BoolExpIR => ({ kind: 'column', column, op: '_eq', value });

export const query = (...fields: Array<[string, RootFieldIR]>): OperationIR => ({ operation: 'query', fields, reusable: true });
export const rootSelect = (s: SelectIR): RootFieldIR => ({ kind: 'select', select: s });
export const rootOne = (s: SelectIR): RootFieldIR => ({ kind: 'select_one', select: s });
export const rootAgg = (a: AggregateIR): RootFieldIR => ({ kind: 'aggregate', aggregate: a });
