// JSON paths for claims_namespace_path and claims_map, as the original's JSON path parser reads them, and their
// evaluation on a claims object. A path is `$` (the root) or an optional `$` followed by elements, each with an
// optional leading dot: a name (`.user`, `user`), an index (`[0]`, `.[0]`) or a quoted key (`['a.b']`, `.['a.b']`,
// `["a.b"]`; a backslash takes the next character as it is). So `$.user.id`, `$.roles[0]`, `$['https://x/claims'].id`
// and `$.['https://x/claims'].id` (the form of the original's own claims_map tests) all parse.
import type { PathSegment } from '../core/json-path.js';

/** A name: letters (any script), digits, underscore and hyphen. */
const NAME = /^[\p{L}0-9_-]+/u;
const INDEX = /^\[(\d+)\]/;
/** `['...']` or `["..."]`: any character but the quote, or a backslash and the character it escapes. */
const QUOTED = /^\[(['"])((?:(?!\1)[^\\]|\\.)*)\1\]/s;

/** Parses a claims path; throws an Error with the original's message (the whole path, then what it accepts). */
export function parseClaimsPath(text: string): PathSegment[] {
  if (text === '$') return [];
  const invalid = (): Error =>
    new Error(`${text}. Accept letters, digits, underscore (_) or hyphen (-) only. Use single quotes enclosed in bracket (['...']) if there is any special character`);
  let rest = text.startsWith('$') ? text.slice(1) : text;
  if (rest === '') throw invalid();
  const out: PathSegment[] = [];
  while (rest !== '') {
    const element = rest.startsWith('.') ? rest.slice(1) : rest;
    const index = INDEX.exec(element);
    const quoted = index === null ? QUOTED.exec(element) : null;
    const name = index === null && quoted === null ? NAME.exec(element) : null;
    const match = index ?? quoted ?? name;
    if (match === null) throw invalid();
    out.push(index !== null ? Number(index[1]) : quoted !== null ? quoted[2].replace(/\\(.)/gs, '$1') : match[0]);
    rest = element.slice(match[0].length);
  }
  return out;
}

/** The value at `path` inside `value`, or undefined when any step is missing. */
export function valueAtPath(value: unknown, path: readonly PathSegment[]): unknown {
  let cur: unknown = value;
  for (const seg of path) {
    if (typeof seg === 'number') {
      if (!Array.isArray(cur) || seg >= cur.length) return undefined;
      cur = cur[seg];
    } else {
      if (cur === null || typeof cur !== 'object' || Array.isArray(cur) || !Object.hasOwn(cur, seg)) return undefined;
      cur = (cur as Record<string, unknown>)[seg];
    }
  }
  return cur;
}
