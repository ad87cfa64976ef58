// The role-specific view of the schema cache that the schema builder and the request translator share: which
// tables, columns, relationships and computed fields a role sees, under which GraphQL names.
import type { GraphQLNamedType } from 'graphql';
import { qualifiedKey } from '../../core/names.js';
import type { ColumnInfo, ComputedFieldInfo, FunctionInfo, RelationshipInfo, SchemaCache, TableInfo } from '../../cache/types.js';
import { selectAccess, type SelectAccess } from './access.js';
import { typeNames } from './names.js';
import { memoByObjectAndKey } from '../../core/weak-memo.js';
import { isComparableType, isNumericType, scalarName } from './scalars.js';

export interface RelView {
  rel: RelationshipInfo;
  remote: TableView;
}

export interface ComputedView {
  cf: ComputedFieldInfo;
  /** For table-returning computed fields: the view of the returned table. */
  remote: TableView | null;
  /** Input arguments the GraphQL `args` object carries: [graphql name, index in pgFunction.args]. */
  inputArgs: Array<[string, number]>;
}

export interface TableView {
  key: string;
  info: TableInfo;
  access: SelectAccess;
  names: ReturnType<typeof typeNames>;
  /** Visible columns in ordinal order. */
  columns: ColumnInfo[];
  columnByField: Map<string, ColumnInfo>;
  /** Keyed by relationship name (the GraphQL field name); only relationships to tables the role can select. */
  objectRels: Map<string, RelView>;
  arrayRels: Map<string, RelView>;
  computed: Map<string, ComputedView>;
  numericColumns: ColumnInfo[];
  comparableColumns: ColumnInfo[];
}

export interface FunctionView {
  info: FunctionInfo;
  returns: TableView;
  /** [graphql name, index in pg.args] of the arguments the `args` object carries (session argument excluded). */
  inputArgs: Array<[string, number]>;
}

export interface RoleContext {
  role: string;
  cache: SchemaCache;
  tables: Map<string, TableView>;
  functions: FunctionView[];
  /** GraphQL types by name, filled as the builder creates them. */
  types: Map<string, GraphQLNamedType>;
}

/** Objects whose names are not GraphQL names are left out of the schema rather than breaking it. */
export const isGraphQLName = (n: string): boolean => /^[_A-Za-z][_0-9A-Za-z]*$/.test(n) && !n.startsWith('__');

/**
 * A column the GraphQL schema can hold: its field name and its type's name are GraphQL names. The others are left
 * out of every type (as the original since v1.0 leaves out what does not conform to GraphQL's naming): the table
 * still serves its other columns; v1 DML and run_sql still see them.
 */
export const hasGraphQLNames = (c: ColumnInfo): boolean => isGraphQLName(c.graphqlName) && isGraphQLName(scalarName(c.type, c.isArray));

const isInputArg = (mode: string): boolean => mode === 'in' || mode === 'inout' || mode === 'variadic';

/** GraphQL names of a function's input arguments (unnamed ones become arg_N), skipping the given indexes. */
export function functionInputArgs(args: FunctionInfo['pg']['args'], skip: ReadonlySet<number>, skipName?: string | null): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  // As the original: unnamed arguments are numbered among themselves (arg_1, arg_2, ...), after the table and
  // session arguments are set aside; named ones keep their names and take no number.
  let n = 0;
  args.forEach((a, i) => {
    if (!isInputArg(a.mode)) return;
    if (skip.has(i) || (skipName && a.name === skipName)) return;
    if (a.name) out.push([a.name, i]);
    else out.push([`arg_${(n += 1)}`, i]);
  });
  return out;
}

/**
 * Tables whose object type would have no field (no columns or computed fields granted, no relationship to a
 * visible table) are left out, with the relationships and computed fields that lead to them: GraphQL types need
 * at least one field.
 */
