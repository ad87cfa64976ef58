// JSON built by Postgres: a row's object (row_to_json of named columns) and other objects (json_build_object), and
// where a nested select hangs (shared by the selects and the Relay connections, which nest in each other).
import { ident, join, literal, sql, type SQL } from './builder.js';
import type { CompileContext } from './context.js';

/** Where a nested select hangs: the parent's row alias and, for relationships, the join condition. */
export interface Nesting {
  parentAlias: string | null;
  joinCond: SQL | null;
}

export const ROOT: Nesting = { parentAlias: null, joinCond: null };

/** json_build_object takes at most 100 arguments; wider objects are concatenated as text (keys stay in order). */
const MAX_PAIRS = 50;

/**
 * An object as json_build_object writes it (`{"k" : v, "k2" : v2}`): the original builds aggregate objects, Relay
 * connections, mutation responses and cursors this way, and rows whose keys cannot be column names.
 */
export function jsonObject(pairs: ReadonlyArray<readonly [string, SQL]>): SQL {
  if (pairs.length <= MAX_PAIRS) return sql`json_build_object(${join(pairs.map(([k, v]) => sql`${literal(k)}, ${v}`), ', ')})`;
  // The same text json_build_object would write, so an object's bytes do not depend on its width.
  const parts = pairs.map(([k, v], i) => sql`${literal(`${i === 0 ? '{' : ', '}${JSON.stringify(k)} : `)} || coalesce(to_json(${v})::text, 'null')`);
  return sql`(${join(parts, ' || ')} || '}')::json`;
}

/** Postgres truncates identifiers to NAMEDATALEN - 1 bytes: a longer key cannot name a column. */
const MAX_IDENTIFIER_BYTES = 63;

const columnName = (key: string): boolean => key !== '' && Buffer.byteLength(key, 'utf8') <= MAX_IDENTIFIER_BYTES;

/**
 * Note [Row objects]
 * A row's object is row_to_json of a one-row lateral sub-select whose columns are the values named by the keys, as
 * the original builds it (`{"k":v,"k2":v2}`, no spaces: smaller than json_build_object's text). The planner pulls
 * the FROM-less sub-select up into a ROW(...) with those names (unless a value is volatile), which costs Postgres no
 * more than json_build_object, and less on lists (about 12 % of the backend's CPU on the bench's nested queries);
 * the original's scalar sub-select, run once per row, costs more. Keys that cannot be column names (longer than 63
 * bytes: Postgres would truncate them, and two could collide) make the whole object json_build_object's, as in the
 * original. The sub-select is appended to `laterals`, after the nested selects its values read.
 */
export function rowJson(pairs: ReadonlyArray<readonly [string, SQL]>, ctx: CompileContext, laterals: SQL[]): SQL {
  if (pairs.length === 0 || !pairs.every(([k]) => columnName(k))) return jsonObject(pairs);
  const row = ctx.alias('e');
  laterals.push(sql` CROSS JOIN LATERAL (SELECT ${join(pairs.map(([k, v]) => sql`${v} AS ${ident(k)}`), ', ')}) AS ${ident(row)}`);
  return sql`row_to_json(${ident(row)})`;
}
