// What the console knows about the database and the metadata: the Postgres catalog (one read-only run_sql that
// returns JSON) and export_metadata, with the helpers pages share (qualified names, tracked tables, GraphQL names).
import { query, sqlJson } from './api';

export interface QName { schema: string; name: string }
export interface Column { name: string; type: string; nullable: boolean; default: string | null }
export interface PgTable extends QName { kind: 'table' | 'view'; columns: Column[]; pk: string[] }
export interface ForeignKey { name: string; table: QName; columns: string[]; ref: QName; ref_columns: string[] }
export interface PgCatalog { tables: PgTable[]; fks: ForeignKey[] }

export const qkey = (q: QName): string => `${q.schema}.${q.name}`;
export const sameQ = (a: QName, b: QName): boolean => a.schema === b.schema && a.name === b.name;

const CATALOG_SQL = `
SELECT json_build_object(
  'tables', coalesce((SELECT json_agg(json_build_object(
      'schema', n.nspname, 'name', c.relname, 'kind', CASE WHEN c.relkind IN ('r','p') THEN 'table' ELSE 'view' END,
      'columns', coalesce((SELECT json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod),
                   'nullable', NOT a.attnotnull, 'default', pg_get_expr(d.adbin, d.adrelid)) ORDER BY a.attnum)
                 FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
                 WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '[]'),
      'pk', coalesce((SELECT json_agg(a.attname ORDER BY k.ord) FROM pg_constraint p
                 CROSS JOIN unnest(p.conkey) WITH ORDINALITY k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = p.conrelid AND a.attnum = k.attnum
                 WHERE p.conrelid = c.oid AND p.contype = 'p'), '[]')
    ) ORDER BY n.nspname, c.relname)
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r','p','v','m') AND n.nspname NOT IN ('pg_catalog','information_schema','engine_catalog','hdb_catalog')
      AND n.nspname NOT LIKE 'pg\\_%'), '[]'),
  'fks', coalesce((SELECT json_agg(json_build_object(
      'name', f.conname,
      'table', json_build_object('schema', n.nspname, 'name', c.relname),
      'ref', json_build_object('schema', rn.nspname, 'name', rc.relname),
      'columns', (SELECT json_agg(a.attname ORDER BY k.ord) FROM unnest(f.conkey) WITH ORDINALITY k(attnum, ord)
                  JOIN pg_attribute a ON a.attrelid = f.conrelid AND a.attnum = k.attnum),
      'ref_columns', (SELECT json_agg(a.attname ORDER BY k.ord) FROM unnest(f.confkey) WITH ORDINALITY k(attnum, ord)
                  JOIN pg_attribute a ON a.attrelid = f.confrelid AND a.attnum = k.attnum)
    ) ORDER BY n.nspname, c.relname, f.conname)
    FROM pg_constraint f JOIN pg_class c ON c.oid = f.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_class rc ON rc.oid = f.confrelid JOIN pg_namespace rn ON rn.oid = rc.relnamespace
    WHERE f.contype = 'f' AND n.nspname NOT IN ('engine_catalog','hdb_catalog')), '[]')
)::text`;

export const loadCatalog = (): Promise<PgCatalog> => sqlJson<PgCatalog>(CATALOG_SQL);

export interface PermissionEntry { role: string; permission: Record<string, any>; comment?: string }
export interface RelEntry { name: string; using: any; comment?: string }
export interface TableEntry {
  table: QName;
  is_enum?: boolean;
  configuration?: { custom_root_fields?: Record<string, string>; custom_column_names?: Record<string, string> };
  object_relationships?: RelEntry[];
  array_relationships?: RelEntry[];
  insert_permissions?: PermissionEntry[];
  select_permissions?: PermissionEntry[];
  update_permissions?: PermissionEntry[];
  delete_permissions?: PermissionEntry[];
  event_triggers?: Array<Record<string, any>>;
  remote_relationships?: RemoteRelEntry[];
}
export interface RemoteFieldCall { arguments: Record<string, unknown>; field?: Record<string, RemoteFieldCall> }
export interface RemoteRelEntry { name: string; definition: { remote_schema: string; engine_fields: string[]; remote_field: Record<string, RemoteFieldCall> } }
export interface MetadataDoc {
  version: number;
  tables: TableEntry[];
  remote_schemas?: Array<Record<string, any>>;
  actions?: Array<Record<string, any>>;
  custom_types?: Record<string, any>;
  [k: string]: unknown;
}

export const exportMetadata = (): Promise<MetadataDoc> => query<MetadataDoc>({ type: 'export_metadata', args: {} });

export const findTable = (m: MetadataDoc, q: QName): TableEntry | undefined => m.tables.find((t) => sameQ(t.table, q));

/** The GraphQL name of a table (the original's: `name` in public, `schema_name` elsewhere). */
export const gqlName = (q: QName): string => (q.schema === 'public' ? q.name : `${q.schema}_${q.name}`);

/** The select root field (a custom root field name when set). */
export const selectField = (t: TableEntry): string => t.configuration?.custom_root_fields?.select ?? gqlName(t.table);

export const PERM_KINDS = ['insert', 'select', 'update', 'delete'] as const;
export type PermKind = (typeof PERM_KINDS)[number];

/** Every role named in any table's permissions, sorted. */
export function rolesOf(m: MetadataDoc): string[] {
  const roles = new Set<string>();
  for (const t of m.tables) for (const k of PERM_KINDS) for (const p of t[`${k}_permissions`] ?? []) roles.add(p.role);
  return [...roles].sort();
}
