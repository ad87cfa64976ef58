// Parameter values: JSON values (literals, GraphQL variables, session values) → what pg sends as `$n` text.
import { EngineError } from '../core/errors.js';
import { valueAt } from '../core/json-path.js';
import type { PgTypeRef, ValueIR } from '../ir/types.js';
import type { ParamSlot } from './builder.js';

const JSON_TYPES = new Set(['json', 'jsonb']);

function scalarText(v: unknown, type: string): string | null {
  if (v === null || v === undefined) return null;
  if (JSON_TYPES.has(type)) return JSON.stringify(v);
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return JSON.stringify(v);
}

/** Postgres array literal (pg would build one from a JS array too, but json elements must be stringified first). */
function arrayLiteral(v: unknown[], type: string): string {
  const parts = v.map((e) => {
    if (Array.isArray(e)) return arrayLiteral(e, type);
    const s = scalarText(e, type);
    return s === null ? 'NULL' : `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${parts.join(',')}}`;
}

/** A JSON value as the text of a parameter of type `pgType`. */
export function toPgParam(v: unknown, pgType: PgTypeRef): string | null {
  if (v === null || v === undefined) return null;
  if (pgType.array && Array.isArray(v)) return arrayLiteral(v, pgType.type);
  return scalarText(v, pgType.type);
}

/** The slot for a ValueIR (literals are converted once, at compile time). */
export function slotOf(v: ValueIR): ParamSlot {
  switch (v.kind) {
    case 'literal':
      return { kind: 'const', value: toPgParam(v.value, v.pgType) };
    case 'variable':
      return { kind: 'variable', name: v.name, path: v.path, pgType: v.pgType, defaultValue: v.defaultValue };
    case 'session':
      return { kind: 'session', name: v.name.toLowerCase() };
    case 'session_object':
      return { kind: 'session_object' };
  }
}

export interface ParamSource {
  variables: Record<string, unknown>;
  sessionVariables: Record<string, string>;
}


/** The values of a statement's parameters for one execution. */
export function resolveParams(slots: readonly ParamSlot[], src: ParamSource): unknown[] {
  return slots.map((s) => {
    switch (s.kind) {
      case 'const':
        return s.value;
      case 'variable': {
        const root = Object.prototype.hasOwnProperty.call(src.variables, s.name) ? src.variables[s.name] : undefined;
        let v = valueAt(root, s.path);
        if (v === undefined) v = s.defaultValue;
        return toPgParam(v, s.pgType);
      }
      case 'session': {
        const v = src.sessionVariables[s.name];
        if (v === undefined) throw new EngineError('not-found', `"${s.name}" header is expected but not found`);
        return v;
      }
      case 'session_object':
        return JSON.stringify(src.sessionVariables);
    }
  });
}
