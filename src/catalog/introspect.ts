// Introspects the Postgres catalog in one query: every user relation with its columns and constraints, and every
// user function. Postgres builds the JSON; Node only reshapes it into PgCatalog.
import type pg from 'pg';
import type { PgCatalog, PgFunction, PgTable } from './types.js';
import { qualifiedKey } from '../core/names.js';

// System schemas and our own catalog are never user objects.
const EXCLUDED_SCHEMAS = ['pg_catalog', 'information_schema', 'engine_catalog', 'engine_views', 'pg_toast'];

const TYPE_KIND = `CASE t.typtype WHEN 'b' THEN 'base' WHEN 'e' THEN 'enum' WHEN 'c' THEN 'composite' WHEN 'd' THEN 'domain'
  WHEN 'r' THEN 'range' WHEN 'm' THEN 'multirange' ELSE 'pseudo' END`;

// Note [One introspection query]
// Tables, columns, keys and functions come back as one JSON document so a catalog read is one round trip,
// which matters because every metadata write introspects inside its transaction.
export const INTROSPECTION_SQL = `
WITH rels AS (
  SELECT c.oid, n.nspname AS schema, c.relname AS name, c.relkind,
         obj_description(c.oid, 'pg_class') AS comment
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE c.relkind IN ('r', 'v', 'm', 'f', 'p')
     AND n.nspname <> ALL ($1::text[]) AND n.nspname NOT LIKE 'pg\\_temp\\_%' AND n.nspname NOT LIKE 'pg\\_toast%'
     AND NOT c.relispartition
), cols AS (
  SELECT a.attrelid AS oid, json_agg(json_build_object(
           'name', a.attname,
           'position', a.attnum,
           'type', et.typname,
           'typeSchema', en.nspname,
           'typeKind', (SELECT ${TYPE_KIND} FROM pg_type t WHERE t.oid = et.oid),
           'isArray', t.typcategory = 'A',
           'formattedType', format_type(a.atttypid, a.atttypmod),
           'nullable', NOT a.attnotnull,
           'hasDefault', a.atthasdef OR a.attidentity <> '',
           'isIdentity', a.attidentity <> '',
           'isGenerated', a.attgenerated <> '',
           'comment', col_description(a.attrelid, a.attnum)
         ) ORDER BY a.attnum) AS columns
    FROM pg_attribute a
    JOIN rels r ON r.oid = a.attrelid
    JOIN pg_type t ON t.oid = a.atttypid
    JOIN pg_type et ON et.oid = CASE WHEN t.typcategory = 'A' AND t.typelem <> 0 THEN t.typelem ELSE t.oid END
    JOIN pg_namespace en ON en.oid = et.typnamespace
   WHERE a.attnum > 0 AND NOT a.attisdropped
   GROUP BY a.attrelid
), cons AS (
  SELECT con.conrelid AS oid,
    (SELECT json_build_object('name', k.conname, 'columns',
              (SELECT json_agg(att.attname ORDER BY u.ord) FROM unnest(k.conkey) WITH ORDINALITY u(attnum, ord)
                 JOIN pg_attribute att ON att.attrelid = k.conrelid AND att.attnum = u.attnum))
       FROM pg_constraint k WHERE k.conrelid = con.conrelid AND k.contype = 'p') AS primary_key,
    coalesce((SELECT json_agg(json_build_object('name', k.conname, 'columns',
              (SELECT json_agg(att.attname ORDER BY u.ord) FROM unnest(k.conkey) WITH ORDINALITY u(attnum, ord)
                 JOIN pg_attribute att ON att.attrelid = k.conrelid AND att.attnum = u.attnum)) ORDER BY k.conname)
       FROM pg_constraint k WHERE k.conrelid = con.conrelid AND k.contype = 'u'), '[]') AS uniques,
    coalesce((SELECT json_agg(json_build_object(
              'name', k.conname,
              'columns', (SELECT json_agg(att.attname ORDER BY u.ord) FROM unnest(k.conkey) WITH ORDINALITY u(attnum, ord)
                 JOIN pg_attribute att ON att.attrelid = k.conrelid AND att.attnum = u.attnum),
              'refTable', json_build_object('schema', fn.nspname, 'name', fc.relname),
              'refColumns', (SELECT json_agg(att.attname ORDER BY u.ord) FROM unnest(k.confkey) WITH ORDINALITY u(attnum, ord)
                 JOIN pg_attribute att ON att.attrelid = k.confrelid AND att.attnum = u.attnum)) ORDER BY k.conname)
       FROM pg_constraint k JOIN pg_class fc ON fc.oid = k.confrelid JOIN pg_namespace fn ON fn.oid = fc.relnamespace
      WHERE k.conrelid = con.conrelid AND k.contype = 'f'), '[]') AS fkeys
    FROM (SELECT DISTINCT conrelid FROM pg_constraint WHERE conrelid IN (SELECT oid FROM rels)) con
), funcs AS (
  SELECT json_agg(json_build_object(
           'name', json_build_object('schema', n.nspname, 'name', p.proname),
           'oid', p.oid,
           'volatility', CASE p.provolatile WHEN 'i' THEN 'immutable' WHEN 's' THEN 'stable' ELSE 'volatile' END,
           'returnsSet', p.proretset,
           'returnType', json_build_object('schema', rn.nspname, 'name', rt.typname),
           'returnTypeKind', (SELECT ${TYPE_KIND} FROM pg_type t WHERE t.oid = rt.oid),
           'returnsTable', (SELECT json_build_object('schema', tn.nspname, 'name', tc.relname)
                              FROM pg_class tc JOIN pg_namespace tn ON tn.oid = tc.relnamespace
                             WHERE tc.oid = rt.typrelid AND rt.typrelid <> 0),
           'args', coalesce((
              SELECT json_agg(json_build_object(
                       'name', NULLIF(p.proargnames[a.ord], ''),
                       'type', at.typname,
                       'typeSchema', an.nspname,
                       'mode', CASE coalesce(p.proargmodes[a.ord], 'i') WHEN 'i' THEN 'in' WHEN 'o' THEN 'out'
                                 WHEN 'b' THEN 'inout' WHEN 'v' THEN 'variadic' ELSE 'table' END,
                       'hasDefault', a.ord > (coalesce(array_length(p.proargtypes::oid[], 1), 0) - p.pronargdefaults)
                                     AND coalesce(p.proargmodes[a.ord], 'i') IN ('i', 'b', 'v')
                     ) ORDER BY a.ord)
                FROM unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) WITH ORDINALITY a(typ, ord)
                JOIN pg_type at ON at.oid = a.typ JOIN pg_namespace an ON an.oid = at.typnamespace), '[]'),
           'comment', obj_description(p.oid, 'pg_proc'),
           'definition', p.prosrc
         ) ORDER BY n.nspname, p.proname, p.oid) AS functions
    FROM pg_proc p
    JOIN pg_namespace n ON n.oid = p.pronamespace
    JOIN pg_type rt ON rt.oid = p.prorettype
    JOIN pg_namespace rn ON rn.oid = rt.typnamespace
   WHERE n.nspname <> ALL ($1::text[]) AND n.nspname NOT LIKE 'pg\\_%' AND p.prokind = 'f'
     AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
)
SELECT json_build_object(
  'serverVersion', current_setting('server_version_num')::int,
  'tables', coalesce((SELECT json_agg(json_build_object(
       'name', json_build_object('schema', r.schema, 'name', r.name),
       'oid', r.oid,
       'kind', CASE r.relkind WHEN 'r' THEN 'table' WHEN 'v' THEN 'view' WHEN 'm' THEN 'materialized_view'
                 WHEN 'f' THEN 'foreign_table' ELSE 'partitioned_table' END,
       'comment', r.comment,
       'columns', coalesce(cols.columns, '[]'),
       'primaryKey', cons.primary_key,
       'uniqueConstraints', coalesce(cons.uniques, '[]'),
       'foreignKeys', coalesce(cons.fkeys, '[]'),
       'insertable', r.relkind IN ('r', 'p') OR (r.relkind IN ('v', 'f') AND (pg_relation_is_updatable(r.oid::regclass, true) & 8) = 8),
       'updatable', r.relkind IN ('r', 'p') OR (r.relkind IN ('v', 'f') AND (pg_relation_is_updatable(r.oid::regclass, true) & 4) = 4),
       'deletable', r.relkind IN ('r', 'p') OR (r.relkind IN ('v', 'f') AND (pg_relation_is_updatable(r.oid::regclass, true) & 16) = 16)
     ) ORDER BY r.schema, r.name)
     FROM rels r LEFT JOIN cols ON cols.oid = r.oid LEFT JOIN cons ON cons.oid = r.oid), '[]'),
  'functions', coalesce((SELECT functions FROM funcs), '[]')
) AS catalog`;

interface RawCatalog {
  serverVersion: number;
  tables: PgTable[];
  functions: PgFunction[];
}

/** Reads the whole user catalog. Works on a pool or on a client inside an open transaction (sees its own DDL). */
export async function introspectCatalog(client: pg.ClientBase | pg.Pool): Promise<PgCatalog> {
  const { rows } = await client.query<{ catalog: RawCatalog }>(INTROSPECTION_SQL, [EXCLUDED_SCHEMAS]);
  return toCatalog(rows[0].catalog);
}

/** Indexes the raw rows by qualified name; overloads of one function name share an entry. */
export function toCatalog(raw: RawCatalog): PgCatalog {
  const tables: Record<string, PgTable> = {};
  for (const t of raw.tables) tables[qualifiedKey(t.name)] = t;
  const functions: Record<string, PgFunction[]> = {};
  for (const f of raw.functions) (functions[qualifiedKey(f.name)] ??= []).push(f);
  return { serverVersion: raw.serverVersion, tables, functions };
}
