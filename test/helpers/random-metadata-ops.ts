// A seeded random stream of metadata operations (successes and failures alike) over a small, changing schema:
// run_sql DDL, tracking, relationships, computed fields, permissions, functions, reload/replace/drop-inconsistent.
// Used by the replay property tests, in-process and through a live server.

/** mulberry32: small, seeded, good enough for choosing operations. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
    bool: (p = 0.5) => next() < p,
  };
}

/** What the generator needs to know about the live state before each operation. */
export interface MetadataView {
  /** Names of the tracked tables (all in schema public). */
  tracked(): string[];
  /** The current export_metadata document (for replace_metadata). */
  exported(): unknown;
}

const ROLES = ['user', 'editor', 'anon'];

/** Returns a function giving the i-th request body of the stream (call it with i = 0, 1, 2, ... in order). */
export function randomMetadataOps(seed: number, view: MetadataView): (i: number) => unknown {
  const r = rng(seed);
  let tableCount = 0;
  const tables: string[] = [];
  const cols = ['id', 'name', 'parent_id', 'extra'];

  /** Mostly a tracked table, sometimes any table (possibly untracked or gone). */
  const tt = (): string => {
    const tracked = view.tracked();
    return (tracked.length && r.bool(0.85) ? r.pick(tracked) : r.pick(tables)) ?? 'none';
  };
  const ops: Array<() => unknown> = [
    // Create a table (with a FK to an earlier one) and its scalar function.
    () => {
      const name = `t${tableCount++}`;
      const parent = tables.length ? r.pick(tables) : null;
      tables.push(name);
      return {
        type: 'run_sql',
        args: {
          sql: `CREATE TABLE ${name} (id serial PRIMARY KEY, name text, parent_id integer ${parent ? `REFERENCES ${parent}(id)` : ''}, extra text);
                CREATE FUNCTION ${name}_label(r ${name}) RETURNS text AS $$ SELECT r.name $$ LANGUAGE sql STABLE;
                CREATE FUNCTION ${name}_search(q text) RETURNS SETOF ${name} AS $$ SELECT * FROM ${name} WHERE name = q $$ LANGUAGE sql STABLE;`,
        },
      };
    },
    () => ({ type: 'track_table', args: r.pick(tables) ?? 'none' }),
    () => ({ type: 'track_table', version: 2, args: { table: tt(), configuration: { custom_root_fields: { select: `sel_${r.int(50)}` }, custom_column_names: { name: `nm_${r.int(50)}` } } } }),
    () => ({ type: 'untrack_table', args: { table: tt(), cascade: r.bool() } }),
    () => ({ type: 'set_table_is_enum', args: { table: tt(), is_enum: r.bool(0.2) } }),
    () => ({ type: 'set_table_custom_fields', version: 2, args: { table: tt(), custom_column_names: r.bool() ? { extra: `ex_${r.int(9)}` } : {} } }),
    () => ({ type: 'create_object_relationship', args: { table: tt(), name: `parent_${r.int(3)}`, using: { foreign_key_constraint_on: 'parent_id' } } }),
    () => {
      const a = tt();
      const b = tt();
      return r.bool()
        ? { type: 'create_array_relationship', args: { table: a, name: `children_${r.int(3)}`, using: { foreign_key_constraint_on: { table: b, column: 'parent_id' } } } }
        : { type: 'create_array_relationship', args: { table: a, name: `manual_${r.int(3)}`, using: { manual_configuration: { remote_table: b, column_mapping: { id: 'parent_id' } } } } };
    },
    () => ({ type: 'drop_relationship', args: { table: tt(), relationship: r.pick(['parent_0', 'parent_1', 'children_0', 'manual_1']), cascade: r.bool() } }),
    () => ({ type: 'rename_relationship', args: { table: tt(), name: r.pick(['parent_0', 'parent_1', 'children_0']), new_name: r.pick(['parent_1', 'parent_2', 'children_1']) } }),
    () => ({ type: 'set_relationship_comment', args: { table: tt(), relationship: r.pick(['parent_0', 'children_0']), comment: r.bool() ? 'c' : null } }),
    () => {
      const tn = tt();
      return { type: 'add_computed_field', args: { table: tn, name: `label_${r.int(2)}`, definition: { function: `${tn}_label` } } };
    },
    () => ({ type: 'drop_computed_field', args: { table: tt(), name: `label_${r.int(2)}`, cascade: r.bool() } }),
    () => ({
      type: 'create_select_permission',
      args: {
        table: tt(),
        role: r.pick(ROLES),
        permission: {
          columns: r.bool() ? '*' : ['id', r.pick(cols)],
          computed_fields: r.bool(0.3) ? ['label_0'] : [],
          filter: r.bool() ? { parent_0: { id: { _eq: 'X-Engine-User-Id' } } } : { id: { _gt: r.int(10) } },
          limit: r.bool() ? r.int(100) : undefined,
        },
      },
    }),
    () => ({ type: 'create_insert_permission', args: { table: tt(), role: r.pick(ROLES), permission: { check: { name: { _ne: '' } }, set: r.bool() ? { extra: 'x' } : {}, columns: ['name'] } } }),
    () => ({ type: 'create_update_permission', args: { table: tt(), role: r.pick(ROLES), permission: { columns: ['name', 'extra'], filter: {}, check: r.bool() ? { id: { _gt: 0 } } : null } } }),
    () => ({ type: 'create_delete_permission', args: { table: tt(), role: r.pick(ROLES), permission: { filter: { id: { _eq: 1 } } } } }),
    () => ({ type: `drop_${r.pick(['select', 'insert', 'update', 'delete'])}_permission`, args: { table: tt(), role: r.pick(ROLES) } }),
    () => ({ type: 'set_permission_comment', args: { table: tt(), role: r.pick(ROLES), type: r.pick(['select', 'insert']), comment: 'why' } }),
    () => ({ type: 'track_function', args: `${tt()}_search` }),
    () => ({ type: 'untrack_function', args: { schema: 'public', name: `${tt()}_search` } }),
    // DDL through run_sql: renames, added/dropped columns, dropped tables.
    () => ({ type: 'run_sql', args: { sql: `ALTER TABLE ${tt()} RENAME COLUMN extra TO extra_${r.int(1000)}` } }),
    () => ({ type: 'run_sql', args: { sql: `ALTER TABLE ${tt()} DROP COLUMN name CASCADE`, cascade: r.bool() } }),
    () => {
      const from = r.pick(tables);
      if (!from) return { type: 'reload_metadata', args: {} };
      const to = `t${tableCount++}`;
      tables[tables.indexOf(from)] = to;
      return { type: 'run_sql', args: { sql: `ALTER TABLE ${from} RENAME TO ${to}` } };
    },
    () => ({ type: 'run_sql', args: { sql: `DROP TABLE ${tt()} CASCADE`, cascade: r.bool(0.7) } }),
    () => ({ type: 'reload_metadata', args: {} }),
    () => ({ type: 'drop_inconsistent_metadata', args: {} }),
    () => ({ type: 'export_metadata', args: {} }),
    () => ({ type: 'replace_metadata', args: view.exported() }),
  ];

  // Relationships, computed fields and permissions are what dependencies are about: draw them more often.
  ops.push(ops[6], ops[7], ops[7], ops[11], ops[13], ops[13], ops[14]);

  return (i: number) => {
    // A few tables first, then anything (table creation stays more likely than the rest).
    const op = () => (i < 6 || r.bool(0.08) ? ops[0] : i < 14 || r.bool(0.2) ? ops[1] : r.pick(ops))();
    return r.bool(0.1) ? { type: 'bulk', args: [op(), op()] } : op();
  };
}