function pruneEmptyViews(tables: Map<string, TableView>): void {
  const empty = (v: TableView) => v.columns.length === 0 && v.computed.size === 0 && v.objectRels.size === 0 && v.arrayRels.size === 0;
  let changed = true;
  while (changed) {
    changed = false;
    for (const [key, v] of tables) {
      if (!empty(v)) continue;
      tables.delete(key);
      changed = true;
    }
    for (const v of tables.values()) {
      for (const m of [v.objectRels, v.arrayRels]) {
        for (const [n, r] of m) {
          if (tables.has(r.remote.key)) continue;
          m.delete(n);
          changed = true;
        }
      }
      for (const [n, c] of v.computed) {
        if (!c.remote || tables.has(c.remote.key)) continue;
        v.computed.delete(n);
        changed = true;
      }
    }
  }
}

/** What a role's view of a table holds that reads that table only (the rest links views to each other). */
type OwnView = Pick<TableView, 'access' | 'names' | 'columns' | 'columnByField' | 'numericColumns' | 'comparableColumns'>;

/**
 * Each table's own view per role, kept while the table's info is the same object: the schema cache keeps a table's
 * info while nothing of it changes (src/cache/build.ts Note [Incremental cache]), so a role's schema rebuilt after a
 * change of one table recomputes that table's only. Read only, as the views are.
 */
const ownView = memoByObjectAndKey((table: TableInfo, role: string): OwnView | null => {
  const access = selectAccess(table, role);
  const names = typeNames(table.name);
  if (!access || !isGraphQLName(names.object)) return null;
  const columns = table.columns.filter((c) => access.columns.has(c.name) && hasGraphQLNames(c));
  return {
    access,
    names,
    columns,
    columnByField: new Map(columns.map((c) => [c.graphqlName, c])),
    numericColumns: columns.filter((c) => !c.isArray && !c.enumReference && isNumericType(c.type)),
    comparableColumns: columns.filter((c) => !c.isArray && !c.enumReference && isComparableType(c.type)),
  };
});

export function buildRoleContext(cache: SchemaCache, role: string): RoleContext {
  const tables = new Map<string, TableView>();
  for (const [key, table] of Object.entries(cache.tables)) {
    const own = ownView(table, role);
    if (!own) continue;
    tables.set(key, { key, info: table, ...own, objectRels: new Map(), arrayRels: new Map(), computed: new Map() });
  }
  for (const view of tables.values()) {
    for (const rel of Object.values(view.info.relationships)) {
      const remote = tables.get(qualifiedKey(rel.remoteTable));
      if (!remote || !isGraphQLName(rel.name)) continue;
      (rel.kind === 'object' ? view.objectRels : view.arrayRels).set(rel.name, { rel, remote });
    }
    for (const cf of Object.values(view.info.computedFields)) {
      // Scalar computed fields are granted by the permission; table-returning ones follow the returned table's
      // select permission (as in the original).
      if (cf.returns.kind === 'scalar' && !view.access.computedFields.has(cf.name)) continue;
      if (!isGraphQLName(cf.name)) continue;
      let remote: TableView | null = null;
      if (cf.returns.kind === 'table') {
        remote = tables.get(qualifiedKey(cf.returns.table)) ?? null;
        if (!remote) continue;
      }
      const skip = new Set<number>([cf.tableArgIndex]);
      if (cf.sessionArgIndex !== null) skip.add(cf.sessionArgIndex);
      view.computed.set(cf.name, { cf, remote, inputArgs: functionInputArgs(cf.pgFunction.args, skip) });
    }
  }
  pruneEmptyViews(tables);
  const functions: FunctionView[] = [];
  for (const fn of Object.values(cache.functions)) {
    const returns = tables.get(qualifiedKey(fn.returnsTable));
    if (!returns) continue;
    functions.push({ info: fn, returns, inputArgs: functionInputArgs(fn.pg.args, new Set(), fn.sessionArgument) });
  }
  return { role, cache, tables, functions, types: new Map() };
}
