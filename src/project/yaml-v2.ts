// YAML as the original CLI writes its metadata files: Go's gopkg.in/yaml.v2 (v2.3, the libyaml emitter) in block
// style, keys in the order they come, sequences under a key not indented (`key:\n- item`), empty collections as
// `[]` / `{}`, two-space indentation, strings styled as yaml-scalars.ts decides, numbers as Go prints them, no line
// folding. The state machine below mirrors libyaml's (indent stack, `whitespace` and `indention` flags), so the
// bytes match what the original writes for the same document; reading goes through the npm `yaml` package.
import { parse } from 'yaml';
import { analyzeScalar, goNumber, isBreak, isPrintable, isSpace, stringStyle, type ScalarStyle } from './yaml-scalars.js';

const ESCAPES: Record<number, string> = {
  0x00: '0', 0x07: 'a', 0x08: 'b', 0x09: 't', 0x0a: 'n', 0x0b: 'v', 0x0c: 'f', 0x0d: 'r', 0x1b: 'e',
  0x22: '"', 0x5c: '\\', 0x85: 'N', 0xa0: '_', 0x2028: 'L', 0x2029: 'P',
};

const isMapping = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

class Emitter {
  out = '';
  private column = 0;
  private indent = -1;
  private readonly indents: number[] = [];
  private whitespace = true;
  private indention = true;

  private put(s: string): void {
    this.out += s;
    this.column += [...s].length;
  }

  private putBreak(): void {
    this.out += '\n';
    this.column = 0;
  }

  writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    while (this.column < indent) this.put(' ');
    this.whitespace = true;
    this.indention = true;
  }

  private indicator(text: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    this.put(text);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  private increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? 2 : 0;
    else if (!indentless) this.indent += 2;
  }

  private popIndent(): void {
    this.indent = this.indents.pop() ?? -1;
  }

  node(value: unknown, mappingValue: boolean): void {
    if (Array.isArray(value)) {
      if (value.length === 0) return this.emptyFlow('[]');
      return this.sequence(value, mappingValue);
    }
    if (isMapping(value)) {
      const entries = Object.entries(value).filter(([, v]) => v !== undefined);
      if (entries.length === 0) return this.emptyFlow('{}');
      return this.mapping(entries);
    }
    if (typeof value === 'string') return this.string(value, false);
    if (typeof value === 'number') return this.scalar(goNumber(value), 'plain');
    if (typeof value === 'boolean') return this.scalar(String(value), 'plain');
    return this.scalar('null', 'plain');
  }

  private emptyFlow(text: '[]' | '{}'): void {
    this.indicator(text[0], true, true, false);
    this.indicator(text[1], false, false, false);
  }

  private sequence(items: unknown[], mappingValue: boolean): void {
    this.increaseIndent(false, mappingValue && !this.indention);
    for (const item of items) {
      this.writeIndent();
      this.indicator('-', true, false, true);
      this.node(item, false);
    }
    this.popIndent();
  }

  private mapping(entries: Array<[string, unknown]>): void {
    this.increaseIndent(false, false);
    for (const [key, value] of entries) {
      this.writeIndent();
      // libyaml writes a key longer than 128 bytes, or with line breaks, as a complex key (`? key` / `: value`).
      if (Buffer.byteLength(key) <= 128 && !analyzeScalar(codePoints(key)).multiline) {
        this.string(key, true);
        this.indicator(':', false, false, false);
      } else {
        this.indicator('?', true, false, true);
        this.string(key, false);
        this.writeIndent();
        this.indicator(':', true, false, true);
      }
      this.node(value, true);
    }
    this.popIndent();
  }

  private string(s: string, simpleKey: boolean): void {
    this.scalar(s, stringStyle(s, analyzeScalar(codePoints(s)), simpleKey));
  }

  private scalar(s: string, style: ScalarStyle): void {
    this.increaseIndent(true, false);
    const cps = codePoints(s);
    if (style === 'plain') {
      if (!this.whitespace) this.put(' ');
      this.put(s);
    } else if (style === 'single') {
      this.indicator("'", true, false, false);
      this.put(s.replace(/'/g, "''"));
      this.indicator("'", false, false, false);
    } else if (style === 'double') {
      this.indicator('"', true, false, false);
      this.put(cps.map(doubleQuoted).join(''));
      this.indicator('"', false, false, false);
    } else {
      this.literal(cps);
    }
    if (style !== 'literal') {
      this.whitespace = false;
      this.indention = false;
    }
    this.popIndent();
  }

  private literal(cps: number[]): void {
    this.indicator('|', true, false, false);
    if (isSpace(cps[0]) || isBreak(cps[0])) this.indicator('2', false, false, false);
    const chomp = chompHint(cps);
    if (chomp !== '') this.indicator(chomp, false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (const c of cps) {
      if (c === 0x0a) {
        this.putBreak();
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.put(String.fromCodePoint(c));
        this.indention = false;
        breaks = false;
      }
    }
  }
}

const codePoints = (s: string): number[] => Array.from(s, (ch) => ch.codePointAt(0)!);

/** `-` (strip) without a final line break, `+` (keep) with more than one, nothing (clip) with exactly one. */
function chompHint(cps: number[]): '' | '-' | '+' {
  const n = cps.length;
  if (n === 0 || !isBreak(cps[n - 1])) return '-';
  if (n === 1 || isBreak(cps[n - 2])) return '+';
  return '';
}

function doubleQuoted(c: number): string {
  if (isPrintable(c) && !isBreak(c) && c !== 0xfeff && c !== 0x22 && c !== 0x5c) return String.fromCodePoint(c);
  const named = ESCAPES[c];
  if (named !== undefined) return `\\${named}`;
  const [letter, width] = c <= 0xff ? ['x', 2] : c <= 0xffff ? ['u', 4] : ['U', 8];
  return `\\${letter}${c.toString(16).toUpperCase().padStart(width, '0')}`;
}

/** The document as yaml.v2's Marshal writes it (a JSON value: objects keep their key order). */
export function toYamlV2(value: unknown): string {
  const e = new Emitter();
  e.node(value, false);
  e.writeIndent();
  return e.out;
}

/**
 * Reads a metadata file. YAML 1.1 like the original (yes/no/on/off are booleans), except that dates stay strings
 * (the original turned them into timestamps); duplicate keys are an error.
 */
export function readYaml(text: string): unknown {
  return parse(text, {
    version: '1.1',
    customTags: (tags) => tags.filter((t) => typeof t === 'string' || t.tag !== 'tag:yaml.org,2002:timestamp'),
    maxAliasCount: 1000,
  });
}
