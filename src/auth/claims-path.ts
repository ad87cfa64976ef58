// JSON paths for claims_namespace_path ($, $.a.b, $['a.b'], $.a[0]) and their evaluation on a claims object.
import type { PathSegment } from '../core/json-path.js';

const NAME = /^[A-Za-z0-9_-]+/;

/** Parses a claims path; throws an Error whose message follows the original's wording. */
export function parseClaimsPath(text: string): PathSegment[] {
  const invalid = (): Error =>
    new Error(
      `${text}. Accept letters, digits, underscore (_) or hyphen (-) only. Use quotes enclosed in bracket if there are other characters`,
    );
  if (text === '$') return [];
  let rest = text.startsWith('$') ? text.slice(1) : text;
  const out: PathSegment[] = [];
  if (rest === '') throw invalid();
  while (rest !== '') {
    if (rest.startsWith('[')) {
      const index = /^\[(\d+)\]/.exec(rest);
      if (index) {
        out.push(Number(index[1]));
        rest = rest.slice(index[0].length);
        continue;
      }
      const quoted = /^\[(['"])((?:(?!\1)[^\\]|\\.)*)\1\]/.exec(rest);
      if (!quoted) throw invalid();
      out.push(quoted[2].replace(/\\(.)/g, '$1'));
      rest = rest.slice(quoted[0].length);
      continue;
    }
    const body = rest.startsWith('.') ? rest.slice(1) : rest;
    const name = NAME.exec(body);
    if (!name) throw invalid();
    out.push(name[0]);
    rest = body.slice(name[0].length);
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
