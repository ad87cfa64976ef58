// Postgres type → GraphQL scalar name (SPEC-NOTES §1.7), type classes (numeric, comparable, string-like) and the
// original's lenient value parsing: a JSON string is accepted for any type (Postgres parses it), other JSON values
// must match the type strictly (errors worded as aeson words them).
import { EngineError } from '../../core/errors.js';
import { jsonKind } from '../../core/json-kind.js';

const BUILTIN: Record<string, string> = {
  int4: 'Int', bool: 'Boolean', float4: 'Float', text: 'String', varchar: 'String', int8: 'bigint', int2: 'smallint',
};

/** The GraphQL scalar for a column / argument type (arrays use the Postgres array typname `_elem`). */
export function scalarName(type: string, isArray = false): string {
  if (isArray) return `_${type}`;
  return Object.prototype.hasOwnProperty.call(BUILTIN, type) ? BUILTIN[type] : type;
}

const NUMERIC = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'money']);
// The original's known types, minus json, jsonb, geometry, geography and boolean: only those support max/min.
const COMPARABLE = new Set([
  'int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'money', 'bpchar', 'varchar', 'text', 'citext',
  'date', 'timestamp', 'timestamptz', 'timetz', 'uuid',
]);
const STRING_LIKE = new Set(['text', 'varchar', 'citext']);

export const isNumericType = (t: string): boolean => NUMERIC.has(t);
export const isComparableType = (t: string): boolean => COMPARABLE.has(t);
export const isStringType = (t: string): boolean => STRING_LIKE.has(t);
export const isJsonType = (t: string): boolean => t === 'json' || t === 'jsonb';
export const isGeoType = (t: string): boolean => t === 'geometry' || t === 'geography';
export { isStringifiedType } from '../../ir/types.js';

/** Haskell's `show` of a Scientific, as the original prints numbers in messages (2.147483648e9, 1.5, 100.0). */
export function showScientific(text: string): string {
  let s = text.trim();
  let sign = '';
  if (s.startsWith('-')) { sign = '-'; s = s.slice(1); }
  let exp = 0;
  const ei = s.search(/[eE]/);
  if (ei >= 0) { exp = Number(s.slice(ei + 1)); s = s.slice(0, ei); }
  const [ip, fp = ''] = s.split('.');
  let digits = (ip + fp).replace(/^0+/, '');
  let e = ip.replace(/^0+/, '').length + exp; // value = 0.digits * 10^e
  if (digits === '') return '0.0';
  if (ip.replace(/^0+/, '') === '') e = exp - (fp.length - fp.replace(/^0+/, '').length);
  digits = digits.replace(/0+$/, '');
  if (e < 0 || e > 7) {
    const rest = digits.slice(1);
    return `${sign}${digits[0]}.${rest === '' ? '0' : rest}e${e - 1}`;
  }
  if (e === 0) return `${sign}0.${digits}`;
  const int = digits.slice(0, e).padEnd(e, '0');
  const frac = digits.slice(e);
  return `${sign}${int}.${frac === '' ? '0' : frac}`;
}

function parseFailed(message: string, path: string): EngineError {
  return new EngineError('parse-failed', message, { path });
}

function boundedInt(v: unknown, raw: string | undefined, bits: 16 | 32 | 64, path: string): void {
  // The common case, a JSON number that is a safe integer, is checked without the text and BigInt round trip.
  if (raw === undefined && typeof v === 'number' && Number.isSafeInteger(v) && (bits === 64 || (v >= -(2 ** (bits - 1)) && v < 2 ** (bits - 1)))) return;
  const text = raw ?? String(v);
  const ok = /^-?\d+$/.test(text) && (() => {
    const n = BigInt(text);
    const lim = 1n << BigInt(bits - 1);
    return n >= -lim && n < lim;
  })();
  if (!ok) {
    throw parseFailed(
      `The value ${showScientific(text)} lies outside the bounds or is not an integer.  Maybe it is a float, or is there integer overflow?`,
      path,
    );
  }
}

const AESON_NAME: Record<string, [string, string]> = {
  int2: ['Int16', 'Number'], int4: ['Int32', 'Number'], int8: ['Int64', 'Number'],
  float4: ['Float', 'Number'], float8: ['Double', 'Number'], numeric: ['Scientific', 'Number'], money: ['Scientific', 'Number'],
  bool: ['Bool', 'Boolean'],
};

/**
 * Checks a JSON value for a Postgres type and returns what to send: json/jsonb keep the JSON value; every other type
 * gets the text Postgres parses (numbers keep their literal digits). `raw` is the literal text of a number when known.
 */
export function parsePgValue(type: string, isArray: boolean, value: unknown, path: string, raw?: string): unknown {
  if (value === null || value === undefined) return null;
  if (isJsonType(type) && !isArray) return value;
  if (type === 'raster' && !isArray) {
    if (typeof value !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(value)) {
      throw parseFailed('invalid hexadecimal representation of raster well known binary format', path);
    }
    return value;
  }
  // PostGIS geometry/geography values are GeoJSON objects (the compiler applies ST_GeomFromGeoJSON).
  if (isGeoType(type) && !isArray && value !== null && typeof value === 'object' && !Array.isArray(value)) return value;
  if (typeof value === 'string') return value; // Postgres parses it (the original's PGValUnknown fallback)
  const kind = jsonKind(value);
  if (isArray) {
    if (Array.isArray(value)) return value.map((x, i) => parsePgValue(type, false, x, `${path}[${i}]`));
    throw parseFailed(`parsing Text failed, expected String, but encountered ${kind}`, path);
  }
  const known = Object.prototype.hasOwnProperty.call(AESON_NAME, type) ? AESON_NAME[type] : undefined;
  if (known) {
    const [name, want] = known;
    if (kind !== want) throw parseFailed(`parsing ${name} failed, expected ${want}, but encountered ${kind}`, path);
    if (type === 'int2' || type === 'int4' || type === 'int8') {
      boundedInt(value, raw, type === 'int2' ? 16 : type === 'int4' ? 32 : 64, path);
    }
    return typeof value === 'boolean' ? String(value) : (raw ?? String(value));
  }
  throw parseFailed(`parsing Text failed, expected String, but encountered ${kind}`, path);
}
