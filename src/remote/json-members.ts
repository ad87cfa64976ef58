// The members of a JSON object's text, each value kept as text: splicing parts of responses together without
// parsing values (Postgres' JSON of a bigint or numeric column would lose digits through JSON.parse).

/** Index just after the JSON value starting at `i` (after whitespace); the text is valid JSON. */
function valueEnd(s: string, i: number): number {
  let depth = 0;
  let inString = false;
  for (; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') {
        inString = false;
        if (depth === 0) return i + 1;
      }
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
      if (depth < 0) return i;
    } else if (depth === 0 && (c === ',' || c === ' ' || c === '\n' || c === '\r' || c === '\t')) return i;
  }
  return i;
}

const skipSpace = (s: string, i: number): number => {
  while (i < s.length && ' \n\r\t'.includes(s[i])) i++;
  return i;
};

/** `{"a":1,"b":{"c":[2]}}` → Map {a → "1", b → '{"c":[2]}'}; null when the text is not a JSON object. */
export function objectMembers(text: string): Map<string, string> | null {
  let i = skipSpace(text, 0);
  if (text[i] !== '{') return null;
  const out = new Map<string, string>();
  i = skipSpace(text, i + 1);
  if (text[i] === '}') return out;
  for (;;) {
    if (text[i] !== '"') return null;
    const keyEnd = valueEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipSpace(text, keyEnd);
    if (text[i] !== ':') return null;
    const start = skipSpace(text, i + 1);
    const end = valueEnd(text, start);
    out.set(key, text.slice(start, end));
    i = skipSpace(text, end);
    if (text[i] === ',') i = skipSpace(text, i + 1);
    else if (text[i] === '}') return out;
    else return null;
  }
}
