// Lossless JSON comparison for the bench's correctness check: object key order matters (the engine answers in
// selection order), numbers compare by exact decimal value (JSON.parse would round Postgres numerics to doubles).

export type JsonNode =
  | { kind: 'null' }
  | { kind: 'bool'; value: boolean }
  | { kind: 'number'; text: string }
  | { kind: 'string'; value: string }
  | { kind: 'array'; items: JsonNode[] }
  | { kind: 'object'; entries: [string, JsonNode][] };

/** Parses JSON text keeping number literals as text and object keys in order. Throws on invalid JSON. */
export function parseLossless(text: string): JsonNode {
  let i = 0;
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  };
  const fail = (what: string): never => {
    throw new SyntaxError(`invalid JSON at offset ${i}: ${what}`);
  };
  const value = (): JsonNode => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const entries: [string, JsonNode][] = [];
      ws();
      if (text[i] === '}') {
        i++;
        return { kind: 'object', entries };
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a key');
        const k = str();
        ws();
        if (text[i++] !== ':') fail('expected :');
        entries.push([k, value()]);
        ws();
        const d = text[i++];
        if (d === '}') return { kind: 'object', entries };
        if (d !== ',') fail('expected , or }');
      }
    }
    if (c === '[') {
      i++;
      const items: JsonNode[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return { kind: 'array', items };
      }
      for (;;) {
        items.push(value());
        ws();
        const d = text[i++];
        if (d === ']') return { kind: 'array', items };
        if (d !== ',') fail('expected , or ]');
      }
    }
    if (c === '"') return { kind: 'string', value: str() };
    if (text.startsWith('null', i)) {
      i += 4;
      return { kind: 'null' };
    }
    if (text.startsWith('true', i)) {
      i += 4;
      return { kind: 'bool', value: true };
    }
    if (text.startsWith('false', i)) {
      i += 5;
      return { kind: 'bool', value: false };
    }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) return fail('unexpected character');
    i += m[0].length;
    return { kind: 'number', text: m[0] };
  };
  const str = (): string => {
    // Find the closing quote, then let JSON.parse decode escapes.
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail('unterminated string');
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const v = value();
  ws();
  if (i !== text.length) fail('trailing characters');
  return v;
}

/** Canonical form of a JSON number literal's exact value, e.g. "1.50" and "15e-1" both give "15e-1". */
export function canonicalNumber(text: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) throw new Error(`not a number: ${text}`);
  const frac = m[3] ?? '';
  let digits = (m[2] + frac).replace(/^0+/, '');
  let exp = Number(m[4] ?? 0) - frac.length;
  if (digits === '') return '0';
  while (digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    exp++;
  }
  return `${m[1]}${digits}e${exp}`;
}

export interface Difference {
  path: string;
  engine: string;
  ceiling: string;
}

export interface Comparison {
  equal: boolean;
  differences: Difference[]; // the first few, in document order
  numberTextDiffers: Difference[]; // equal values written differently (e.g. 1.5 vs 1.50): reported, not a failure
}

const show = (n: JsonNode): string => {
  switch (n.kind) {
    case 'null':
      return 'null';
    case 'bool':
      return String(n.value);
    case 'number':
      return n.text;
    case 'string':
      return JSON.stringify(n.value);
    case 'array':
      return `array(${n.items.length})`;
    case 'object':
      return `object{${n.entries.map(([k]) => k).join(',')}}`;
  }
};

/** Compares two JSON texts (`a` the engine's, `b` the ceiling's). */
export function compareJson(a: string, b: string, maxDifferences = 10): Comparison {
  const differences: Difference[] = [];
  const numberTextDiffers: Difference[] = [];
  const walk = (x: JsonNode, y: JsonNode, path: string): void => {
    if (differences.length >= maxDifferences) return;
    const diff = () => differences.push({ path, engine: show(x), ceiling: show(y) });
    if (x.kind !== y.kind) return void diff();
    switch (x.kind) {
      case 'null':
        return;
      case 'bool':
        if (x.value !== (y as typeof x).value) diff();
        return;
      case 'string':
        if (x.value !== (y as typeof x).value) diff();
        return;
      case 'number': {
        const yt = (y as typeof x).text;
        if (canonicalNumber(x.text) !== canonicalNumber(yt)) diff();
        else if (x.text !== yt && numberTextDiffers.length < maxDifferences) numberTextDiffers.push({ path, engine: x.text, ceiling: yt });
        return;
      }
      case 'array': {
        const yi = (y as typeof x).items;
        if (x.items.length !== yi.length) diff();
        for (let k = 0; k < Math.min(x.items.length, yi.length); k++) walk(x.items[k], yi[k], `${path}[${k}]`);
        return;
      }
      case 'object': {
        const ye = (y as typeof x).entries;
        const xk = x.entries.map(([k]) => k).join(',');
        const yk = ye.map(([k]) => k).join(',');
        if (xk !== yk) diff();
        const ym = new Map(ye);
        for (const [k, v] of x.entries) {
          const w = ym.get(k);
          if (w) walk(v, w, `${path}.${k}`);
        }
        return;
      }
    }
  };
  walk(parseLossless(a), parseLossless(b), '$');
  return { equal: differences.length === 0, differences, numberTextDiffers };
}
