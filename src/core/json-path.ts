// JSON paths as the original engine prints them: $, then .key or ['key'], then [i].

export type PathSegment = string | number;

const SIMPLE_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function formatPath(segments: readonly PathSegment[]): string {
  let out = '$';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (SIMPLE_KEY.test(s)) out += `.${s}`;
    else out += `['${s}']`;
  }
  return out;
}

/** Appends segments to an already formatted path. */
export function extendPath(path: string, ...segments: PathSegment[]): string {
  return path + formatPath(segments).slice(1);
}

/** The value at `path` under `root` (undefined when the path leaves the JSON objects/arrays). */
export function valueAt(root: unknown, path: readonly PathSegment[]): unknown {
  let cur = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return cur;
}
