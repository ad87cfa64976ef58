// JSON built by Postgres: an object from (key, SQL value) pairs, and where a nested select hangs (shared by the
// selects and the Relay connections, which nest in each other).
import { join, literal, sql, type SQL } from './builder.js';

/** Where a nested select hangs: the parent's row alias and, for relationships, the join condition. */
export interface Nesting {
  parentAlias: string | null;
  joinCond: SQL | null;
}

export const ROOT: Nesting = { parentAlias: null, joinCond: null };

/** json_build_object takes at most 100 arguments; wider objects are concatenated as text (keys stay in order). */
const MAX_PAIRS = 50;

export function jsonObject(pairs: ReadonlyArray<readonly [string, SQL]>): SQL {
  if (pairs.length <= MAX_PAIRS) return sql`json_build_object(${join(pairs.map(([k, v]) => sql`${literal(k)}, ${v}`), ', ')})`;
  const parts = pairs.map(([k, v], i) => sql`${literal(`${i === 0 ? '{' : ','}${JSON.stringify(k)}:`)} || coalesce(to_json(${v})::text, 'null')`);
  return sql`(${join(parts, ' || ')} || '}')::json`;
}
