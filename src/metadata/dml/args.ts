// Small JSON decoders for v1 DML args, worded as the original's (Aeson) decoders. Paths of parse errors are
// relative to the args object (`$.limit`), as the original reports them.
import { EngineError } from '../../core/errors.js';
import { formatPath, type PathSegment } from '../../core/json-path.js';
import { toQualifiedName, type QualifiedName } from '../../core/names.js';
import { jsonKind } from '../../core/json-kind.js';

export const parseFailed = (message: string, path: PathSegment[]): EngineError => new EngineError('parse-failed', message, { path: formatPath(path) });

export const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function object(v: unknown, path: PathSegment[], what = 'Object'): Record<string, unknown> {
  if (!isObj(v)) throw parseFailed(`parsing ${what} failed, expected Object, but encountered ${jsonKind(v)}`, path);
  return v;
}

export function required(o: Record<string, unknown>, key: string, path: PathSegment[]): unknown {
  if (o[key] === undefined) throw parseFailed(`key "${key}" not found`, path);
  return o[key];
}

/** An optional key: absent and null are the same (Aeson's `.:?`). */
export const optional = (o: Record<string, unknown>, key: string): unknown => (o[key] === null ? undefined : o[key]);

export function string(v: unknown, path: PathSegment[]): string {
  if (typeof v !== 'string') throw parseFailed(`parsing Text failed, expected String, but encountered ${jsonKind(v)}`, path);
  return v;
}

export function array(v: unknown, path: PathSegment[], what = '[]'): unknown[] {
  if (!Array.isArray(v)) throw parseFailed(`parsing ${what} failed, expected Array, but encountered ${jsonKind(v)}`, path);
  return v;
}

export function int(v: unknown, path: PathSegment[]): number {
  if (typeof v !== 'number') throw parseFailed(`parsing Int failed, expected Number, but encountered ${jsonKind(v)}`, path);
  if (!Number.isInteger(v)) throw parseFailed(`parsing Int failed, value is either floating or will cause over or underflow ${v}`, path);
  return v;
}

export function bool(v: unknown, path: PathSegment[]): boolean {
  if (typeof v !== 'boolean') throw parseFailed(`parsing Bool failed, expected Boolean, but encountered ${jsonKind(v)}`, path);
  return v;
}

/** `"name"` (schema public) or `{"schema"?, "name"}`. */
export function tableName(v: unknown, path: PathSegment[]): QualifiedName {
  if (typeof v === 'string') return toQualifiedName(v);
  if (isObj(v)) {
    const name = string(required(v, 'name', path), [...path, 'name']);
    const schema = optional(v, 'schema');
    return toQualifiedName({ name, schema: schema === undefined ? undefined : string(schema, [...path, 'schema']) });
  }
  throw parseFailed(`parsing QualifiedTable failed, expected String or Object, but encountered ${jsonKind(v)}`, path);
}

export function stringList(v: unknown, path: PathSegment[]): string[] {
  return array(v, path, '[Text]').map((x, i) => string(x, [...path, i]));
}
