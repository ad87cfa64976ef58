// Structural sharing between two reads of the catalog: what did not change keeps the previous read's objects, and
// an unchanged catalog is the previous object itself. Builds of the schema cache compare their inputs by identity
// (src/cache/build.ts Note [Incremental cache]); without this, every re-read would look like a change of everything.
import type { PgCatalog } from './types.js';

/** `next` with every table, function list and enum row list equal to `previous`'s replaced by that one. */
export function shareCatalog(next: PgCatalog, previous: PgCatalog | null | undefined): PgCatalog {
  if (!previous || next === previous) return next;
  const tables = shareRecord(next.tables, previous.tables);
  const functions = shareRecord(next.functions, previous.functions);
  const enumValues = next.enumValues && previous.enumValues ? shareRecord(next.enumValues, previous.enumValues) : next.enumValues;
  if (tables === previous.tables && functions === previous.functions && enumValues === previous.enumValues && next.serverVersion === previous.serverVersion) {
    return previous;
  }
  return { ...next, tables, functions, ...(enumValues ? { enumValues } : {}) };
}

/** `next` with equal entries taken from `previous`; `previous` itself when every entry is equal and no key differs. */
function shareRecord<T>(next: Record<string, T>, previous: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  let same = true;
  let n = 0;
  for (const k of Object.keys(next)) {
    n++;
    const p = Object.hasOwn(previous, k) ? previous[k] : undefined;
    if (p !== undefined && equal(next[k], p)) out[k] = p;
    else {
      out[k] = next[k];
      same = false;
    }
  }
  return same && n === Object.keys(previous).length ? previous : out;
}

/** Deep equality of JSON-like values (what introspection returns). */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(b, k) || !equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}
