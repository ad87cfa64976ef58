// The allow-list check (ENGINE_GRAPHQL_ENABLE_ALLOWLIST): a non-admin request must be, up to formatting and
// `__typename` fields, one of the queries of the collections on the allow-list (the original's isQueryInAllowlist).
import { parse, print, visit, Kind, type DocumentNode } from 'graphql';
import { EngineError } from '../core/errors.js';
import type { Metadata } from '../../projections/metadata.js';

/**
 * A document's canonical text: `__typename` removed at every depth, then printed (whitespace, commas and comments
 * do not matter; field order, aliases, arguments, names, variables, directives and fragments do). Null when the
 * text does not parse.
 */
export function normaliseQuery(query: string): string | null {
  let doc: DocumentNode;
  try {
    doc = parse(query, { noLocation: true });
  } catch {
    return null;
  }
  const stripped = visit(doc, {
    [Kind.FIELD]: (node) => (node.name.value === '__typename' ? null : undefined),
  });
  return print(stripped);
}

// One set per metadata value: metadata is immutable and swapped as a whole, so the set is built once per change.
const memo = new WeakMap<Metadata, ReadonlySet<string>>();

/** The canonical texts of every query in every allow-listed collection. */
export function allowedQueries(m: Metadata): ReadonlySet<string> {
  let set = memo.get(m);
  if (set) return set;
  const listed = new Set(m.allowlist.map((a) => a.collection));
  const out = new Set<string>();
  for (const c of m.query_collections) {
    if (!listed.has(c.name)) continue;
    for (const q of c.definition?.queries ?? []) {
      const n = typeof q.query === 'string' ? normaliseQuery(q.query) : null;
      if (n !== null) out.add(n);
    }
  }
  set = out;
  memo.set(m, set);
  return set;
}

/** Throws the original's rejection unless the role is admin or the query is allow-listed. */
export function checkAllowlist(m: Metadata, role: string, query: unknown): void {
  if (role === 'admin') return;
  // A body whose query does not parse is left to the usual parse error.
  const n = typeof query === 'string' ? normaliseQuery(query) : null;
  if (n === null || allowedQueries(m).has(n)) return;
  throw new EngineError('validation-failed', 'query is not allowed', {
    path: '$',
    internal: { message: 'query is not in any of the allowlists' },
  });
}
