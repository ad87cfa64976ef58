// The `path` argument of json/jsonb columns: `$`, `.a.b`, `a[0]`, `['key']`, `["key"]`, `a.[0]` → keys and indexes.
import { EngineError } from '../../core/errors.js';

export function parseJsonPath(text: string, path: string): Array<string | number> {
  const out: Array<string | number> = [];
  let i = 0;
  const s = text.trim();
  if (s.startsWith('$')) i = 1;
  const fail = (why: string): never => {
    throw new EngineError('parse-failed', `parse json path error: ${why}`, { path });
  };
  while (i < s.length) {
    const ch = s[i];
    if (ch === '.') {
      i += 1;
      if (s[i] === '[') continue;
    }
    if (s[i] === '[') {
      i += 1;
      const q = s[i];
      if (q === "'" || q === '"') {
        const end = s.indexOf(q, i + 1);
        if (end < 0) fail(`unterminated string at ${i}`);
        out.push(s.slice(i + 1, end));
        i = end + 1;
      } else {
        const m = /^\d+/.exec(s.slice(i));
        if (!m) fail(`expecting an index or a quoted key at ${i}`);
        out.push(Number(m![0]));
        i += m![0].length;
      }
      if (s[i] !== ']') fail(`expecting ']' at ${i}`);
      i += 1;
      continue;
    }
    const m = /^[^.[\]]+/.exec(s.slice(i));
    if (!m) fail(`unexpected character at ${i}`);
    out.push(m![0]);
    i += m![0].length;
  }
  return out;
}
