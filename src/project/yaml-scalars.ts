// How the original CLI's YAML library (Go's gopkg.in/yaml.v2 v2.3, whose emitter is a port of libyaml) decides the
// style of a string: plain unless plain would read back as something else (a bool, a number, null, a date), literal
// for text with line breaks, single quotes when indicators or edge spaces forbid plain, double quotes (with escapes)
// when nothing else can hold the text. Pure; yaml-v2.ts writes the chosen style.

export type ScalarStyle = 'plain' | 'single' | 'double' | 'literal';

/** What libyaml's yaml_emitter_analyze_scalar finds in a string (over code points). */
export interface ScalarAnalysis {
  multiline: boolean;
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

export const isBreak = (c: number): boolean => c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
export const isSpace = (c: number | undefined): boolean => c === 0x20;
const isBlank = (c: number | undefined): boolean => c === 0x20 || c === 0x09;

/** libyaml's printable set as yaml.v2 has it: no tab, no C1 controls, nothing beyond the BMP. */
export const isPrintable = (c: number): boolean =>
  c === 0x0a || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff);

const FIRST_INDICATORS = new Set('#,[]{}&*!|>\'"%@`'.split('').map((c) => c.charCodeAt(0)));
const FLOW_INDICATORS = new Set(',?[]{}'.split('').map((c) => c.charCodeAt(0)));

export function analyzeScalar(cps: readonly number[]): ScalarAnalysis {
  if (cps.length === 0) return { multiline: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  let blockIndicators = false;
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  const head = String.fromCodePoint(...cps.slice(0, 3));
  if (head === '---' || head === '...') blockIndicators = true;
  let precededByWhitespace = true;
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i];
    const followedByWhitespace = i + 1 >= cps.length || isBlank(cps[i + 1]) || isBreak(cps[i + 1]);
    if (i === 0) {
      if (FIRST_INDICATORS.has(c)) blockIndicators = true;
      else if ((c === 0x3f || c === 0x3a) && followedByWhitespace) blockIndicators = true; // ? :
      else if (c === 0x2d && followedByWhitespace) blockIndicators = true; // -
    } else if (c === 0x3a && followedByWhitespace) blockIndicators = true;
    else if (c === 0x23 && precededByWhitespace) blockIndicators = true; // #
    if (!isPrintable(c)) special = true;
    if (isSpace(c)) {
      if (i === 0) leadingSpace = true;
      if (i === cps.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === cps.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlank(c) || isBreak(c) || c === 0;
  }
  let blockPlain = !(leadingSpace || leadingBreak || trailingSpace || trailingBreak || breakSpace || lineBreaks || blockIndicators);
  let single = !breakSpace;
  let block = !trailingSpace;
  if (spaceBreak || special) blockPlain = single = block = false;
  return { multiline: lineBreaks, blockPlainAllowed: blockPlain, singleQuotedAllowed: single, blockAllowed: block };
}

// yaml.v2's resolve(): what an unquoted scalar would be read back as (YAML 1.1 booleans, ints in every base,
// floats, base-60 numbers, dates). A string that reads back as anything but a string must be quoted.
const NON_STRINGS = new Set([
  'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON',
  'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF',
  '', '~', 'null', 'Null', 'NULL',
  '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF', '<<',
]);
const INT_SYNTAX = /^[-+]?(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|0[0-7]*|[1-9][0-9]*)$/;
const FLOAT_SYNTAX = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:([Tt ])(\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** Go's time.Parse with yaml.v2's four timestamp layouts (a zone only after T/t; ranges checked). */
function isTimestamp(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const [, y, mo, d, sep, h, mi, se, zone] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(Number(y), month, 0)).getUTCDate()) return false;
  if (sep === undefined) return true;
  if (sep === ' ' && zone !== undefined) return false;
  if (sep !== ' ' && zone === undefined) return false;
  return Number(h) < 24 && Number(mi) < 60 && Number(se) < 60;
}

/** Whether yaml.v2 would read the unquoted text back as a non-string (so it quotes it). */
export function readsAsNonString(s: string): boolean {
  if (NON_STRINGS.has(s)) return true;
  if (BASE60_FLOAT.test(s)) return true;
  const first = s[0];
  if (first === '.') return /^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(s);
  if (!/[-+0-9]/.test(first)) return false;
  if (/^\d{4}-/.test(s) && isTimestamp(s)) return true;
  const plain = s.replace(/_/g, '');
  if (INT_SYNTAX.test(plain)) return true;
  return FLOAT_SYNTAX.test(plain) && Number.isFinite(Number(plain));
}

/** The style yaml.v2 asks for and libyaml settles on (select_scalar_style) for a string in block context. */
export function stringStyle(s: string, a: ScalarAnalysis, simpleKey: boolean): ScalarStyle {
  let style: ScalarStyle = s.includes('\n') ? 'literal' : readsAsNonString(s) ? 'double' : 'plain';
  if (simpleKey && a.multiline) style = 'double';
  if (style === 'plain' && (!a.blockPlainAllowed || (s.length === 0 && simpleKey))) style = 'single';
  // Line breaks other than \n inside quotes or blocks read back differently in YAML 1.2 readers: escaped instead.
  if (style !== 'double' && /[\u0085\u2028\u2029]/.test(s)) style = 'double';
  if (style === 'single' && !a.singleQuotedAllowed) style = 'double';
  if (style === 'literal' && (!a.blockAllowed || simpleKey)) style = 'double';
  return style;
}

/** Go's strconv.FormatFloat(f, 'g', -1, 64): shortest digits, exponent form below 1e-4 and from 1e6 on. */
export function goFloat(n: number): string {
  const [mantissa, expText] = n.toExponential().split('e');
  const exp = Number(expText);
  const neg = mantissa.startsWith('-');
  const digits = mantissa.replace(/[-.]/g, '');
  if (exp < -4 || exp >= 6) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = `${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
    return `${neg ? '-' : ''}${m}e${e}`;
  }
  let text: string;
  if (exp < 0) text = `0.${'0'.repeat(-exp - 1)}${digits}`;
  else if (digits.length <= exp + 1) text = digits + '0'.repeat(exp + 1 - digits.length);
  else text = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  return (neg ? '-' : '') + text;
}

/** A JSON number as yaml.v2 writes it after reading the JSON text (integers as ints, others as Go floats). */
export function goNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  return goFloat(n);
}
