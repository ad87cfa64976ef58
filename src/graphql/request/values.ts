// What every request → IR module uses while translating (the Translator itself is in ../role-schema.ts): permission
// filters per table, values as ValueIR (variables stay variables), concrete values, the Postgres types of literals.
import type { ColumnInfo } from '../../cache/types.js';
import type { BoolExpIR, PgTypeRef, ValueIR } from '../../ir/types.js';
import type { GraphQLObjectType } from 'graphql';
import type { Translator } from '../role-schema.js';
import type { TableView } from '../schema/context.js';
import { concrete, type Parsed } from './input.js';
import { permissionToIR } from '../../ir/permission.js';
import { schemaTypes } from '../schema-types.js';

export const INT8: PgTypeRef = { type: 'int8', typeSchema: 'pg_catalog', array: false };
export const BOOL: PgTypeRef = { type: 'bool', typeSchema: 'pg_catalog', array: false };

export function permFilter(t: Translator, view: TableView): BoolExpIR | null {
  if (!t.perm.has(view.key)) {
    const f = view.access.filter === null ? null : permissionToIR(t.rs.ctx.cache, view.info, view.access.filter);
    t.perm.set(view.key, f && f.kind === 'true' ? null : f);
  }
  return t.perm.get(view.key) ?? null;
}

export const objectType = (t: Translator, name: string): GraphQLObjectType => schemaTypes(t.rs).getType(name) as GraphQLObjectType;

export const FLOAT8: PgTypeRef = { type: 'float8', typeSchema: 'pg_catalog', array: false };
export const INT4: PgTypeRef = { type: 'int4', typeSchema: 'pg_catalog', array: false };

export function fieldsOf(t: Translator, p: Parsed): Map<string, Parsed> {
  const o = concrete(p, t.cc.lc);
  return new Map(o.kind === 'object' ? o.fields : []);
}


export const colPgType = (c: ColumnInfo, array = c.isArray): PgTypeRef => ({ type: c.type, typeSchema: c.typeSchema, array });

/** A leaf input as a ValueIR: variables stay variables; lists with variables inside are resolved. */
export function valueIR(t: Translator, p: Parsed, pgType: PgTypeRef): ValueIR {
  if (p.kind === 'variable') return { kind: 'variable', name: p.name, path: p.path ?? [], pgType };
  const c = concrete(p, t.cc.lc);
  return { kind: 'literal', value: plain(t, c), pgType };
}

export function plain(t: Translator, p: Parsed): unknown {
  const c = concrete(p, t.cc.lc);
  switch (c.kind) {
    case 'null': return null;
    case 'scalar': return c.value;
    case 'enum': return c.value;
    case 'list': return c.items.map((x) => plain(t, x));
    case 'object': return Object.fromEntries(c.fields.map(([k, v]) => [k, plain(t, v)]));
  }
}

export const isNull = (p: Parsed | undefined): boolean => p === undefined || p.kind === 'null';

