// JSON read and written again without losing integers beyond 2^53 (bigint columns answered as numbers, e.g.
// snowflake ids used as join keys): remote joins parse the database's answer, fill in the remotes' values and
// serialise it again. Texts with no run of 16 digits take JSON.parse / JSON.stringify; the others a small parser that
// keeps such integers as their text (RawNumber), printed back as they came.

/** An integer too large for a double, kept as its JSON text. */
export class RawNumber {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const MAYBE_BIG = /\d{16}/;
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

class Reader {
  i = 0;
  big = false;
  constructor(readonly s: string) {}

  private ws(): void {
    while (this.i < this.s.length && ' \t\n\r'.includes(this.s[this.i])) this.i += 1;
  }

  value(): unknown {
    this.ws();
    const c = this.s[this.i];
    if (c === '{') {
      this.i += 1;
      const out: Record<string, unknown> = {};
      this.ws();
      if (this.s[this.i] === '}') {
        this.i += 1;
        return out;
      }
      for (;;) {
        this.ws();
        const k = this.string();
        this.ws();
        this.expect(':');
        out[k] = this.value();
        this.ws();
        if (this.s[this.i] === ',') this.i += 1;
        else {
          this.expect('}');
          return out;
        }
      }
    }
    if (c === '[') {
      this.i += 1;
      const out: unknown[] = [];
      this.ws();
      if (this.s[this.i] === ']') {
        this.i += 1;
        return out;
      }
      for (;;) {
        out.push(this.value());
        this.ws();
        if (this.s[this.i] === ',') this.i += 1;
        else {
          this.expect(']');
          return out;
        }
      }
    }
    if (c === '"') return this.string();
    for (const [word, v] of [['true', true], ['false', false], ['null', null]] as const) {
      if (this.s.startsWith(word, this.i)) {
        this.i += word.length;
        return v;
      }
    }
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(this.s);
    if (!m) throw new SyntaxError(`Unexpected token at position ${this.i} in JSON`);
    this.i += m[0].length;
    const n = Number(m[0]);
    if (m[1] === undefined && m[2] === undefined && !Number.isSafeInteger(n)) {
      this.big = true;
      return new RawNumber(m[0]);
    }
    return n;
  }

  private string(): string {
    if (this.s[this.i] !== '"') throw new SyntaxError(`Expected a string at position ${this.i} in JSON`);
    let j = this.i + 1;
    while (j < this.s.length && this.s[j] !== '"') j += this.s[j] === '\\' ? 2 : 1;
    const text = this.s.slice(this.i, j + 1);
    this.i = j + 1;
    return JSON.parse(text) as string;
  }

  private expect(c: string): void {
    if (this.s[this.i] !== c) throw new SyntaxError(`Expected '${c}' at position ${this.i} in JSON`);
    this.i += 1;
  }
}

/** A parsed text and whether it holds RawNumbers (then it must be written with stringifyLossless). */
export function parseLossless(text: string): { value: unknown; big: boolean } {
  if (!MAYBE_BIG.test(text)) return { value: JSON.parse(text), big: false };
  const r = new Reader(text);
  const value = r.value();
  return { value, big: r.big };
}

export function stringifyLossless(v: unknown): string {
  if (v instanceof RawNumber) return v.text;
  if (Array.isArray(v)) return `[${v.map((x) => (x === undefined ? 'null' : stringifyLossless(x))).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const parts: string[] = [];
    for (const [k, x] of Object.entries(v)) if (x !== undefined) parts.push(`${JSON.stringify(k)}:${stringifyLossless(x)}`);
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
