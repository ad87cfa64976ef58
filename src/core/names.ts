// Qualified Postgres object names and the ways the original engine writes them.

export interface QualifiedName {
  schema: string;
  name: string;
}

/** A string means schema public; the object form's schema defaults to public. */
export function toQualifiedName(input: string | { schema?: string; name: string }): QualifiedName {
  if (typeof input === 'string') return { schema: 'public', name: input };
  return { schema: input.schema ?? 'public', name: input.name };
}

/** Stable map key for a qualified name. */
export const qualifiedKey = (q: QualifiedName): string => `${q.schema}.${q.name}`;

export const sameName = (a: QualifiedName, b: QualifiedName): boolean => a.schema === b.schema && a.name === b.name;

/** How messages print a table: `author` in public, `other.author` elsewhere. */
export const displayName = (q: QualifiedName): string => (q.schema === 'public' ? q.name : `${q.schema}.${q.name}`);

/** `"name"`: how the original's messages quote a name (its <<>>). */
export const quote = (s: string): string => `"${s}"`;

/** A table or function as messages quote it: `"author"`, `"other.author"`. */
export const quoteName = (q: QualifiedName): string => quote(displayName(q));

/** GraphQL base name: `author` in public, `other_author` elsewhere. */
export const graphqlBaseName = (q: QualifiedName): string => (q.schema === 'public' ? q.name : `${q.schema}_${q.name}`);

export const compareNames = (a: QualifiedName, b: QualifiedName): number =>
  a.schema < b.schema ? -1 : a.schema > b.schema ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
